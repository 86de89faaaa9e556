// Multi Round-Trip Requests at the 2026-07-28 front: an upstream tool that asks its client something mid-call
// (here the SDK v2 fixture's `deploy`, which asks for a confirmation) reaches a modern client as `input_required`;
// the official SDK v2 client answers it with its own elicitation handler and retries with the signed
// `requestState`, and the call finishes. A client without the capability is not asked; a forged state is refused.
import { listenOnLoopback } from './internal/listen-on-loopback.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { MODERN_MCP_SERVER_PATH } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClientRelay } from './create-mcp-client-relay.js';
import { createToolSearchHttpHandler } from './create-tool-search-http-handler.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(): Promise<string> {
  const relay = createMcpClientRelay();
  const host = await createToolSearchHost({
    sources: { mcp: [{ name: 'modern', transport: 'stdio', command: process.execPath, args: [MODERN_MCP_SERVER_PATH] }] },
    mcpClient: { onElicitation: relay.onElicitation, onSampling: relay.onSampling },
  });
  const handler = createToolSearchHttpHandler({ host, config: { mode: 'tools' }, relay, allowedHosts: ['localhost', '127.0.0.1', '[::1]'] });
  const listening = await listenOnLoopback(handler);
  cleanups.push(async () => {
    await listening.close();
    await host.close();
  });
  return listening.url;
}

async function modernClient(url: string, answer?: { confirm: boolean }): Promise<{ client: ModernClient; asked: string[] }> {
  const asked: string[] = [];
  const client = new ModernClient({ name: 'mrtr-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: answer === undefined ? {} : { elicitation: { form: {} } } });
  if (answer !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: answer };
    });
  }
  await client.connect(new ModernTransport(new URL(url)));
  cleanups.push(() => client.close());
  return { client, asked };
}

/** A raw 2026-07-28 `tools/call` of the fixture's `deploy` by a client that declares elicitation, with `params` added. */
const rawCall = (url: string, params: Record<string, unknown>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'tool_call', 'MCP-Protocol-Version': '2026-07-28' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'tool_call',
        arguments: { id: 'mcp:modern:deploy', args: { env: 'prod' } },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } },
        ...params,
      },
    }),
  }).then(async (response) => JSON.parse((await response.text()).replace(/^[\s\S]*?data: /, '').split('\n')[0] ?? '{}') as { result?: { resultType?: string; requestState?: string }; error?: { code: number } });

const textOf = (result: unknown) => ((result as { content: Array<{ type: string; text?: string }> }).content.find((part) => part.type === 'text')?.text ?? '');

describe('the 2026-07-28 front: an upstream question as input_required', () => {
  it("puts the upstream tool's question to the modern client and finishes the call with its answer", async () => {
    const url = await serve();
    const { client, asked } = await modernClient(url, { confirm: true });
    const result = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:modern:deploy', args: { env: 'prod' } } });
    expect(asked).toEqual(['Deploy to prod?']);
    expect(result.isError ?? false).toBe(false);
    expect(textOf(result)).toBe('Deployed to prod');
  });

  it("carries the client's refusal back to the upstream tool", async () => {
    const url = await serve();
    const { client } = await modernClient(url, { confirm: false });
    const result = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:modern:deploy', args: { env: 'prod' } } });
    expect(textOf(result)).toContain('Not deployed to prod');
  });

  it('asks nothing of a client that did not declare elicitation: the upstream gets a decline', async () => {
    const url = await serve();
    const { client } = await modernClient(url);
    const result = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:modern:deploy', args: { env: 'prod' } } });
    expect(textOf(result)).toContain('Not deployed to prod: decline');
  });

  it("asks the client whose call it is, even while another client's call waits for its answers", async () => {
    const url = await serve();
    // One client's call is left waiting between its rounds (its question is out; it never retries): it is still in
    // flight. The upstream is a 2026-07-28 one, so its question comes in the second call's own result, which the
    // gateway answers within that call: the relay knows whose it is, and asks that client (and no other).
    expect((await rawCall(url, {})).result?.resultType).toBe('input_required');
    const { client, asked } = await modernClient(url, { confirm: true });
    const result = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:modern:deploy', args: { env: 'prod' } } });
    expect(asked).toHaveLength(1);
    expect(textOf(result)).toContain('Deployed to prod');
  });

  it('refuses a retry whose requestState was forged or names no waiting call', async () => {
    const url = await serve();
    const post = (params: Record<string, unknown>) => rawCall(url, params);
    const first = await post({});
    expect(first.result?.resultType).toBe('input_required');
    // The upstream's own key for its question (`confirm`) is the key the client answers under.
    expect(Object.keys((first.result as { inputRequests?: object }).inputRequests ?? {})).toEqual(['confirm']);
    const state = first.result?.requestState as string;
    const forged = `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await post({ inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, requestState: forged })).error?.code).toBe(-32602);
    const answered = await post({ inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, requestState: state });
    expect(JSON.stringify(answered.result)).toContain('Deployed to prod');
    // The call is over: the same state names nothing any more.
    expect((await post({ inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, requestState: state })).error?.code).toBe(-32602);
  });
});
