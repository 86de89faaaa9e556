import { PassThrough } from 'node:stream';
import { createToolSearchHost, type ToolSearchHost } from '@tool-search/gateway-adapter';
import { mcpFixtureConfig } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createGuardedStdioTransport } from './create-guarded-stdio-transport.js';
import { createToolSearchMcpServer } from './create-tool-search-mcp-server.js';

const hosts: ToolSearchHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** A front on a guarded transport over in-process pipes; `send` writes raw bytes, `replies` are the parsed lines. */
async function pipes(maxMessageBytes?: number) {
  const host = await createToolSearchHost({ sources: {} });
  hosts.push(host);
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const replies: Array<{ id?: unknown; result?: unknown; error?: { code: number; message: string } }> = [];
  let buffered = '';
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
      replies.push(JSON.parse(buffered.slice(0, newline)) as (typeof replies)[number]);
      buffered = buffered.slice(newline + 1);
    }
  });
  const front = await createToolSearchMcpServer({ host, config: { mode: 'tools' } });
  await front.server.connect(createGuardedStdioTransport({ stdin, stdout, ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }) }));
  const next = async (count: number) => {
    for (let attempt = 0; attempt < 200 && replies.length < count; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    return replies.slice(0, count);
  };
  return { send: (text: string) => stdin.write(text), replies, next, front };
}

const initialize = (id: number, name: string) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1' } } })}\n`;

describe('createGuardedStdioTransport', () => {
  it('answers a line that is not JSON, or not JSON-RPC, with an error and keeps serving', async () => {
    const { send, next } = await pipes();
    send('this is not json\n');
    send('{"hello": "world"}\n');
    send(initialize(1, 'first'));
    const [notJson, notRpc, initialized] = await next(3);
    expect(notJson).toMatchObject({ id: null, error: { code: -32700, message: expect.stringContaining('Parse error') } });
    expect(notRpc).toMatchObject({ id: null, error: { code: -32600, message: 'Invalid Request: the message is not JSON-RPC 2.0' } });
    expect(initialized).toMatchObject({ id: 1, result: { serverInfo: { name: 'tool-search' } } });
  });

  it('discards a message over the limit without buffering it, says so, and keeps serving', async () => {
    const { send, next } = await pipes(1_000);
    send(`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"${'x'.repeat(5_000)}"}}\n`);
    send(initialize(1, 'first'));
    const [tooLarge, initialized] = await next(2);
    expect(tooLarge).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('the limit is 1000 bytes') } });
    expect(initialized).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18' } });
  });

  it('refuses a second initialize on the same connection, naming the client it serves', async () => {
    const { send, next } = await pipes();
    send(initialize(1, 'claude-desktop'));
    send(initialize(2, 'intruder'));
    send(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' })}\n`);
    const replies = await next(3);
    const byId = (id: number) => replies.find((reply) => reply.id === id);
    expect(byId(1)).toMatchObject({ result: { serverInfo: { name: 'tool-search' } } });
    const second = byId(2);
    const ping = byId(3);
    expect(second).toMatchObject({ id: 2, error: { code: -32600, message: expect.stringContaining('already serves a client ("claude-desktop")') } });
    expect(ping).toMatchObject({ id: 3, result: {} });
  });

  it('stops reading at maxInFlight, and on drain answers every request the client sent: the ones in flight cut, the unread ones refused', async () => {
    const host = await createToolSearchHost({ sources: { mcp: [mcpFixtureConfig('fixture')] } });
    hosts.push(host);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const replies: Array<{ id?: unknown; error?: { code: number; message: string } }> = [];
    let buffered = '';
    stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
        replies.push(JSON.parse(buffered.slice(0, newline)) as (typeof replies)[number]);
        buffered = buffered.slice(newline + 1);
      }
    });
    const front = await createToolSearchMcpServer({ host, config: { mode: 'tools' } });
    const transport = createGuardedStdioTransport({ stdin, stdout, maxInFlight: 2 });
    await front.server.connect(transport);
    stdin.write(initialize(1, 'drained'));
    for (let attempt = 0; attempt < 200 && replies.length < 1; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    for (const id of [2, 3, 4, 5]) stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'tool_call', arguments: { id: 'mcp:fixture:never_answers', args: {} } } })}\n`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(replies).toHaveLength(1);
    expect(await transport.drain(100)).toEqual({ finished: 0, cut: 2 });
    // As serve does: the server closes right after the drain; nothing the client sent is left unanswered.
    await front.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const byId = Object.fromEntries(replies.slice(1).map((reply) => [String(reply.id), reply.error?.message]));
    expect(byId).toEqual({
      '2': 'Server shutting down: the request did not finish within the drain timeout (100 ms) and was cancelled',
      '3': 'Server shutting down: the request did not finish within the drain timeout (100 ms) and was cancelled',
      '4': 'Server shutting down: no new requests are taken',
      '5': 'Server shutting down: no new requests are taken',
    });
  });
});
