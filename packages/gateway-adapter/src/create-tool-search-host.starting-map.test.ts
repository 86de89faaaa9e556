// The server map while an MCP server still makes its first connection: `tool_search({})` and a weak answer's map
// show it as starting (its tools are not listed yet), so a model is never told a server it needs is not there; a
// server the policy hides is not named, and one that became ready is listed as usual.
import { mcpFixtureConfig } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';
import { scaledTimeout } from '@tool-search/property-settings';

const hosts: ToolSearchHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

const notes: ExecutableTool[] = [{ name: 'add_note', owner: 'notes', description: 'Add a note to the notebook.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, execute: () => 'ok' }];

async function hostWithSlowServer(startDelayMs: number): Promise<ToolSearchHost> {
  const host = await createToolSearchHost({ sources: { mcp: [mcpFixtureConfig('slow', { startDelayMs })], openclaw: notes }, startupTimeoutMs: 0, startingWaitMs: 100 });
  hosts.push(host);
  return host;
}

let calls = 0;
async function map(host: ToolSearchHost, args: Record<string, unknown>, policy?: unknown): Promise<{ servers: Array<{ owner: string; state?: string; toolCount: number }> }> {
  const session = await host.openSession({ config: { mode: 'tools' }, ...(policy === undefined ? {} : { policy: policy as never }) });
  try {
    const outcome = await session.execute({ name: 'tool_search', args, toolCallId: `m${++calls}` });
    expect(outcome.status).toBe('ok');
    const value = JSON.parse(outcome.content) as { servers: unknown };
    return (Array.isArray(value) ? { servers: [] } : 'evidence' in (value as object) ? value.servers : value) as { servers: Array<{ owner: string; state?: string; toolCount: number }> };
  } finally {
    await session.close();
  }
}

describe('the server map while an MCP server is starting', () => {
  it('shows the server as starting in tool_search({}) and in a weak answer\'s map, and not when the policy hides it', { timeout: scaledTimeout(60_000) }, async () => {
    const host = await hostWithSlowServer(60_000);
    expect(host.status().servers.map((server) => [server.name, server.state])).toEqual([['slow', 'starting']]);
    const whole = await map(host, {});
    expect(whole.servers).toContainEqual({ source: 'mcp', owner: 'slow', summary: '', toolCount: 0, tools: [], state: 'starting' });
    expect(whole.servers.map((server) => server.owner)).toContain('notes');
    const weak = await map(host, { query: 'zzqx vvyk' });
    expect(weak.servers.find((server) => server.owner === 'slow')?.state).toBe('starting');
    const hidden = await map(host, {}, { deny: ['mcp:slow:*'] });
    expect(hidden.servers.map((server) => server.owner)).toEqual(['notes']);
  });

  it('lists the server as usual once it is ready', { timeout: scaledTimeout(60_000) }, async () => {
    const host = await hostWithSlowServer(500);
    while (host.status().servers[0]?.state !== 'ready') await new Promise((resolve) => setTimeout(resolve, 50));
    const slow = (await map(host, {})).servers.find((server) => server.owner === 'slow');
    expect(slow?.state).toBeUndefined();
    expect(slow?.toolCount).toBeGreaterThan(0);
  });
});
