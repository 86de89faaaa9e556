// The issue-43 attack, with real parts: a real 2025-era upstream server the client's policy refuses asks, on a timer and
// outside every call, for the user's password while the victim's one call in flight is to an allowed server. The
// official SDK client (the victim) must never see the question, and the refused server gets declines only. The same
// client still hears the allowed server's own question within its call. Both eras: the 2025 front (in memory) and the
// 2026-07-28 front over HTTP, where a relayed question would come back as the victim's own call's input_required.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createToolSearchHost, type ToolSearchHost } from '@tool-search/gateway-adapter';
import { ASKING_MCP_SERVER_PATH } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClientRelay } from './create-mcp-client-relay.js';
import { createToolSearchHttpHandler } from './create-tool-search-http-handler.js';
import { createToolSearchMcpServer } from './create-tool-search-mcp-server.js';
import { listenOnLoopback } from './internal/listen-on-loopback.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const asking = (name: string, env: Record<string, string> = {}) => ({ name, transport: 'stdio' as const, command: process.execPath, args: [ASKING_MCP_SERVER_PATH], env });
const textOf = (result: unknown) => (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[]).map((part) => part.text ?? '').join('\n');

describe('createToolSearchMcpServer with the relay: a refused server asking on a timer', () => {
  it("never puts the refused server's questions to a client calling an allowed server; the allowed server's own question still reaches it", { timeout: 60_000 }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'relay-attack-'));
    const answersFile = join(folder, 'answers.jsonl');
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const relay = createMcpClientRelay();
    const host: ToolSearchHost = await createToolSearchHost({
      sources: { mcp: [asking('public'), asking('hrsecret', { ASKING_EVERY_MS: '150', ASKING_ANSWERS_FILE: answersFile })] },
      mcpClient: { onElicitation: relay.onElicitation, onSampling: relay.onSampling },
      startupTimeoutMs: 20_000,
    });
    cleanups.push(() => host.close());
    const front = await createToolSearchMcpServer({ host, config: { mode: 'tools' }, policy: { deny: ['mcp:hrsecret:*'] }, relay });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await front.server.connect(serverSide);
    const victim = new Client({ name: 'victim', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    victim.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { password: 'hunter2', ok: true } };
    });
    await victim.connect(clientSide);
    cleanups.push(() => victim.close());

    // The victim's one call in flight, to the allowed server, while the refused one asks every 150 ms.
    const waited = await victim.callTool({ name: 'tool_call', arguments: { id: 'mcp:public:wait', args: { ms: 2_000 } } }, undefined, { timeout: 30_000 });
    expect(textOf(waited)).toContain('waited 2000 ms');
    const answers = readFileSync(answersFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(answers.length).toBeGreaterThanOrEqual(3);
    expect(answers.every((entry) => JSON.stringify(entry) === JSON.stringify({ answer: { action: 'decline' } }))).toBe(true);
    expect(asked).toEqual([]);

    // The allowed server's question within its own call is the victim's to answer.
    const inCall = await victim.callTool({ name: 'tool_call', arguments: { id: 'mcp:public:ask_in_call', args: {} } }, undefined, { timeout: 30_000 });
    expect(textOf(inCall)).toContain('answered accept');
    expect(asked).toEqual(['Proceed?']);
  });

  it('keeps them out of a 2026-07-28 client too: its call to the allowed server never comes back input_required with them', { timeout: 60_000 }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'relay-attack-modern-'));
    const answersFile = join(folder, 'answers.jsonl');
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const relay = createMcpClientRelay();
    const host: ToolSearchHost = await createToolSearchHost({
      sources: { mcp: [asking('public'), asking('hrsecret', { ASKING_EVERY_MS: '150', ASKING_ANSWERS_FILE: answersFile })] },
      mcpClient: { onElicitation: relay.onElicitation, onSampling: relay.onSampling },
      startupTimeoutMs: 20_000,
    });
    cleanups.push(() => host.close());
    const handler = createToolSearchHttpHandler({ host, config: { mode: 'tools' }, policy: { deny: ['mcp:hrsecret:*'] }, relay, allowedHosts: ['localhost', '127.0.0.1', '[::1]'] });
    const listening = await listenOnLoopback(handler);
    cleanups.push(() => listening.close());
    const victim = new ModernClient({ name: 'victim', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    victim.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { password: 'hunter2', ok: true } };
    });
    await victim.connect(new ModernTransport(new URL(listening.url)));
    cleanups.push(() => victim.close());

    const waited = await victim.callTool({ name: 'tool_call', arguments: { id: 'mcp:public:wait', args: { ms: 2_000 } } }, { timeout: 30_000 });
    expect(textOf(waited)).toContain('waited 2000 ms');
    const answers = readFileSync(answersFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(answers.length).toBeGreaterThanOrEqual(3);
    expect(answers.every((entry) => JSON.stringify(entry) === JSON.stringify({ answer: { action: 'decline' } }))).toBe(true);
    expect(asked).toEqual([]);

    const inCall = await victim.callTool({ name: 'tool_call', arguments: { id: 'mcp:public:ask_in_call', args: {} } }, { timeout: 30_000 });
    expect(textOf(inCall)).toContain('answered accept');
    expect(asked).toEqual(['Proceed?']);
  });
});
