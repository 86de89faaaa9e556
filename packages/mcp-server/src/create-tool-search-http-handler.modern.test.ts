// Both protocol eras through one endpoint: the official SDK v2 client pinned to 2026-07-28 and a 2025-era (SDK v1)
// client search and call through the same `createToolSearchHttpHandler`, over real HTTP, against a host with a real
// MCP server behind it.
import { listenOnLoopback } from './internal/listen-on-loopback.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { mcpFixtureConfig } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHttpHandler, type CreateToolSearchHttpHandlerOptions, type ToolSearchHttpHandler } from './create-tool-search-http-handler.js';
import { STABLE_TOOLS_TTL_MS } from './internal/create-modern-front.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(options: Partial<CreateToolSearchHttpHandlerOptions> = {}): Promise<{ url: string; handler: ToolSearchHttpHandler }> {
  const host = await createToolSearchHost({ sources: { mcp: [mcpFixtureConfig('fixture')] } });
  const handler = createToolSearchHttpHandler({ host, config: { mode: 'tools' }, allowedHosts: ['localhost', '127.0.0.1', '[::1]'], ...options });
  const listening = await listenOnLoopback(handler);
  cleanups.push(async () => {
    await listening.close();
    await host.close();
  });
  return { url: listening.url, handler };
}

async function modernClient(url: string, token?: string): Promise<ModernClient> {
  const client = new ModernClient({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  cleanups.push(() => client.close());
  return client;
}

async function legacyClient(url: string): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'legacy-test', version: '1.0.0' });
  await client.connect(new LegacyTransport(new URL(url)));
  cleanups.push(() => client.close());
  return client;
}

const textOf = (result: unknown) => ((result as { content: Array<{ type: string; text?: string }> }).content.find((part) => part.type === 'text')?.text ?? '');

describe('createToolSearchHttpHandler: both protocol eras on one endpoint', () => {
  it('lets a client pinned to 2026-07-28 and a 2025-era client list, search and call through the same endpoint', async () => {
    const { url, handler } = await serve();
    const modern = await modernClient(url);
    const legacy = await legacyClient(url);
    expect(modern.getProtocolEra()).toBe('modern');

    const modernTools = await modern.listTools();
    expect(modernTools.tools.map((tool) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    expect((await legacy.listTools()).tools.map((tool) => tool.name)).toEqual(modernTools.tools.map((tool) => tool.name));

    const found = textOf(await modern.callTool({ name: 'tool_search', arguments: { query: 'echo text' } }));
    expect(found).toContain('mcp:fixture:echo_text');
    const called = await modern.callTool({ name: 'tool_call', arguments: { id: 'mcp:fixture:echo_text', args: { text: 'over 2026-07-28' } } });
    expect(called.isError ?? false).toBe(false);
    expect(textOf(called)).toContain('over 2026-07-28');
    const legacyCalled = await legacy.callTool({ name: 'tool_call', arguments: { id: 'mcp:fixture:echo_text', args: { text: 'over 2025' } } });
    expect(textOf(legacyCalled)).toContain('over 2025');

    // The modern client holds no session: only the 2025 client does.
    expect(handler.sessions()).toBe(1);
  });

  it('answers a modern tools/list with cache hints: the control tools may be reused, privately', async () => {
    const { url } = await serve();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Method': 'tools/list', 'MCP-Protocol-Version': '2026-07-28' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    const json = JSON.parse(text.startsWith('{') ? text : (text.split('\n').find((line) => line.startsWith('data: '))?.slice(6) ?? '{}')) as { result?: { ttlMs?: number; cacheScope?: string; tools?: unknown[] } };
    expect(json.result).toMatchObject({ ttlMs: STABLE_TOOLS_TTL_MS, cacheScope: 'private' });
    expect(json.result?.tools).toHaveLength(3);
  });

  it('puts a modern request behind the same bearer token', async () => {
    const { url } = await serve({ token: 'secret' });
    await expect(modernClient(url)).rejects.toThrow();
    const client = await modernClient(url, 'secret');
    expect((await client.listTools()).tools).toHaveLength(3);
  });

  it('keeps a modern call to a refused tool refused, as on the 2025 path', async () => {
    const { url } = await serve({ policy: { deny: ['mcp:fixture:echo_text'] } });
    const client = await modernClient(url);
    expect(textOf(await client.callTool({ name: 'tool_search', arguments: { query: 'echo text' } }))).not.toContain('mcp:fixture:echo_text');
    const refused = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:fixture:echo_text', args: { text: 'x' } } });
    expect(refused.isError).toBe(true);
  });
});
