// Closing the HTTP endpoint (what `serve` does on SIGTERM) with calls of both revisions in flight: one drain budget
// for all, each call still running at its end answered with the JSON-RPC `-32000` "Server shutting down" (a
// 2026-07-28 one too, not HTTP 499 with an empty body); 2026-07-28 calls waiting between rounds for a client's
// answers are declined at once rather than waited for, and there may be only so many of them per client and per process.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { mcpFixtureConfig, MODERN_MCP_SERVER_PATH } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClientRelay } from './create-mcp-client-relay.js';
import { createToolSearchHttpHandler, type CreateToolSearchHttpHandlerOptions, type ToolSearchHttpHandler } from './create-tool-search-http-handler.js';
import { listenOnLoopback } from './internal/listen-on-loopback.js';
import { scaledTimeout } from '@tool-search/property-settings';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(options: Partial<CreateToolSearchHttpHandlerOptions> = {}): Promise<{ url: string; handler: ToolSearchHttpHandler }> {
  const relay = createMcpClientRelay();
  const host = await createToolSearchHost({
    sources: { mcp: [mcpFixtureConfig('fixture'), { name: 'modern', transport: 'stdio', command: process.execPath, args: [MODERN_MCP_SERVER_PATH] }] },
    mcpClient: { onElicitation: relay.onElicitation, onSampling: relay.onSampling },
  });
  const handler = createToolSearchHttpHandler({ host, config: { mode: 'tools' }, relay, allowedHosts: ['localhost', '127.0.0.1', '[::1]'], ...options });
  const listening = await listenOnLoopback(handler);
  cleanups.push(async () => {
    await listening.close();
    await host.close();
  });
  return { url: listening.url, handler };
}

interface Answer {
  status: number;
  text: string;
  json: { result?: { resultType?: string; requestState?: string; content?: Array<{ text?: string }> }; error?: { code: number; message: string } } | undefined;
}

/** A raw 2026-07-28 `tools/call` of `tool_call` (the client declares elicitation), its HTTP status and JSON-RPC answer. */
async function modernCall(url: string, id: string, args: Record<string, unknown>, retry?: { requestState: string; inputResponses: Record<string, unknown> }): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'tool_call', 'MCP-Protocol-Version': '2026-07-28' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'tool_call',
        arguments: { id, args },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } },
        ...retry,
      },
    }),
  });
  const text = await response.text();
  const data = text.startsWith('{') ? text : text.split('\n').find((line) => line.startsWith('data: '))?.slice(6);
  return { status: response.status, text, json: data === undefined ? undefined : (JSON.parse(data) as Answer['json']) };
}

async function legacyClient(url: string): Promise<Client> {
  const client = new Client({ name: 'drain-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return client;
}

const settle = <T>(promise: Promise<T>) => promise.then((value) => ({ value }), (error: unknown) => ({ error }));

describe('createToolSearchHttpHandler.close', () => {
  it('answers a 2026-07-28 call and a 2025 call still running at the drain end with -32000 Server shutting down, within one budget', { timeout: scaledTimeout(90_000) }, async () => {
    // A hook that sees each call on its way upstream: close starts once both are in flight.
    let reached = 0;
    const { url, handler } = await serve({ hooks: [{ id: 'reached', run: () => void (reached += 1) }] });
    const legacy = await legacyClient(url);
    const modern = modernCall(url, 'mcp:fixture:never_answers', {});
    const old = settle(legacy.callTool({ name: 'tool_call', arguments: { id: 'mcp:fixture:never_answers', args: {} } }, undefined, { timeout: 60_000 }));
    while (reached < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    const drainTimeoutMs = 2_000;
    const started = Date.now();
    await handler.close({ drainTimeoutMs });
    const took = Date.now() - started;
    const answered = await modern;
    expect(answered.json?.error).toEqual({ code: -32000, message: `Server shutting down: the request did not finish within the drain timeout (${drainTimeoutMs} ms) and was cancelled` });
    const oldAnswer = await old;
    expect('error' in oldAnswer && (oldAnswer.error as { code?: number }).code).toBe(-32000);
    // One budget: the 2025 sessions do not get a fresh drain after the modern requests' (that took twice as long).
    expect(took).toBeLessThan(drainTimeoutMs * 2);
  });

  it('declines at once a 2026-07-28 call waiting between rounds: close does not wait the drain for it', { timeout: scaledTimeout(90_000) }, async () => {
    const { url, handler } = await serve();
    const first = await modernCall(url, 'mcp:modern:deploy', { env: 'prod' });
    expect(first.json?.result?.resultType).toBe('input_required');
    const drainTimeoutMs = 20_000;
    const started = Date.now();
    await handler.close({ drainTimeoutMs });
    // Nothing is being answered: only a call that waits for a retry that will not come.
    expect(Date.now() - started).toBeLessThan(drainTimeoutMs / 2);
  });

  it('refuses a call past the per-client bound of calls waiting between rounds with -32000 naming it, and admits one again once a slot frees', { timeout: scaledTimeout(90_000) }, async () => {
    const { url } = await serve({ maxPendingInputCallsPerClient: 2 });
    const waiting = [await modernCall(url, 'mcp:modern:deploy', { env: 'a' }), await modernCall(url, 'mcp:modern:deploy', { env: 'b' })];
    expect(waiting.map((one) => one.json?.result?.resultType)).toEqual(['input_required', 'input_required']);
    const third = await modernCall(url, 'mcp:modern:deploy', { env: 'c' });
    expect(third.json?.error).toEqual({ code: -32000, message: 'Too many calls waiting for answers: this client has 2 waiting (the per-client limit is 2); answer or abandon those first' });
    // The first call answered, its slot is free again.
    const inputRequests = (waiting[0]!.json?.result as { inputRequests?: Record<string, unknown> }).inputRequests ?? {};
    const finished = await modernCall(url, 'mcp:modern:deploy', { env: 'a' }, { requestState: waiting[0]!.json!.result!.requestState!, inputResponses: Object.fromEntries(Object.keys(inputRequests).map((key) => [key, { action: 'accept', content: { confirm: true } }])) });
    expect(finished.json?.result?.content?.[0]?.text).toContain('Deployed to a');
    expect((await modernCall(url, 'mcp:modern:deploy', { env: 'd' })).json?.result?.resultType).toBe('input_required');
  });

  it('refuses a call past the per-process bound with -32000 naming it', { timeout: scaledTimeout(90_000) }, async () => {
    const { url } = await serve({ maxPendingInputCalls: 1 });
    expect((await modernCall(url, 'mcp:modern:deploy', { env: 'a' })).json?.result?.resultType).toBe('input_required');
    expect((await modernCall(url, 'mcp:modern:deploy', { env: 'b' })).json?.error).toEqual({ code: -32000, message: 'Too many calls waiting for answers: this server holds 1 waiting (its limit is 1); try again shortly' });
  });
});
