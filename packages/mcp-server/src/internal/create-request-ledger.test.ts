import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createRequestLedger, SHUTTING_DOWN_CODE } from './create-request-ledger.js';

const request = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'x' } });
const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });

describe('createRequestLedger', () => {
  it('tracks requests until answered, finishes the drain when the last one is answered, and cuts none', async () => {
    const answered: unknown[] = [];
    const ledger = createRequestLedger((id, error) => answered.push({ id, error }));
    expect(ledger.received(request(1))).toBe(true);
    expect(ledger.received({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })).toBe(true);
    expect([...ledger.inFlight]).toEqual([1]);
    const drained = ledger.drain(10_000);
    expect(ledger.sending(answer(1))).toBe(true);
    expect(await drained).toEqual({ finished: 1, cut: 0 });
    expect(answered).toEqual([]);
  });

  it('answers what is left at the drain timeout, refuses new requests while draining, and drops a late answer', async () => {
    const answered: Array<{ id: unknown; error: { code: number; message: string } }> = [];
    const ledger = createRequestLedger((id, error) => answered.push({ id, error }));
    ledger.received(request(1));
    ledger.received(request(2));
    ledger.sending(answer(1));
    const drained = ledger.drain(50);
    expect(ledger.received(request(3))).toBe(false);
    expect(await drained).toEqual({ finished: 0, cut: 1 });
    expect(answered).toEqual([
      { id: 3, error: { code: SHUTTING_DOWN_CODE, message: 'Server shutting down: no new requests are taken' } },
      { id: 2, error: { code: SHUTTING_DOWN_CODE, message: 'Server shutting down: the request did not finish within the drain timeout (50 ms) and was cancelled' } },
    ]);
    expect(ledger.sending(answer(2))).toBe(false);
    expect(ledger.inFlight.size).toBe(0);
  });
});
