// A tool whose `_meta` asks to be always loaded (Claude Code's `anthropic/alwaysLoad`, or our
// `tool-search/alwaysLoad`) is pinned directly visible, listed by a real MCP server over stdio through the official
// SDK client: only when its server is trusted, only while the session's policy admits it, and only for `true`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPLAY_MCP_SERVER_PATH } from '@tool-search/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import { scaledTimeout } from '@tool-search/property-settings';

const folder = mkdtempSync(join(tmpdir(), 'gw-always-load-'));
const toolsFile = join(folder, 'tools.jsonl');
const line = (source: string, name: string, meta?: Record<string, unknown>) =>
  JSON.stringify({ source, name, description: `The ${name.replace(/_/g, ' ')} tool.`, parameters: { properties: { text: { type: 'string' } } }, ...(meta ? { _meta: meta } : {}) });
writeFileSync(
  toolsFile,
  [
    line('trusted-srv', 'core_status', { 'anthropic/alwaysLoad': true }),
    line('trusted-srv', 'core_notes', { 'tool-search/alwaysLoad': true }),
    line('trusted-srv', 'almost_pinned', { 'anthropic/alwaysLoad': 'true' }),
    line('trusted-srv', 'plain_tool'),
    line('other-srv', 'other_status', { 'anthropic/alwaysLoad': true }),
  ].join('\n'),
);
const server = (name: string, trusted: boolean) => ({ name, transport: 'stdio' as const, command: process.execPath, args: [REPLAY_MCP_SERVER_PATH], env: { REPLAY_TOOLS_FILE: toolsFile, REPLAY_SOURCE: name }, trusted });

let host: ToolSearchHost;
beforeAll(async () => {
  host = await createToolSearchHost({ sources: { mcp: [server('trusted-srv', true), server('other-srv', false)] }, startupTimeoutMs: 30_000 });
}, scaledTimeout(60_000));
afterAll(async () => {
  await host.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The names a provider's tools array declares, control tools left out. */
const declared = (tools: ReadonlyArray<{ name?: string; function?: { name: string } }>) =>
  tools.map((tool) => tool.name ?? tool.function?.name ?? '').filter((name) => !name.startsWith('tool_')).sort();

describe('always-load _meta', () => {
  it('pins the tools of a trusted server whose _meta says anthropic/alwaysLoad or tool-search/alwaysLoad is true', async () => {
    const session = await host.openSession({ config: { mode: 'tools' } });
    expect(declared(session.surface('openai-chat').tools)).toEqual(['core_notes', 'core_status']);
    const outcome = await session.execute({ name: 'core_status', args: { text: 'hi' }, toolCallId: 'c1' });
    expect(outcome).toMatchObject({ status: 'ok', tool: { id: 'mcp:trusted-srv:core_status' } });
    await session.close();
  });

  it('does not pin a tool its session is refused: the name stays unknown', async () => {
    const session = await host.openSession({ config: { mode: 'tools' }, policy: { deny: ['mcp:trusted-srv:core_status'] } });
    expect(declared(session.surface('anthropic').tools)).toEqual(['core_notes']);
    const outcome = await session.execute({ name: 'core_status', args: { text: 'hi' }, toolCallId: 'c2' });
    expect(outcome).toMatchObject({ status: 'error', code: 'unknown_tool' });
    await session.close();
  });
});
