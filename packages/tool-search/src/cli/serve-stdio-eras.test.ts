// `tool-search serve` on stdio, both protocol eras: the real bin (dist/cli.js) with the real server-everything
// behind it, driven by the official SDK v2 client pinned to 2026-07-28 and by the 2025-era SDK v1 client, each in
// its own serve process (one client per stdio connection).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startScriptedMcpServer, until } from '@tool-search/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const SLOW = { timeout: 60_000 };

let work: string;
let config: string;
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first (pnpm --filter tool-search build)`);
  work = mkdtempSync(join(tmpdir(), 'tool-search-stdio-eras-'));
  config = join(work, 'config.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } }, toolSearch: { mode: 'tools' } }));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const serveArgs = () => [BIN, 'serve', '--config', config, '--quiet'];
const textOf = (result: unknown) => ((result as { content: Array<{ type: string; text?: string }> }).content.find((part) => part.type === 'text')?.text ?? '');

describe('tool-search serve on stdio, both protocol eras', () => {
  it('serves a client pinned to 2026-07-28: list, search and call', SLOW, async () => {
    const client = new ModernClient({ name: 'modern-stdio', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new ModernStdio({ command: process.execPath, args: serveArgs(), stderr: 'ignore' }));
    cleanups.push(() => client.close());
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    expect(textOf(await client.callTool({ name: 'tool_search', arguments: { query: 'echo back the message' } }))).toContain('mcp:everything:echo');
    expect(textOf(await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: 'over stdio, 2026' } } }))).toContain('over stdio, 2026');
  });

  it('tells a client pinned to 2026-07-28 that listens when an upstream changes the tools it may list', SLOW, async () => {
    const upstream = await startScriptedMcpServer('srv', [{ name: 'open_tool', description: 'Allowed' }, { name: 'secret_tool', description: 'Refused' }]);
    cleanups.push(() => upstream.close());
    const listening = join(work, 'listening.json');
    // Direct mode lists every allowed tool, so the list follows the upstream's.
    writeFileSync(listening, JSON.stringify({ mcpServers: { srv: { type: 'http', url: upstream.config().url } }, toolSearch: false, policy: { deny: ['mcp:srv:secret_tool'] } }));
    const client = new ModernClient({ name: 'modern-stdio-listen', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const heard: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', (notification) => void heard.push(notification.method));
    await client.connect(new ModernStdio({ command: process.execPath, args: [BIN, 'serve', '--config', listening, '--quiet'], stderr: 'ignore' }));
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['open_tool']);
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });

    // (That a change of refused tools alone is never told is proven over HTTP, where the test can see the host.)
    await upstream.setTools([{ name: 'open_tool', description: 'Allowed' }, { name: 'secret_tool', description: 'Refused, changed' }, { name: 'new_tool', description: 'Added' }]);
    await until(() => heard.length > 0, 'the client to hear the tool list change', 20_000);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['new_tool', 'open_tool']);
    expect(heard).toEqual(['notifications/tools/list_changed']);
    await subscription.close();
  });

  it('still serves a 2025-era client as before', SLOW, async () => {
    const client = new LegacyClient({ name: 'legacy-stdio', version: '1.0.0' });
    await client.connect(new LegacyStdio({ command: process.execPath, args: serveArgs(), stderr: 'ignore' }));
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    expect(textOf(await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: 'over stdio, 2025' } } }))).toContain('over stdio, 2025');
  });
});
