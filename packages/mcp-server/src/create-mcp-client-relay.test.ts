// The relay's routing rule, on its own: a question asked within a call's scope (`within`) and marked so by the
// gateway (`withinCall`) goes to that call's client whatever else is in flight; any other question goes to the one
// client with a call in flight, or to nobody. Fails closed: never to a client whose call did not ask.
import { describe, expect, it } from 'vitest';
import { createMcpClientRelay, type RelayCall } from './create-mcp-client-relay.js';

const QUESTION = { mode: 'form', message: 'Deploy?', requestedSchema: { type: 'object', properties: {} } } as never;

function call(session: string, asked: string[]): RelayCall {
  return {
    session,
    capabilities: () => ({ elicitation: { form: {} } }),
    sendRequest: async (request) => {
      asked.push(session);
      return { action: 'accept', content: { via: session, method: request.method } } as never;
    },
  };
}

describe('createMcpClientRelay', () => {
  it('sends a question asked within a call to that call, even while another client has a call in flight', async () => {
    const relay = createMcpClientRelay();
    const asked: string[] = [];
    const a = call('a', asked);
    const b = call('b', asked);
    const leave = [relay.enter(a), relay.enter(b)];
    const signal = new AbortController().signal;
    const answer = await relay.within(b, () => relay.onElicitation(QUESTION, { server: 'up', signal, withinCall: true }));
    expect(answer).toMatchObject({ action: 'accept', content: { via: 'b' } });
    expect(asked).toEqual(['b']);
    for (const done of leave) done();
  });

  it("falls back to the in-flight rule for a question not marked as asked within a call (a 2025 server's own request)", async () => {
    const relay = createMcpClientRelay();
    const asked: string[] = [];
    const a = call('a', asked);
    const b = call('b', asked);
    const leave = [relay.enter(a), relay.enter(b)];
    const signal = new AbortController().signal;
    // Dispatched in b's context (say, a connection started during b's call), but not marked: two clients in flight.
    expect(await relay.within(b, () => relay.onElicitation(QUESTION, { server: 'up', signal }))).toEqual({ action: 'decline' });
    expect(asked).toEqual([]);
    leave[0]!();
    // One client left in flight: it is asked.
    expect(await relay.onElicitation(QUESTION, { server: 'up', signal })).toMatchObject({ content: { via: 'b' } });
    leave[1]!();
  });

  it('does not route by a call that has ended, and refuses sampling to a client without the capability', async () => {
    const relay = createMcpClientRelay();
    const asked: string[] = [];
    const a = call('a', asked);
    const signal = new AbortController().signal;
    const leaveA = relay.enter(a);
    leaveA();
    // a's scope, but a is no longer in flight; nobody else is either.
    expect(await relay.within(a, () => relay.onElicitation(QUESTION, { server: 'up', signal, withinCall: true }))).toEqual({ action: 'decline' });
    const b = call('b', asked);
    const leaveB = relay.enter(b);
    await expect(relay.within(b, () => relay.onSampling({ messages: [], maxTokens: 10 } as never, { server: 'up', signal, withinCall: true }))).rejects.toThrow(/sampling capability/);
    leaveB();
    expect(asked).toEqual([]);
  });
});
