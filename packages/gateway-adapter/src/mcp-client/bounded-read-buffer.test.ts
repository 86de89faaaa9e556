import { describe, expect, it } from 'vitest';
import { BoundedReadBuffer, RESULT_TOO_LARGE_CODE } from './bounded-read-buffer.js';

const line = (message: unknown) => Buffer.from(`${JSON.stringify(message)}\n`);

describe('BoundedReadBuffer', () => {
  it('reads whole lines split across chunks, as the SDK buffer does', () => {
    const buffer = new BoundedReadBuffer(1_000);
    const bytes = Buffer.concat([line({ jsonrpc: '2.0', id: 1, result: { a: 1 } }), line({ jsonrpc: '2.0', method: 'notifications/x' })]);
    buffer.append(bytes.subarray(0, 10));
    expect(buffer.readMessage()).toBeNull();
    buffer.append(bytes.subarray(10));
    expect(buffer.readMessage()).toEqual({ jsonrpc: '2.0', id: 1, result: { a: 1 } });
    expect(buffer.readMessage()).toEqual({ jsonrpc: '2.0', method: 'notifications/x' });
    expect(buffer.readMessage()).toBeNull();
  });

  it('turns an answer over the limit into an error answer to its request (id last, as the TypeScript SDK writes it), and reads on', () => {
    const buffer = new BoundedReadBuffer(1_000);
    const big = line({ result: { content: [{ type: 'text', text: 'x'.repeat(5_000), id: 99 }] }, jsonrpc: '2.0', id: 7 });
    for (let offset = 0; offset < big.length; offset += 300) buffer.append(big.subarray(offset, offset + 300));
    buffer.append(line({ jsonrpc: '2.0', id: 8, result: {} }));
    expect(buffer.readMessage()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: RESULT_TOO_LARGE_CODE, message: `the answer was ${big.length - 1} bytes, over the limit of 1000 bytes (maxResultBytes); it was discarded`, data: { reason: 'result_too_large', bytes: big.length - 1, limit: 1_000 } },
    });
    expect(buffer.readMessage()).toEqual({ jsonrpc: '2.0', id: 8, result: {} });
  });

  it('reads the id of a server that writes it first', () => {
    const buffer = new BoundedReadBuffer(1_000);
    buffer.append(line({ jsonrpc: '2.0', id: 'call-3', result: { text: 'y'.repeat(2_000) } }));
    expect(buffer.readMessage()).toMatchObject({ id: 'call-3', error: { code: RESULT_TOO_LARGE_CODE } });
  });

  it('drops an oversized request or notification of the server (it answers no request of ours) and says so', () => {
    const dropped: number[] = [];
    const buffer = new BoundedReadBuffer(1_000, (bytes) => dropped.push(bytes));
    buffer.append(line({ method: 'sampling/createMessage', params: { text: 'z'.repeat(2_000) }, jsonrpc: '2.0', id: 0 }));
    expect(buffer.readMessage()).toBeNull();
    expect(dropped).toHaveLength(1);
  });
});
