import { describe, expect, it } from 'vitest';
import type { InputCallRendezvous, InputCallReply } from '../input-call-rendezvous.js';
import { createModernInputCalls } from './modern-input-calls.js';

const anything = { parse: (value: unknown) => value };

describe('createModernInputCalls', () => {
  it('answers the first round with the question, and the retry with the result', async () => {
    const calls = createModernInputCalls();
    const first = (await calls.start(async (ask) => {
      const answer = (await ask({ method: 'elicitation/create', params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } } }, anything)) as { action: string };
      return { content: [{ type: 'text', text: `answered ${answer.action}` }] };
    })) as { resultType?: string; inputRequests?: Record<string, { method: string }>; requestState?: string };
    expect(first.resultType).toBe('input_required');
    expect(Object.values(first.inputRequests ?? {}).map((request) => request.method)).toEqual(['elicitation/create']);
    expect(calls.pending()).toBe(1);
    const state = await calls.codec.verify(first.requestState as string, {} as never);
    const done = await calls.resume(state, { [Object.keys(first.inputRequests ?? {})[0] as string]: { action: 'accept' } });
    expect(done).toEqual({ content: [{ type: 'text', text: 'answered accept' }] });
    expect(calls.pending()).toBe(0);
  });

  it('keeps a call that fails between rounds from rejecting unhandled; a retry after it is told no call is waiting', async () => {
    const calls = createModernInputCalls();
    let fail: (error: Error) => void = () => undefined;
    const first = (await calls.start(
      (ask) =>
        new Promise((_resolve, reject) => {
          void ask({ method: 'elicitation/create', params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } } }, anything).catch(() => undefined);
          fail = reject;
        }),
    )) as { requestState?: string };
    fail(new Error('the session went away'));
    // Let the rejection settle with nobody awaiting it: vitest fails the run on an unhandled rejection.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const state = await calls.codec.verify(first.requestState as string, {} as never);
    await expect(calls.resume(state, {})).rejects.toThrow(/No call is waiting/);
  });

  it("asks under the upstream server's own keys, and under a key of its own when a key is missing or taken", async () => {
    const calls = createModernInputCalls();
    const question = { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } } };
    const first = (await calls.start(async (ask) => {
      const answers = await Promise.all([ask(question, anything, 'user_name'), ask(question, anything, 'user_name'), ask(question, anything)]);
      return { content: [{ type: 'text', text: JSON.stringify(answers) }] };
    })) as { inputRequests?: Record<string, unknown>; requestState?: string };
    expect(Object.keys(first.inputRequests ?? {})).toEqual(['user_name', 'input-1', 'input-2']);
    const state = await calls.codec.verify(first.requestState as string, {} as never);
    const done = await calls.resume(state, { user_name: 'a', 'input-1': 'b', 'input-2': 'c' });
    expect(done).toEqual({ content: [{ type: 'text', text: '["a","b","c"]' }] });
  });

  it('mints a different state for each round of the same call', async () => {
    const calls = createModernInputCalls();
    const question = { method: 'elicitation/create', params: { message: 'Next?', requestedSchema: { type: 'object', properties: {} } } };
    const first = (await calls.start(async (ask) => {
      await ask(question, anything, 'step1');
      await ask(question, anything, 'step2');
      return { content: [] };
    })) as { requestState?: string };
    const state = await calls.codec.verify(first.requestState as string, {} as never);
    const second = (await calls.resume(state, { step1: {} })) as { inputRequests?: object; requestState?: string };
    expect(Object.keys(second.inputRequests ?? {})).toEqual(['step2']);
    expect(second.requestState).not.toBe(first.requestState);
  });

  it("answers a round only with that round's state: round 1's state cannot answer round 2's question, nor be replayed", async () => {
    const calls = createModernInputCalls();
    const question = (message: string) => ({ method: 'elicitation/create', params: { message, requestedSchema: { type: 'object', properties: {} } } });
    const seen: unknown[] = [];
    const first = (await calls.start(async (ask) => {
      // The upstream asks under the same key both rounds: only the state tells the rounds apart.
      seen.push(await ask(question('Deploy to staging?'), anything, 'confirm'));
      seen.push(await ask(question('Deploy to production?'), anything, 'confirm'));
      return { content: [{ type: 'text', text: JSON.stringify(seen) }] };
    })) as { requestState?: string };
    const roundOne = await calls.codec.verify(first.requestState as string, {} as never);
    const second = (await calls.resume(roundOne, { confirm: { action: 'accept', content: { staging: true } } })) as { inputRequests?: object; requestState?: string };
    expect(Object.keys(second.inputRequests ?? {})).toEqual(['confirm']);
    // Round 1's state again (a replay, or a stale retry), with an answer for the production question: refused.
    await expect(calls.resume(roundOne, { confirm: { action: 'accept', content: { production: true } } })).rejects.toThrow(/requestState is of round 1; the call waits for the answers of round 2/);
    expect(seen).toEqual([{ action: 'accept', content: { staging: true } }]);
    // Round 2's own state answers it.
    const roundTwo = await calls.codec.verify(second.requestState as string, {} as never);
    expect(await calls.resume(roundTwo, { confirm: { action: 'decline' } })).toEqual({ content: [{ type: 'text', text: JSON.stringify([{ action: 'accept', content: { staging: true } }, { action: 'decline' }]) }] });
    // And once answered, round 2's state cannot be replayed either.
    await expect(calls.resume(roundTwo, {})).rejects.toThrow(/No call is waiting/);
  });

  it('refuses a state without a round, and a replay of the round just answered while the call still runs', async () => {
    const calls = createModernInputCalls();
    let finish: () => void = () => undefined;
    const first = (await calls.start(async (ask) => {
      await ask({ method: 'elicitation/create', params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } } }, anything, 'go');
      await new Promise<void>((resolve) => (finish = resolve));
      return { content: [] };
    })) as { requestState?: string };
    const state = await calls.codec.verify(first.requestState as string, {} as never);
    await expect(calls.resume({ call: state.call }, { go: { action: 'accept' } })).rejects.toThrow(/requestState is of no round/);
    const answered = calls.resume(state, { go: { action: 'accept' } });
    await new Promise((resolve) => setImmediate(resolve));
    await expect(calls.resume(state, { go: { action: 'decline' } })).rejects.toThrow(/requestState is of round 1; the call waits for no answers now/);
    finish();
    expect(await answered).toEqual({ content: [] });
  });

  it('verifies a state minted by another instance given the same secret, and refuses one signed with another secret', async () => {
    const secret = 'a shared secret of at least thirty-two bytes';
    const replicaA = createModernInputCalls({ stateSecret: secret });
    const replicaB = createModernInputCalls({ stateSecret: secret });
    const stranger = createModernInputCalls({ stateSecret: 'another secret, also thirty-two bytes or more' });
    const first = (await replicaA.start((ask) => ask({ method: 'elicitation/create', params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } } }, anything).then(() => ({ content: [] })))) as { requestState?: string };
    await expect(replicaB.codec.verify(first.requestState as string, {} as never)).resolves.toEqual({ call: expect.any(String), round: 1 });
    await expect(stranger.codec.verify(first.requestState as string, {} as never)).rejects.toThrow();
    // The call itself is held by replica A: B verifies the state and says so.
    const state = await replicaB.codec.verify(first.requestState as string, {} as never);
    await expect(replicaB.resume(state, {})).rejects.toThrow(/No call is waiting for these answers/);
    await replicaA.resume(state, { 'input-1': { action: 'decline' } });
  });

  it('passes a retry that reaches another instance to the one holding the call, through the rendezvous, and its answer back', async () => {
    const holders = new Map<string, (answers: Record<string, unknown> | undefined) => Promise<InputCallReply>>();
    const forwarded: string[] = [];
    const rendezvous: InputCallRendezvous = {
      async hold(callId, answer) {
        holders.set(callId, answer);
        return async () => void holders.delete(callId);
      },
      async forward(callId, answers) {
        forwarded.push(callId);
        return holders.get(callId)?.(answers);
      },
    };
    const secret = 'a shared secret of at least thirty-two bytes';
    const replicaA = createModernInputCalls({ stateSecret: secret, rendezvous });
    const replicaB = createModernInputCalls({ stateSecret: secret, rendezvous });
    const first = (await replicaA.start(async (ask) => {
      const answer = (await ask({ method: 'elicitation/create', params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } } }, anything)) as { action: string };
      return { content: [{ type: 'text', text: `answered ${answer.action} on A` }] };
    })) as { requestState?: string };
    const state = await replicaB.codec.verify(first.requestState as string, {} as never);
    expect(await replicaB.resume(state, { 'input-1': { action: 'accept' } })).toEqual({ content: [{ type: 'text', text: 'answered accept on A' }] });
    expect(forwarded).toEqual([`${state.call}:round-1`]);
    // The call is over: A no longer holds it, and another retry is told so.
    expect(holders.size).toBe(0);
    await expect(replicaB.resume(state, {})).rejects.toThrow(/No call is waiting for these answers/);
  });

  it("holds each round under its own name at the rendezvous: another replica's replay of round 1 reaches nothing in round 2", async () => {
    const holders = new Map<string, (answers: Record<string, unknown> | undefined) => Promise<InputCallReply>>();
    const rendezvous: InputCallRendezvous = {
      async hold(callId, answer) {
        holders.set(callId, answer);
        return async () => void holders.delete(callId);
      },
      forward: async (callId, answers) => holders.get(callId)?.(answers),
    };
    const secret = 'a shared secret of at least thirty-two bytes';
    const replicaA = createModernInputCalls({ stateSecret: secret, rendezvous });
    const replicaB = createModernInputCalls({ stateSecret: secret, rendezvous });
    const question = { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } } };
    const seen: unknown[] = [];
    const first = (await replicaA.start(async (ask) => {
      seen.push(await ask(question, anything, 'confirm'));
      seen.push(await ask(question, anything, 'confirm'));
      return { content: [] };
    })) as { requestState?: string };
    const roundOne = await replicaB.codec.verify(first.requestState as string, {} as never);
    const second = (await replicaB.resume(roundOne, { confirm: { action: 'accept' } })) as { requestState?: string };
    expect(await replicaB.codec.verify(second.requestState as string, {} as never)).toEqual({ call: roundOne.call, round: 2 });
    expect([...holders.keys()]).toEqual([`${roundOne.call}:round-2`]);
    await expect(replicaB.resume(roundOne, { confirm: { action: 'decline' } })).rejects.toThrow(/No call is waiting for these answers/);
    expect(seen).toEqual([{ action: 'accept' }]);
  });
});
