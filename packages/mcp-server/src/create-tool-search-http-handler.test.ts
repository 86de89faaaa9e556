import { request as httpRequest, type IncomingMessage } from 'node:http';
import { listenOnLoopback } from './internal/listen-on-loopback.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createToolSearchHost, type ToolSearchHost } from '@tool-search/gateway-adapter';
import { mcpFixtureConfig } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHttpHandler, type CreateToolSearchHttpHandlerOptions, type ToolSearchHttpHandler } from './create-tool-search-http-handler.js';
import { scaledTimeout } from '@tool-search/property-settings';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(options: Partial<CreateToolSearchHttpHandlerOptions> = {}): Promise<{ url: string; handler: ToolSearchHttpHandler; host: ToolSearchHost; port: number }> {
  const host = await createToolSearchHost({ sources: { mcp: [mcpFixtureConfig('fixture')] } });
  const handler = createToolSearchHttpHandler({ host, config: { mode: 'tools' }, allowedHosts: ['localhost', '127.0.0.1', '[::1]'], ...options });
  const listening = await listenOnLoopback(handler);
  cleanups.push(async () => {
    await listening.close();
    await host.close();
  });
  return { url: listening.url, handler, host, port: listening.port };
}

async function client(url: string, token?: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const created = new Client({ name: 'http-test', version: '1.0.0' });
  await created.connect(transport);
  cleanups.push(() => created.close());
  return { client: created, transport };
}

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body });

/** A POST through node:http, which (unlike fetch) sends the Host header it is given. */
function rawPost(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** A request from `localAddress` (a loopback address: each one is another client), resolved with its response's head. */
function openFrom(localAddress: string, url: string, method: 'POST' | 'GET', headers: Record<string, string>, body?: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method, localAddress, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } }, resolve);
    sent.on('error', reject);
    sent.end(body);
  });
}

/** A session opened from `localAddress` and kept busy by an open GET stream (destroy the stream to leave it idle). */
async function busySessionFrom(localAddress: string, url: string): Promise<{ status: number; stream?: IncomingMessage }> {
  const opened = await openFrom(localAddress, url, 'POST', {}, initialize);
  opened.resume();
  const sessionId = opened.headers['mcp-session-id'];
  if (opened.statusCode !== 200 || typeof sessionId !== 'string') return { status: opened.statusCode ?? 0 };
  const stream = await openFrom(localAddress, url, 'GET', { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' });
  cleanups.push(async () => void stream.destroy());
  return { status: 200, stream };
}

describe('createToolSearchHttpHandler', () => {
  it('serves the official SDK client, one tool-search session per mcp-session-id, closed by DELETE', async () => {
    const { url, handler, host } = await serve();
    const first = await client(url);
    const second = await client(url);
    expect((await first.client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    const called = await second.client.callTool({ name: 'tool_call', arguments: { id: 'mcp:fixture:echo_text', args: { text: 'over http' } } });
    expect(JSON.stringify(called.content)).toContain('echo: over http');
    expect(first.transport.sessionId).not.toBe(second.transport.sessionId);
    expect(handler.sessions()).toBe(2);
    expect(host.status().sessions).toBe(2);
    await first.transport.terminateSession();
    expect(handler.sessions()).toBe(1);
    expect(host.status().sessions).toBe(1);
  });

  it('refuses a foreign Host or Origin with 403 (DNS-rebinding protection) and opens no session', async () => {
    const { url, handler, port } = await serve();
    const evilHost = await rawPost(url, initialize, { Host: 'evil.example.com' });
    expect(evilHost.status).toBe(403);
    expect((JSON.parse(evilHost.body) as { error: { message: string } }).error.message).toContain('Host "evil.example.com" is not allowed');
    const evilOrigin = await post(url, initialize, { Origin: 'http://evil.example.com' });
    expect(evilOrigin.status).toBe(403);
    expect((await post(url, initialize, { Origin: `http://localhost:${port}` })).status).toBe(200);
    expect(handler.sessions()).toBe(1);
  });

  it('needs the bearer token when one is set', async () => {
    const { url } = await serve({ token: 'secret-token' });
    const refused = await post(url, initialize);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect((await post(url, initialize, { Authorization: 'Bearer wrong' })).status).toBe(401);
    const { client: authorized } = await client(url, 'secret-token');
    expect((await authorized.listTools()).tools.length).toBe(3);
  });

  it('answers garbage, a request without a session, an unknown session and an oversized body with JSON-RPC errors', async () => {
    const { url, handler } = await serve({ maxRequestBytes: 10_000 });
    const garbage = await post(url, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ error: { code: -32700, message: expect.stringContaining('Parse error') } });
    const noSession = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(noSession.status).toBe(400);
    expect(await noSession.json()).toMatchObject({ error: { code: -32600, message: expect.stringContaining('starts with an initialize') } });
    const unknown = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), { 'mcp-session-id': 'no-such-session' });
    expect(unknown.status).toBe(404);
    const huge = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'initialize', params: { padding: 'x'.repeat(50_000) } }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: { message: 'Request too large: the limit is 10000 bytes' } });
    expect(handler.sessions()).toBe(0);
    const { client: working } = await client(url);
    expect((await working.listTools()).tools.length).toBe(3);
  });

  it('closes a session that stays idle past idleTimeoutMs, and refuses sessions past maxSessions', async () => {
    const { url, handler, host } = await serve({ idleTimeoutMs: 200, maxSessions: 1 });
    const { transport } = await client(url);
    const second = await post(url, initialize);
    expect(second.status).toBe(503);
    await transport.close();
    for (let attempt = 0; attempt < 100 && handler.sessions() > 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handler.sessions()).toBe(0);
    expect(host.status().sessions).toBe(0);
  });

  it('opens no session for a refused handshake: 120 of them (415, 406) leave maxSessions whole and a new client gets in at once', async () => {
    const { url, handler, host } = await serve({ maxSessions: 5 });
    const refusals = await Promise.all(
      Array.from({ length: 120 }, (_, index) =>
        index % 2 === 0 ? post(url, initialize, { 'Content-Type': 'text/plain' }) : post(url, initialize, { Accept: 'application/json' }),
      ),
    );
    expect(refusals.filter((refusal) => refusal.status === 415)).toHaveLength(60);
    expect(refusals.filter((refusal) => refusal.status === 406)).toHaveLength(60);
    expect(await refusals[0]!.json()).toMatchObject({ error: { message: 'Unsupported Media Type: Content-Type must be application/json' } });
    expect(handler.sessions()).toBe(0);
    expect(host.status().sessions).toBe(0);
    const joining = performance.now();
    const { client: newcomer } = await client(url);
    console.log(`after 120 refused handshakes: 0 sessions held, a new client connected in ${(performance.now() - joining).toFixed(0)} ms`);
    expect((await newcomer.listTools()).tools.length).toBe(3);
    expect(handler.sessions()).toBe(1);
  });

  it('holds maxSessions under concurrency: 30 initializes at once in direct mode (each waits for the start-up) open exactly 5', async () => {
    const { url, handler, host } = await serve({ config: false, maxSessions: 5, maxSessionsPerClient: 5 });
    const answers = await Promise.all(Array.from({ length: 30 }, () => post(url, initialize)));
    const statuses = answers.map((answered) => answered.status);
    await Promise.all(answers.map((answered) => answered.body?.cancel() ?? Promise.resolve()));
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 503)).toHaveLength(25);
    expect(handler.sessions()).toBe(5);
    expect(host.status().sessions).toBe(5);
  });

  it('evicts the least recently used idle session at the limit: 150 abandoned SDK clients (close() without DELETE) leave room at once', { timeout: scaledTimeout(60_000) }, async () => {
    const { url, handler, host } = await serve();
    for (let index = 0; index < 150; index += 1) {
      const transport = new StreamableHTTPClientTransport(new URL(url));
      const abandoned = new Client({ name: `abandoned-${index}`, version: '1.0.0' });
      await abandoned.connect(transport);
      await abandoned.listTools();
      await abandoned.close();
    }
    // One address is one client: its own idle sessions made room for it, within its half of the slots.
    expect(handler.sessions()).toBe(50);
    const joining = performance.now();
    const { client: newcomer } = await client(url);
    console.log(`after 150 abandoned sessions: ${handler.sessions()} held, a new client connected in ${(performance.now() - joining).toFixed(0)} ms`);
    expect((await newcomer.listTools()).tools.length).toBe(3);
    expect(handler.sessions()).toBe(50);
    expect(host.status().sessions).toBe(50);
  });

  it('caps the sessions of one client (remote address) and never evicts a busy session (an open stream)', async () => {
    const { url, handler } = await serve({ maxSessions: 3, maxSessionsPerClient: 2 });
    expect((await busySessionFrom('127.0.0.2', url)).status).toBe(200);
    const second = await busySessionFrom('127.0.0.2', url);
    expect(second.status).toBe(200);
    const third = await openFrom('127.0.0.2', url, 'POST', {}, initialize);
    expect(third.statusCode).toBe(503);
    const refusal = await new Promise<string>((resolve) => {
      let text = '';
      third.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      third.on('end', () => resolve(text));
    });
    expect(refusal).toContain('this client holds 2 MCP sessions (the per-client limit), none of them idle');
    expect((await busySessionFrom('127.0.0.3', url)).status).toBe(200);
    // Every slot is taken by a busy session: a fourth client is refused...
    expect((await busySessionFrom('127.0.0.4', url)).status).toBe(503);
    // ...until one of them goes idle, which is then evicted for it at once.
    second.stream!.destroy();
    for (let attempt = 0; attempt < 50 && (await busySessionFrom('127.0.0.4', url)).status !== 200; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handler.sessions()).toBe(3);
  });

  it('answers PUT (or any method but GET, POST and DELETE) with 405 and Allow', async () => {
    const { url } = await serve();
    const put = await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: initialize });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
    expect(await put.json()).toMatchObject({ error: { message: 'Method not allowed: PUT; the MCP endpoint takes GET, POST and DELETE' } });
  });

  it('starts each SSE stream of a 2025-11-25 client with a priming event and a retry field, for resumption', async () => {
    const { url } = await serve();
    const response = await post(url, initialize.replace('2025-06-18', '2025-11-25'));
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    await reader.cancel();
    expect(new TextDecoder().decode(value)).toMatch(/^id: \S+\nretry: 1000\ndata: \n\n/);
  });

  it('refuses to be created without allowed hosts', async () => {
    const host = await createToolSearchHost({ sources: {} });
    cleanups.push(() => host.close());
    expect(() => createToolSearchHttpHandler({ host, config: false, allowedHosts: [] })).toThrow(expect.objectContaining({ code: 'invalid_options', path: 'allowedHosts' }));
  });
});
