// The `embedder` config section end to end: `doctor` and `search` of the real CLI code, against MCP tools replayed
// by a stdio server and a real OpenAI-compatible embeddings server process (createOpenAiEmbedder is the client).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPLAY_MCP_SERVER_PATH, startEmbeddingsFixture, type EmbeddingsFixture } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.js';
import { runCli } from './run-cli.js';
import { createTestIo } from './testing-io.js';

const REPLAY_SERVER = REPLAY_MCP_SERVER_PATH;
const TOOLS = [
  { name: 'create_entities', description: 'Create multiple new entities in the knowledge graph.', parameters: null, source: 'memory' },
  { name: 'add_observations', description: 'Add new observations to existing entities in the knowledge graph.', parameters: null, source: 'memory' },
  { name: 'get_forecast', description: 'Weather forecast for a city.', parameters: null, source: 'memory' },
  { name: 'take_screenshot', description: 'Take a screenshot of the page.', parameters: null, source: 'memory' },
];
const SLOW = { timeout: 60_000 };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A folder with a config whose one MCP server replays TOOLS and whose embedder is `server`; XDG_CACHE_HOME inside it. */
async function setUp(options: { fail?: boolean; embedder?: Record<string, unknown> } = {}): Promise<{ dir: string; server: EmbeddingsFixture; env: NodeJS.ProcessEnv }> {
  const server = await startEmbeddingsFixture(options.fail === true ? { fail: true } : {});
  cleanups.push(() => server.stop());
  const dir = mkdtempSync(join(tmpdir(), 'cli-embedder-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'tools.jsonl'), TOOLS.map((tool) => JSON.stringify(tool)).join('\n'));
  const config = {
    mcpServers: { memory: { command: process.execPath, args: [REPLAY_SERVER], env: { REPLAY_TOOLS_FILE: join(dir, 'tools.jsonl') } } },
    embedder: { baseUrl: server.baseUrl, model: 'fixture-embed', ...options.embedder },
    // Without the thesaurus, what reaches a tool that shares no word with the query is the embedder alone.
    thesaurus: 'none',
  };
  writeFileSync(join(dir, 'config.json5'), JSON.stringify(config));
  return { dir, server, env: { XDG_CACHE_HOME: join(dir, 'cache') } };
}

describe('tool-search with an embedder', () => {
  it('doctor says the embedder answers and what embedding the catalog took; a second run takes every vector from the disk cache', SLOW, async () => {
    const { dir, server, env } = await setUp();
    const first = createTestIo({ cwd: dir, env });
    expect(await runCli(['doctor', '--config', 'config.json5'], first)).toBe(EXIT_CODES.ok);
    expect(first.out()).toContain(`Embedder fixture-embed at ${server.baseUrl}`);
    expect(first.out()).toContain('✓ answers: 32 dimensions');
    expect(first.out()).toMatch(/catalog: 4 of 4 tools have vectors: 4 embedded in \d+\.\d s, 0 from the cache/);
    expect(readdirSync(join(dir, 'cache', 'tool-search', 'embeddings'))).toEqual(['embeddings-v1.jsonl']);
    // The probe query, then the four tools in one request.
    expect(await server.stats()).toEqual({ requests: 2, inputs: 5 });

    const second = createTestIo({ cwd: dir, env });
    expect(await runCli(['doctor', '--config', 'config.json5', '--json'], second)).toBe(EXIT_CODES.ok);
    const report = JSON.parse(second.out()) as { ok: boolean; embedder: { ok: boolean; catalog: { embedded: number; fromCache: number; vectors: number } } };
    expect(report.ok).toBe(true);
    expect(report.embedder).toMatchObject({ ok: true, dimensions: 32, catalog: { vectors: 4, embedded: 0, fromCache: 4, failed: 0 } });
    // Only the probe query reached the server.
    expect(await server.stats()).toEqual({ requests: 3, inputs: 6 });
  });

  it('search ranks by meaning through the embedder', SLOW, async () => {
    const { dir, env } = await setUp();
    const io = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', 'remember that alice likes tea', '--config', 'config.json5', '--json'], io)).toBe(EXIT_CODES.ok);
    const { hits } = JSON.parse(io.out()) as { hits: Array<{ id: string }> };
    expect(['mcp:memory:create_entities', 'mcp:memory:add_observations']).toContain(hits[0]?.id);
  });

  it('doctor exits 4 when the embedder fails, and search answers lexically with a warning', SLOW, async () => {
    const { dir, env } = await setUp({ fail: true });
    const doctor = createTestIo({ cwd: dir, env });
    expect(await runCli(['doctor', '--config', 'config.json5'], doctor)).toBe(EXIT_CODES.unavailable);
    expect(doctor.out()).toContain('✗ Embedding request to');
    expect(doctor.out()).toContain('HTTP 503');
    expect(doctor.out()).toContain('searches answer lexically');

    const search = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', 'take a screenshot', '--config', 'config.json5', '--json', '--log-level', 'warn'], search)).toBe(EXIT_CODES.ok);
    expect((JSON.parse(search.out()) as { hits: Array<{ id: string }> }).hits[0]?.id).toBe('mcp:memory:take_screenshot');
    expect(search.err()).toContain('embedding tools failed');
  });

  it('exits 3 naming the path for an API key variable that is not set, or an unknown embedder key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-embedder-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'key.json5'), '{ embedder: { baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "EMBEDDING_KEY" } }');
    writeFileSync(join(dir, 'typo.json5'), '{ embedder: { baseUrl: "http://127.0.0.1:9/v1", model: "m", dimension: 8 } }');
    const missing = createTestIo({ cwd: dir });
    expect(await runCli(['list', '--config', 'key.json5'], missing)).toBe(EXIT_CODES.config);
    expect(missing.err()).toContain('embedder.apiKeyEnv: the environment variable EMBEDDING_KEY is not set');
    const typo = createTestIo({ cwd: dir });
    expect(await runCli(['list', '--config', 'typo.json5'], typo)).toBe(EXIT_CODES.config);
    expect(typo.err()).toContain('embedder.dimension: unknown key "dimension"');
  });
});
