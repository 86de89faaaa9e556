// A session opened while an MCP server still makes its first connection: a search for one of its ids, a search
// within it, a describe and a call of one of its tools wait `startingWaitMs` for it, then answer that it is starting
// (never "unknown tool"), or, when it became ready meanwhile, answer as usual. A server the policy hides is never named.
import { mcpFixtureConfig } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import { scaledTimeout } from '@tool-search/property-settings';

const hosts: ToolSearchHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

async function hostWithSlowServer(startDelayMs: number, startingWaitMs: number): Promise<ToolSearchHost> {
  // The first session waits for nothing: the slow server is still connecting when the session asks for it.
  const host = await createToolSearchHost({ sources: { mcp: [mcpFixtureConfig('slow', { startDelayMs })] }, startupTimeoutMs: 0, startingWaitMs });
  hosts.push(host);
  return host;
}

let calls = 0;
const run = async (host: ToolSearchHost, name: string, args: Record<string, unknown>, policy?: unknown) => {
  const session = await host.openSession({ config: { mode: 'tools' }, ...(policy === undefined ? {} : { policy: policy as never }) });
  try {
    return await session.execute({ name, args, toolCallId: `t${++calls}` });
  } finally {
    await session.close();
  }
};

const STARTING = 'Error (unavailable): MCP server "slow" is starting: its tools are not listed yet (waited 200 ms). Try again in a moment.';

describe('a control tool naming an MCP server still connecting', () => {
  it('says "starting" for a name search, a search within the server, a describe and a call, after the bounded wait', { timeout: scaledTimeout(60_000) }, async () => {
    const host = await hostWithSlowServer(60_000, 200);
    expect(host.status().servers.map((server) => [server.name, server.state])).toEqual([['slow', 'starting']]);
    for (const [name, args] of [
      ['tool_search', { query: 'mcp:slow:echo_text' }],
      ['tool_search', { server: 'slow', query: 'echo' }],
      ['tool_search', { server: 'slow' }],
      ['tool_describe', { id: 'mcp:slow:echo_text' }],
      ['tool_call', { id: 'mcp:slow:echo_text', args: { text: 'hi' } }],
    ] as const) {
      const outcome = await run(host, name, args);
      expect({ name, args, status: outcome.status, content: outcome.content }).toEqual({ name, args, status: 'error', content: STARTING });
    }
  });

  it('answers as usual once the server is ready within the wait', { timeout: scaledTimeout(60_000) }, async () => {
    const host = await hostWithSlowServer(1_500, 30_000);
    const called = await run(host, 'tool_call', { id: 'mcp:slow:echo_text', args: { text: 'after the wait' } });
    expect(called.content).toContain('echo: after the wait');
    const described = await run(host, 'tool_describe', { id: 'mcp:slow:add_numbers' });
    expect(described.status).toBe('ok');
  });

  it('neither waits for nor names a server the policy hides', { timeout: scaledTimeout(60_000) }, async () => {
    const host = await hostWithSlowServer(60_000, 20_000);
    const started = Date.now();
    const outcome = await run(host, 'tool_describe', { id: 'mcp:slow:echo_text' }, { deny: ['mcp:slow:*'] });
    expect(outcome.content).not.toContain('starting');
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('createToolSearchHost maxConcurrentStarts', () => {
  it('connects its MCP servers in turns: with one start at a time, a quick server listed after a slow one is ready only after it', { timeout: scaledTimeout(60_000) }, async () => {
    const host = await createToolSearchHost({ sources: { mcp: [mcpFixtureConfig('slow', { startDelayMs: 2_000 }), mcpFixtureConfig('quick')] }, startupTimeoutMs: 0, maxConcurrentStarts: 1 });
    hosts.push(host);
    const readyOrder: string[] = [];
    while (readyOrder.length < 2) {
      for (const server of host.status().servers) if (server.state === 'ready' && !readyOrder.includes(server.name)) readyOrder.push(server.name);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(readyOrder).toEqual(['slow', 'quick']);
  });

  it('refuses a maxConcurrentStarts that is not a whole number 1 or more', async () => {
    await expect(createToolSearchHost({ sources: {}, maxConcurrentStarts: 0 })).rejects.toThrow('Invalid maxConcurrentStarts: expected a whole number 1 or more, received 0');
  });
});
