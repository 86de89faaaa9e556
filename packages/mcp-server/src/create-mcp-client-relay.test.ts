// The relay's routing rule, on its own: a question of upstream server S goes to a call in flight that is talking to
// S and whose policy admits S. Asked within a call's scope (`within`) and marked so by the gateway (`withinCall`),
// it goes to that call or to nobody; any other goes to the one client whose calls talk to S, or to nobody. An
// approval goes to the call it is asked within, or to nobody. Fails closed: never to a client whose call did not ask.
import { describe, expect, it, vi } from 'vitest';
import { createMcpClientRelay, type RelayCall } from './create-mcp-client-relay.js';

const QUESTION = { mode: 'form', message: 'Deploy?', requestedSchema: { type: 'object', properties: {} } } as never;

function call(session: string, asked: string[], options: { talks?: string[]; admitted?: string[] } = {}): RelayCall & { talking: Set<string> } {
  const talking = new Set(options.talks ?? ['up']);
  const admitted = options.admitted ?? ['up'];
  return {
    session,
    talking,
    capabilities: () => ({ elicitation: { form: {} } }),
    talksTo: (server) => talking.has(server),
    admits: (server) => admitted.includes(server),
    sendRequest: async (request) => {
      asked.push(session);
      return { action: 'accept', content: { via: session, method: request.method } } as never;
    },
  };
}

describe('createMcpClientRelay', () => {
  it('sends a question asked within a call to that call, even while another client has a call to the same server in flight', async () => {
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

  it("routes a question not marked as asked within a call (a 2025 server's own request) to the one client calling that server", async () => {
    const relay = createMcpClientRelay();
    const asked: string[] = [];
    const a = call('a', asked, { talks: ['other'], admitted: ['other', 'up'] });
    const b = call('b', asked);
    const c = call('c', asked);
    const leave = [relay.enter(a), relay.enter(b), relay.enter(c)];
    const signal = new AbortController().signal;
    // Two clients are calling "up": whose call asked is not known.
    expect(await relay.within(b, () => relay.onElicitation(QUESTION, { server: 'up', signal }))).toEqual({ action: 'decline' });
    expect(asked).toEqual([]);
    leave[2]!();
    // b is the one client calling "up" (a calls another server, and is not asked).
    expect(await relay.onElicitation(QUESTION, { server: 'up', signal })).toMatchObject({ content: { via: 'b' } });
    expect(asked).toEqual(['b']);
    leave[0]!();
    leave[1]!();
  });

  it("never puts a refused server's question to a client whose call talks to another server (the issue's phishing path)", async () => {
    const relay = createMcpClientRelay();
    const asked: string[] = [];
    // The victim's one call in flight is to the allowed server "public"; its policy denies "hrsecret".
    const victim = call('victim', asked, { talks: ['public'], admitted: ['public'] });
    const leave = relay.enter(victim);
    const signal = new AbortController().signal;
    expect(await relay.onElicitation({ ...(QUESTION as object), message: 'please re-enter your SSO password' } as never, { server: 'hrsecret', signal })).toEqual({ action: 'decline' });
    await expect(relay.onSampling({ messages: [], maxTokens: 10 } as never, { server: 'hrsecret', signal })).rejects.toThrow(/Sampling is not available: no MCP client has a tool call in flight to MCP server "hrsecret"/);
    // Nor within the victim's own call (a 2026-07-28 round carrying another server's question).
    expect(await relay.within(victim, () => relay.onElicitation(QUESTION, { server: 'hrsecret', signal, withinCall: true }))).toEqual({ action: 'decline' });
    expect(asked).toEqual([]);
    leave();
  });

  it("refuses a question of a server the call talks to when the session's policy does not admit it", async () => {
    const relay = createMcpClientRelay();
    const asked: string[] = [];
    const a = call('a', asked, { talks: ['up'], admitted: [] });
    const leave = relay.enter(a);
    const signal = new AbortController().signal;
    expect(await relay.onElicitation(QUESTION, { server: 'up', signal })).toEqual({ action: 'decline' });
    expect(await relay.within(a, () => relay.onElicitation(QUESTION, { server: 'up', signal, withinCall: true }))).toEqual({ action: 'decline' });
    expect(asked).toEqual([]);
    leave();
  });

  it('does not hand a question asked after its call ended (cancelled, timed out) to whoever calls next', async () => {
    const relay = createMcpClientRelay();
    const asked: string[] = [];
    const a = call('a', asked);
    const signal = new AbortController().signal;
    const leaveA = relay.enter(a);
    leaveA();
    // The next caller talks to the same server.
    const b = call('b', asked);
    const leaveB = relay.enter(b);
    // a's scope, but a is no longer in flight: nobody, not b.
    expect(await relay.within(a, () => relay.onElicitation(QUESTION, { server: 'up', signal, withinCall: true }))).toEqual({ action: 'decline' });
    await expect(relay.within(a, () => relay.onSampling({ messages: [], maxTokens: 10 } as never, { server: 'up', signal, withinCall: true }))).rejects.toThrow(/has ended/);
    expect(asked).toEqual([]);
    leaveB();
  });

  it("refuses a 2025-era question of a server whose call was abandoned moments ago, though another client now calls it", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const relay = createMcpClientRelay({ abandonedQuietMs: 10_000 });
      const asked: string[] = [];
      const signal = new AbortController().signal;
      // a's call to "up" timed out; the server may still be working on it, and asks on.
      const a = call('a', asked);
      const leaveA = relay.enter(a);
      a.talking.delete('up');
      relay.abandoned('up');
      leaveA();
      const b = call('b', asked);
      const leaveB = relay.enter(b);
      expect(await relay.onElicitation(QUESTION, { server: 'up', signal })).toEqual({ action: 'decline' });
      // b's own 2026-07-28 rounds still reach b: they say whose call they are.
      expect(await relay.within(b, () => relay.onElicitation(QUESTION, { server: 'up', signal, withinCall: true }))).toMatchObject({ content: { via: 'b' } });
      vi.setSystemTime(Date.now() + 10_001);
      expect(await relay.onElicitation(QUESTION, { server: 'up', signal })).toMatchObject({ content: { via: 'b' } });
      expect(asked).toEqual(['b', 'b']);
      leaveB();
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses sampling to a client without the capability', async () => {
    const relay = createMcpClientRelay();
    const asked: string[] = [];
    const b = call('b', asked);
    const leaveB = relay.enter(b);
    const signal = new AbortController().signal;
    await expect(relay.within(b, () => relay.onSampling({ messages: [], maxTokens: 10 } as never, { server: 'up', signal, withinCall: true }))).rejects.toThrow(/sampling capability/);
    leaveB();
    expect(asked).toEqual([]);
  });

  describe('onApproval', () => {
    it('asks the client of the call it is asked within, and only while that call is in flight', async () => {
      const relay = createMcpClientRelay();
      const asked: string[] = [];
      const a = call('a', asked, { talks: [] });
      const b = call('b', asked, { talks: [] });
      const leave = [relay.enter(a), relay.enter(b)];
      const signal = new AbortController().signal;
      expect(await relay.within(a, () => relay.onApproval(QUESTION, { server: 'tool-search approvals', signal }))).toMatchObject({ content: { via: 'a' } });
      expect(asked).toEqual(['a']);
      leave[0]!();
      // a has ended: not b, though b is the one client left with a call in flight.
      expect(await relay.within(a, () => relay.onApproval(QUESTION, { server: 'tool-search approvals', signal }))).toEqual({ action: 'decline' });
      expect(asked).toEqual(['a']);
      leave[1]!();
    });

    it('declines an approval asked outside every call, even with one client in flight', async () => {
      const relay = createMcpClientRelay();
      const asked: string[] = [];
      const leave = relay.enter(call('a', asked));
      expect(await relay.onApproval(QUESTION, { server: 'tool-search approvals', signal: new AbortController().signal })).toEqual({ action: 'decline' });
      expect(asked).toEqual([]);
      leave();
    });
  });
});
