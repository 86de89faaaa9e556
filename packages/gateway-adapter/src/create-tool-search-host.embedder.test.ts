// The embedder path end to end: a host whose catalog embeds through `createOpenAiEmbedder` (the production client)
// against a real OpenAI-compatible embeddings server process, with vectors kept on disk by
// `createFileEmbeddingCache`, and what a `tool_search` answers when that server fails or is gone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAiEmbedder } from '@tool-search/catalog';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileEmbeddingCache } from './create-file-embedding-cache.js';
import { createToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';
import { startEmbeddingsFixture, type EmbeddingsFixture } from '@tool-search/test-utils';
import type { ToolSearchHost } from './create-tool-search-host.js';

const run = () => ({ ok: true });
const TOOLS: ExecutableTool[] = [
  { name: 'create_entities', owner: 'memory', description: 'Create multiple new entities in the knowledge graph.', execute: run },
  { name: 'add_observations', owner: 'memory', description: 'Add new observations to existing entities in the knowledge graph.', execute: run },
  { name: 'get_forecast', owner: 'weather', description: 'Weather forecast for a city.', execute: run },
  { name: 'take_screenshot', owner: 'browser', description: 'Take a screenshot of the page.', execute: run },
  { name: 'echo', owner: 'everything', description: 'Echoes back the input string.', execute: run },
];
const MEMORY_WRITES = ['openclaw:memory:create_entities', 'openclaw:memory:add_observations'];
const QUERY = 'remember that alice likes tea';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fixture(options: { fail?: boolean } = {}): Promise<EmbeddingsFixture> {
  const started = await startEmbeddingsFixture(options);
  cleanups.push(() => started.stop());
  return started;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'embedding-cache-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A host without the default thesaurus (which reaches "remember" through WordNet): what is left is the embedder's. */
async function host(options: Partial<Parameters<typeof createToolSearchHost>[0]> = {}): Promise<ToolSearchHost> {
  const created = await createToolSearchHost({ sources: { openclaw: TOOLS }, thesaurus: false, ...options });
  cleanups.push(() => created.close());
  return created;
}

/** The hit ids of a tool_search answer (a list of hits, or an object that carries them as `hits`). */
async function searchIds(on: ToolSearchHost, query: string): Promise<{ ids: string[]; content: string }> {
  const session = await on.openSession({ config: { mode: 'tools' } });
  const outcome = await session.execute({ name: 'tool_search', args: { query }, toolCallId: 't1' });
  await session.close();
  return { ids: hitIds(outcome), content: outcome.content };
}

function hitIds(outcome: { status: string; result?: unknown }): string[] {
  expect(outcome.status).toBe('ok');
  const result = (outcome as { result: unknown }).result;
  const hits = (Array.isArray(result) ? result : (result as { hits: unknown[] }).hits) as Array<{ id: string }>;
  return hits.map((hit) => hit.id);
}

describe('createToolSearchHost with an OpenAI-compatible embedder', () => {
  it('finds tools by meaning through a real embeddings server, and after a restart takes every tool vector from the disk cache', async () => {
    const server = await fixture();
    const dir = tempDir();
    const lexical = await searchIds(await host(), QUERY);
    expect(lexical.ids.some((id) => MEMORY_WRITES.includes(id))).toBe(false);

    const embedder = () => createOpenAiEmbedder({ baseUrl: server.baseUrl, model: 'fixture-embed' });
    const first = await host({ embedder: embedder(), embeddingCache: createFileEmbeddingCache({ dir }) });
    expect(MEMORY_WRITES).toContain((await searchIds(first, QUERY)).ids[0]);
    // One request for the five tools, one for the query.
    expect(await server.stats()).toEqual({ requests: 2, inputs: TOOLS.length + 1 });
    await first.close();

    const restarted = await host({ embedder: embedder(), embeddingCache: createFileEmbeddingCache({ dir }) });
    expect(await restarted.updateEmbeddings()).toEqual({ vectors: TOOLS.length, embedded: 0, fromCache: TOOLS.length, failed: 0 });
    expect(await server.stats()).toEqual({ requests: 2, inputs: TOOLS.length + 1 });
    expect(MEMORY_WRITES).toContain((await searchIds(restarted, QUERY)).ids[0]);
    // Only the query was embedded again.
    expect(await server.stats()).toEqual({ requests: 3, inputs: TOOLS.length + 2 });
  });

  it('answers lexically, with a warning in the log, when the embeddings server answers errors', async () => {
    const server = await fixture({ fail: true });
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const failing = await host({ embedder: createOpenAiEmbedder({ baseUrl: server.baseUrl, model: 'fixture-embed' }), logger });
    const query = 'take a screenshot of the page';
    expect(await searchIds(failing, query)).toEqual(await searchIds(await host(), query));
    expect((await server.stats()).requests).toBeGreaterThan(0);
    const warnings = lines.map((line) => JSON.parse(line) as { msg: string; err?: string });
    expect(warnings).toContainEqual(expect.objectContaining({ msg: 'embedding tools failed', err: expect.stringContaining('HTTP 503') }));
  });

  it('answers lexically when the embeddings server process is gone', async () => {
    const server = await fixture();
    await server.stop();
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const orphaned = await host({ embedder: createOpenAiEmbedder({ baseUrl: server.baseUrl, model: 'fixture-embed', timeoutMs: 5_000 }), logger });
    expect(await searchIds(orphaned, 'weather forecast')).toEqual(await searchIds(await host(), 'weather forecast'));
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain('embedding tools failed');
  });

  it("keeps a session's synchronous search lexical when only another session of the same policy embedded the query", async () => {
    const server = await fixture();
    const semantic = await host({ embedder: createOpenAiEmbedder({ baseUrl: server.baseUrl, model: 'fixture-embed' }) });
    const lexical = await (await host()).openSession({ config: { mode: 'tools' } });
    // Both sessions share one policy view; the first embeds QUERY through its tool_search.
    expect(MEMORY_WRITES).toContain((await searchIds(semantic, QUERY)).ids[0]);
    const other = await semantic.openSession({ config: { mode: 'tools' } });
    expect(other.search(QUERY).map((hit) => hit.id)).toEqual(lexical.search(QUERY).map((hit) => hit.id));
    // Its own tool_search of the same query fuses, and reuses the vector the first session embedded.
    const requests = (await server.stats()).requests;
    const own = await other.execute({ name: 'tool_search', args: { query: QUERY }, toolCallId: 't2' });
    expect(MEMORY_WRITES).toContain(hitIds(own)[0]);
    expect(MEMORY_WRITES).toContain(other.search(QUERY)[0]?.id);
    expect((await server.stats()).requests).toBe(requests);
    await other.close();
    await lexical.close();
  });
});
