// `tool-search search --explain` end to end: the real CLI against the official memory MCP server from npm.
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchExplanation } from '@tool-search/catalog';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.js';
import { runCli } from './run-cli.js';
import { createTestIo } from './testing-io.js';

const MEMORY_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const SLOW = { timeout: 60_000 };

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function setUp(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'cli-explain-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const config = { mcpServers: { memory: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } } } };
  writeFileSync(join(dir, 'config.json5'), JSON.stringify(config));
  return { dir, env: { XDG_CACHE_HOME: join(dir, 'cache') } };
}

describe('tool-search search --explain', () => {
  it('prints each hit with the words that matched it, their path, fields and share', SLOW, async () => {
    const { dir, env } = setUp();
    const io = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', 'delete entities', '--explain', '--config', 'config.json5'], io)).toBe(EXIT_CODES.ok);
    const out = io.out();
    expect(out).toContain('Evidence: strong');
    expect(out).toMatch(/ 1\. mcp:memory:delete_entities {2}\(score \d+\.\d\d/);
    // The words as typed, the fields in plain words: not the index's stems ("entiti") or field names ("paramText").
    expect(out).toMatch(/ \d+% {2}entities \(word\) in name, /);
    expect(out).toMatch(/ \d+% {2}delete entities \(word-pair\)\n/);
    expect(out).not.toMatch(/entiti[^e]|delet |paramText|\bparams\b|in [^\n]*\bcontext\b/);
    // Its name is the query's words: the name factor (1 + 0.1 × 1²) says so.
    expect(out).toMatch(/mcp:memory:delete_entities .*name and server ×1\.1[,)]/);
  });

  it('says why a miss is a miss, and gives the same hits as JSON', SLOW, async () => {
    const { dir, env } = setUp();
    const io = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', 'remember that alice likes tea', '--explain', '--config', 'config.json5', '--json'], io)).toBe(EXIT_CODES.ok);
    const explained = JSON.parse(io.out()) as SearchExplanation;
    expect(explained.evidence).toBe('weak');
    expect(explained.words.find((word) => word.term === 'tea')).toEqual({ term: 'tea', found: false });
    expect(explained.why).toBeDefined();
  });

  it('echoes a very long query at a readable length, in the text and in JSON', SLOW, async () => {
    const { dir, env } = setUp();
    const query = `delete entities ${'x'.repeat(112_000)}`;
    const io = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', query, '--config', 'config.json5', '--json'], io)).toBe(EXIT_CODES.ok);
    expect(io.out().length).toBeLessThan(20_000);
    expect(JSON.parse(io.out())).toMatchObject({ queryLength: 112_016 });
    const explained = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', query, '--explain', '--config', 'config.json5'], explained)).toBe(EXIT_CODES.ok);
    expect(explained.out().length).toBeLessThan(20_000);
  });

  it('marks a word the query implies and does not write', SLOW, async () => {
    const { dir, env } = setUp();
    const io = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', 'how many entities', '--explain', '--config', 'config.json5'], io)).toBe(EXIT_CODES.ok);
    expect(io.out()).toMatch(/^Query words: many \(no tool has it\), count \(no tool has it\) \(implied\), entities$/m);
  });

  it('counts, without naming, the tools the policy refuses that match, and names a server that is down', SLOW, async () => {
    const { dir, env } = setUp();
    const config = {
      mcpServers: {
        memory: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } },
        broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
      },
      policy: { deny: ['*:memory:delete_*'] },
    };
    writeFileSync(join(dir, 'config.json5'), JSON.stringify(config));
    const io = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', 'delete entities', '--explain', '--config', 'config.json5'], io)).toBe(EXIT_CODES.ok);
    const out = io.out();
    // delete_entities, delete_observations, delete_relations: refused, counted, never named.
    expect(out).toMatch(/Also: 3 tools the policy refuses match these words \(not named here; see the policy\)\./);
    expect(out).not.toContain('mcp:memory:delete_');
    expect(out).toMatch(/Also: Server broken is (unavailable|restarting|starting)/);
    const json = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', 'delete entities', '--explain', '--config', 'config.json5', '--json'], json)).toBe(EXIT_CODES.ok);
    const explained = JSON.parse(json.out()) as SearchExplanation & { refusedMatches: number; serversDown: Array<{ name: string }> };
    expect(explained.refusedMatches).toBe(3);
    expect(explained.serversDown.map((server) => server.name)).toEqual(['broken']);
    expect(json.out()).not.toContain('delete_entities');
  });
});
