// Wide and deep requests at the HTTP endpoint: a `_meta` of 250,000 keys or nested 5,000 levels (both within the
// 4 MiB body limit) is answered 400 with a JSON-RPC error naming the bound, on either revision, before any schema
// reads it; the endpoint goes on serving the same session and other clients.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { mcpFixtureConfig } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHttpHandler } from './create-tool-search-http-handler.js';
import { listenOnLoopback } from './internal/listen-on-loopback.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(): Promise<string> {
  const host = await createToolSearchHost({ sources: { mcp: [mcpFixtureConfig('fixture')] } });
  const handler = createToolSearchHttpHandler({ host, config: { mode: 'tools' }, allowedHosts: ['localhost', '127.0.0.1', '[::1]'] });
  const listening = await listenOnLoopback(handler);
  cleanups.push(async () => {
    await listening.close();
    await host.close();
  });
  return listening.url;
}

const wide = (keys: number): Record<string, number> => Object.fromEntries(Array.from({ length: keys }, (_, index) => [`k${index}`, index]));
/** `{"a":{"a":…{}}}` nested `depth` levels, as text (JSON.stringify would recurse as deep). */
const deepText = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

const post = async (url: string, body: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body });
  return { status: response.status, json: (await response.json()) as { id: unknown; error?: { code: number; message: string } } };
};

describe('createToolSearchHttpHandler, request bounds', () => {
  it('answers a 2025 session request whose _meta has 250,000 keys with 400 naming the bound, and serves the session after it', async () => {
    const url = await serve();
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const client = new Client({ name: 'bounds-test', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const body = JSON.stringify({ jsonrpc: '2.0', id: 41, method: 'tools/call', params: { name: 'tool_search', arguments: { query: 'echo' }, _meta: wide(250_000) } });
    expect(Buffer.byteLength(body)).toBeLessThan(4 * 1024 * 1024);
    const answered = await post(url, body, { 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' });
    expect(answered).toEqual({ status: 400, json: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: params._meta has more than 1000 keys and items (the limit)' } } });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
  });

  it('answers a 2026-07-28 request whose _meta has 250,000 keys with 400 naming the bound', async () => {
    const url = await serve();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'tools/list', params: { _meta: { ...MODERN_META, ...wide(250_000) } } });
    const answered = await post(url, body, { 'Mcp-Method': 'tools/list', 'MCP-Protocol-Version': '2026-07-28' });
    expect(answered).toEqual({ status: 400, json: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: params._meta has more than 1000 keys and items (the limit)' } } });
  });

  it('answers a _meta nested 5,000 levels with 400 naming the bound (not 500), on either revision and on an initialize', async () => {
    const url = await serve();
    const modern = `{"jsonrpc":"2.0","id":43,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","deep":${deepText(5_000)}}}}`;
    expect(await post(url, modern, { 'Mcp-Method': 'tools/list', 'MCP-Protocol-Version': '2026-07-28' })).toEqual({
      status: 400,
      json: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: params._meta is nested more than 16 levels deep (the limit)' } },
    });
    const initialize = `{"jsonrpc":"2.0","id":44,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"},"_meta":${deepText(5_000)}}}`;
    expect(await post(url, initialize)).toEqual({ status: 400, json: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: params._meta is nested more than 16 levels deep (the limit)' } } });
    const deepArguments = `{"jsonrpc":"2.0","id":45,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":${deepText(5_000)},"clientInfo":{"name":"raw","version":"1"}}}`;
    expect(await post(url, deepArguments)).toEqual({ status: 400, json: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: params is nested more than 64 levels deep (the limit)' } } });
  });
});
