// The `thesaurus` config key end to end: `search` of the real CLI code against MCP tools replayed by a stdio server,
// with the host's default (WordNet) and with `thesaurus: 'none'`, and a value the key does not take.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPLAY_MCP_SERVER_PATH } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.js';
import { runCli } from './run-cli.js';
import { createTestIo } from './testing-io.js';

const TOOLS = [
  { name: 'move_page', description: 'Move a page under another parent page.', parameters: null, source: 'notion' },
  { name: 'update_page', description: 'Update the properties of a page.', parameters: null, source: 'notion' },
  { name: 'get_forecast', description: 'Weather forecast for a city.', parameters: null, source: 'notion' },
  { name: 'take_screenshot', description: 'Take a screenshot of the browser tab.', parameters: null, source: 'notion' },
];
const SLOW = { timeout: 60_000 };
const QUERY = 'relocate this doc so it sits under Archive';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function setUp(extra: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cli-thesaurus-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'tools.jsonl'), TOOLS.map((tool) => JSON.stringify(tool)).join('\n'));
  const config = { mcpServers: { notion: { command: process.execPath, args: [REPLAY_MCP_SERVER_PATH], env: { REPLAY_TOOLS_FILE: join(dir, 'tools.jsonl') } } }, ...extra };
  writeFileSync(join(dir, 'config.json5'), JSON.stringify(config));
  return dir;
}

async function search(dir: string): Promise<{ code: number; ids: string[]; evidence: unknown }> {
  const io = createTestIo({ cwd: dir });
  const code = await runCli(['search', QUERY, '--config', 'config.json5', '--json'], io);
  const answer = JSON.parse(io.out()) as { hits: Array<{ id: string }>; evidence?: unknown };
  return { code, ids: answer.hits.map((hit) => hit.id), evidence: answer.evidence };
}

describe('tool-search: the thesaurus key', () => {
  it('reads WordNet by default ("relocate" finds move_page) and not with thesaurus: none', SLOW, async () => {
    const byDefault = await search(setUp({}));
    expect(byDefault.code).toBe(EXIT_CODES.ok);
    expect(byDefault.ids[0]).toBe('mcp:notion:move_page');
    const explicit = await search(setUp({ thesaurus: 'wordnet' }));
    expect(explicit.ids).toEqual(byDefault.ids);
    const none = await search(setUp({ thesaurus: 'none' }));
    expect(none.code).toBe(EXIT_CODES.ok);
    expect(none.ids[0]).not.toBe('mcp:notion:move_page');
  });

  it('refuses a value it does not take, naming the key, and starts nothing', SLOW, async () => {
    const dir = setUp({ thesaurus: 'moby' });
    const io = createTestIo({ cwd: dir });
    expect(await runCli(['search', QUERY, '--config', 'config.json5'], io)).toBe(EXIT_CODES.config);
    expect(io.err()).toContain('thesaurus');
  });
});
