import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import { createConceptEmbedder } from './testing/create-concept-embedder.js';
import type { ToolInput } from './types.js';

const CONCEPTS = [
  ['echo', 'parrot', 'repeat', 'back'],
  ['sum', 'add', 'plus', 'total'],
  ['screenshot', 'picture', 'capture'],
  ['weather', 'forecast', 'rain'],
];
const TOOLS: ToolInput[] = [
  { name: 'echo', source: 'mcp', owner: 'everything', description: 'Echoes back the input string.' },
  { name: 'get_sum', source: 'mcp', owner: 'everything', description: 'Returns the sum of two numbers.' },
  { name: 'take_screenshot', source: 'mcp', owner: 'browser', description: 'Take a screenshot of the page.' },
  { name: 'forecast', source: 'plugin', owner: 'weather', description: 'Weather forecast for a city.' },
  { name: 'list_files', source: 'mcp', owner: 'fs', description: 'List the files in a directory.' },
];
const ids = (hits: Array<{ id: string }>) => hits.map((hit) => hit.id);

describe('catalog.searchAsync', () => {
  it('resolves to the lexical hits when the catalog has no embedder', async () => {
    const catalog = createCatalog(TOOLS);
    expect(await catalog.searchAsync('list the files')).toEqual(catalog.search('list the files'));
    expect(await catalog.updateEmbeddings()).toEqual({ vectors: 0, embedded: 0, fromCache: 0, failed: 0 });
  });

  it('finds a tool that shares no word with the query through the embedder', async () => {
    const embedder = createConceptEmbedder(CONCEPTS);
    const catalog = createCatalog(TOOLS, { embedder });
    expect(catalog.search('parrot my phrase')).toEqual([]);
    expect(ids(await catalog.searchAsync('parrot my phrase', { limit: 1 }))).toEqual(['mcp:everything:echo']);
    expect(embedder.calls.map((call) => call.kind)).toEqual(['tool', 'query']);
  });

  it('keeps an exact name first, as search does', async () => {
    const catalog = createCatalog(TOOLS, { embedder: createConceptEmbedder(CONCEPTS) });
    expect(ids(await catalog.searchAsync('list_files'))[0]).toBe('mcp:fs:list_files');
  });

  it('rejects a query that is not a string with invalid_query', async () => {
    const catalog = createCatalog(TOOLS, { embedder: createConceptEmbedder(CONCEPTS) });
    await expect(catalog.searchAsync(42 as unknown as string)).rejects.toMatchObject({ code: 'invalid_query' });
    await expect(catalog.searchAsync('sum', { limit: 0 })).rejects.toMatchObject({ code: 'invalid_limit' });
  });

  it('falls back to the lexical hits when the embedder fails for the query', async () => {
    const embedder = createConceptEmbedder(CONCEPTS);
    const catalog = createCatalog(TOOLS, { embedder });
    await catalog.updateEmbeddings();
    embedder.failWith = new Error('model unavailable');
    expect(await catalog.searchAsync('sum of numbers')).toEqual(catalog.search('sum of numbers'));
  });

  it('leaves a failing embedder alone for a while: later searches answer lexically without calling it', async () => {
    const embedder = createConceptEmbedder(CONCEPTS);
    embedder.failWith = new Error('connection refused');
    const catalog = createCatalog(TOOLS, { embedder });
    expect(await catalog.searchAsync('parrot')).toEqual([]);
    const calls = embedder.calls.length;
    embedder.failWith = undefined;
    expect(await catalog.searchAsync('parrot')).toEqual([]);
    expect(await catalog.searchAsync('list files')).toEqual(catalog.search('list files'));
    expect(embedder.calls).toHaveLength(calls);
    // An explicit update still tries, and its success ends the pause.
    expect((await catalog.updateEmbeddings()).embedded).toBe(5);
    expect(ids(await catalog.searchAsync('parrot', { limit: 1 }))).toEqual(['mcp:everything:echo']);
  });
});

describe('catalog.updateEmbeddings', () => {
  it('embeds each tool once, in batches of the embedder size', async () => {
    const embedder = createConceptEmbedder(CONCEPTS, { maxBatchSize: 2 });
    const catalog = createCatalog(TOOLS, { embedder });
    expect(await catalog.updateEmbeddings()).toEqual({ vectors: 5, embedded: 5, fromCache: 0, failed: 0 });
    expect(embedder.calls.map((call) => call.texts.length)).toEqual([2, 2, 1]);
    expect(await catalog.updateEmbeddings()).toEqual({ vectors: 5, embedded: 0, fromCache: 0, failed: 0 });
    expect(embedder.calls).toHaveLength(3);
  });

  it('takes vectors from a shared cache instead of embedding again', async () => {
    const embeddingCache = new Map<string, Float32Array>();
    const first = createConceptEmbedder(CONCEPTS);
    await createCatalog(TOOLS, { embedder: first, embeddingCache }).updateEmbeddings();
    expect(embeddingCache.size).toBe(5);
    expect([...embeddingCache.keys()].every((key) => /^concepts-v1:[0-9a-f]{64}$/.test(key))).toBe(true);
    const second = createConceptEmbedder(CONCEPTS);
    const catalog = createCatalog(TOOLS, { embedder: second, embeddingCache });
    expect(await catalog.updateEmbeddings()).toEqual({ vectors: 5, embedded: 0, fromCache: 5, failed: 0 });
    expect(second.calls).toEqual([]);
  });

  it('embeds again a tool whose cached vector is broken (not finite numbers)', async () => {
    const embeddingCache = new Map<string, Float32Array>();
    await createCatalog(TOOLS, { embedder: createConceptEmbedder(CONCEPTS), embeddingCache }).updateEmbeddings();
    const [firstKey] = embeddingCache.keys();
    embeddingCache.set(firstKey as string, new Float32Array([Number.NaN, 1, 0, 0, 0]));
    expect(await createCatalog(TOOLS, { embedder: createConceptEmbedder(CONCEPTS), embeddingCache }).updateEmbeddings()).toEqual({ vectors: 5, embedded: 1, fromCache: 4, failed: 0 });
  });

  it('never mixes vectors of two embedders in one cache', async () => {
    const embeddingCache = new Map<string, Float32Array>();
    await createCatalog(TOOLS, { embedder: createConceptEmbedder(CONCEPTS), embeddingCache }).updateEmbeddings();
    const other = createConceptEmbedder(CONCEPTS, { id: 'concepts-v2' });
    expect((await createCatalog(TOOLS, { embedder: other, embeddingCache }).updateEmbeddings()).embedded).toBe(5);
  });

  it('embeds only the tools added since, and forgets removed ones', async () => {
    const embedder = createConceptEmbedder(CONCEPTS);
    const catalog = createCatalog(TOOLS.slice(0, 3), { embedder });
    await catalog.updateEmbeddings();
    catalog.add(TOOLS.slice(3));
    catalog.remove(['mcp:everything:echo']);
    expect(await catalog.updateEmbeddings()).toEqual({ vectors: 4, embedded: 2, fromCache: 0, failed: 0 });
    expect(ids(await catalog.searchAsync('parrot'))).not.toContain('mcp:everything:echo');
  });

  it('reports a failed batch as a value and retries it on the next update', async () => {
    const embedder = createConceptEmbedder(CONCEPTS);
    embedder.failWith = new Error('connection refused');
    const catalog = createCatalog(TOOLS, { embedder });
    expect(await catalog.updateEmbeddings()).toEqual({ vectors: 0, embedded: 0, fromCache: 0, failed: 5, error: 'connection refused' });
    expect(await catalog.searchAsync('list files')).toEqual(catalog.search('list files'));
    embedder.failWith = undefined;
    expect(await catalog.updateEmbeddings()).toEqual({ vectors: 5, embedded: 5, fromCache: 0, failed: 0 });
  });

  it('rejects vectors of the wrong count or length from the embedder as a failed batch', async () => {
    const short = { id: 'short', embed: async (texts: string[]) => texts.slice(1).map(() => [1, 0]) };
    expect(await createCatalog(TOOLS, { embedder: short }).updateEmbeddings()).toMatchObject({ failed: 5, error: 'the embedder returned 4 vectors for 5 texts' });
    let calls = 0;
    const ragged = { id: 'ragged', maxBatchSize: 1, embed: async () => [calls++ === 0 ? [1, 0] : [1, 0, 0]] };
    expect(await createCatalog(TOOLS, { embedder: ragged }).updateEmbeddings()).toMatchObject({ vectors: 1, failed: 4, error: 'vector 0 has 3 dimensions, expected 2' });
  });

  it('rejects an embedder option that is not an embedder', () => {
    expect(() => createCatalog(TOOLS, { embedder: { embed: 'no' } as never })).toThrow(/embedder/);
    expect(() => createCatalog(TOOLS, { embeddingCache: {} as never })).toThrow(/embeddingCache/);
  });
});

describe('catalog.view searchAsync', () => {
  it('fuses over the admitted tools only, exactly as a catalog of them alone', async () => {
    const denied = new Set(['mcp:everything:echo', 'plugin:weather:forecast']);
    const full = createCatalog(TOOLS, { embedder: createConceptEmbedder(CONCEPTS) });
    const view = full.view((tool) => !denied.has(tool.id));
    const alone = createCatalog(
      TOOLS.filter((tool) => !denied.has(`${tool.source}:${tool.owner}:${tool.name}`)),
      { embedder: createConceptEmbedder(CONCEPTS) },
    );
    for (const query of ['parrot my phrase', 'rain tomorrow', 'sum plus total', 'capture the page', 'files']) {
      const seen = await view.searchAsync(query);
      expect(seen).toEqual(await alone.searchAsync(query));
      expect(ids(seen).some((id) => denied.has(id))).toBe(false);
    }
  });
});

describe('catalog.embedQueries', () => {
  it('makes search and searchMany of the embedded queries fuse as searchAsync does, in one query batch', async () => {
    const embedder = createConceptEmbedder(CONCEPTS);
    const catalog = createCatalog(TOOLS, { embedder });
    expect(catalog.search('parrot my phrase')).toEqual([]);
    await catalog.embedQueries(['parrot my phrase', 'rain tomorrow', 'parrot my phrase ']);
    expect(embedder.calls.map((call) => [call.kind, call.texts.length])).toEqual([['tool', 5], ['query', 2]]);
    expect(ids(catalog.search('parrot my phrase', { limit: 1 }))).toEqual(['mcp:everything:echo']);
    expect(catalog.searchMany([{ query: 'rain tomorrow', limit: 1 }, { query: 'parrot my phrase', limit: 1 }]).map(ids)).toEqual([['plugin:weather:forecast'], ['mcp:everything:echo']]);
    expect(catalog.search('rain tomorrow')).toEqual(await catalog.searchAsync('rain tomorrow'));
    // A query not embedded stays lexical.
    expect(catalog.search('capture the page')).toEqual(createCatalog(TOOLS).search('capture the page'));
  });

  it('leaves likelyTools lexical (its margin is calibrated on lexical scores)', async () => {
    const catalog = createCatalog(TOOLS, { embedder: createConceptEmbedder(CONCEPTS) });
    await catalog.embedQueries(['parrot my phrase']);
    expect(catalog.likelyTools('parrot my phrase')).toEqual([]);
  });

  it('does nothing without an embedder', async () => {
    const catalog = createCatalog(TOOLS);
    await catalog.embedQueries(['parrot my phrase']);
    expect(catalog.search('parrot my phrase')).toEqual([]);
  });

  it('resolves when the embedder fails, leaving search lexical and the embedder paused', async () => {
    const embedder = createConceptEmbedder(CONCEPTS);
    const catalog = createCatalog(TOOLS, { embedder });
    await catalog.updateEmbeddings();
    embedder.failWith = new Error('model unavailable');
    await catalog.embedQueries(['parrot my phrase']);
    expect(catalog.search('parrot my phrase')).toEqual([]);
    const calls = embedder.calls.length;
    embedder.failWith = undefined;
    await catalog.embedQueries(['parrot my phrase']);
    expect(embedder.calls).toHaveLength(calls);
  });

  it('rejects input that is not an array of strings with invalid_query', async () => {
    const catalog = createCatalog(TOOLS, { embedder: createConceptEmbedder(CONCEPTS) });
    await expect(catalog.embedQueries('parrot' as unknown as string[])).rejects.toMatchObject({ code: 'invalid_query' });
    await expect(catalog.embedQueries([1] as unknown as string[])).rejects.toMatchObject({ code: 'invalid_query' });
  });

  it('fuses a view over its admitted tools only', async () => {
    const full = createCatalog(TOOLS, { embedder: createConceptEmbedder(CONCEPTS) });
    const view = full.view((tool) => tool.id !== 'mcp:everything:echo');
    await view.embedQueries(['parrot my phrase', 'capture the page']);
    expect(ids(view.search('parrot my phrase')).includes('mcp:everything:echo')).toBe(false);
    expect(ids(view.search('capture the page', { limit: 1 }))).toEqual(['mcp:browser:take_screenshot']);
  });

  it("never fuses a reader's search with vectors another reader embedded, and embeds one text once for all", async () => {
    const embedder = createConceptEmbedder(CONCEPTS);
    const full = createCatalog(TOOLS, { embedder });
    const shared = full.view(() => true);
    const first = shared.withOwnQueryVectors();
    const second = shared.withOwnQueryVectors();
    await first.embedQueries(['parrot my phrase']);
    expect(ids(first.search('parrot my phrase', { limit: 1 }))).toEqual(['mcp:everything:echo']);
    // The same view, the whole catalog and another reader of the view stay lexical for that query.
    expect(second.search('parrot my phrase')).toEqual([]);
    expect(shared.search('parrot my phrase')).toEqual([]);
    expect(full.search('parrot my phrase')).toEqual([]);
    // The second reader's own embedding reuses the vector: no new query call to the embedder.
    const calls = embedder.calls.length;
    await second.embedQueries(['parrot my phrase']);
    expect(ids(await second.searchAsync('parrot my phrase', { limit: 1 }))).toEqual(['mcp:everything:echo']);
    expect(ids(second.search('parrot my phrase', { limit: 1 }))).toEqual(['mcp:everything:echo']);
    expect(embedder.calls).toHaveLength(calls);
  });

  it('judges the lexical evidence of a fused answer by its leading hits, not only the one the embedder put first', async () => {
    const query = 'list the files in a directory with the rain forecast for the city';
    const catalog = createCatalog(TOOLS, { embedder: createConceptEmbedder(CONCEPTS) });
    const lexical = catalog.searchWithEvidence(query);
    expect([lexical.evidence, lexical.hits[0]?.id]).toEqual(['strong', 'mcp:fs:list_files']);
    await catalog.embedQueries([query]);
    const fused = catalog.searchWithEvidence(query);
    // The embedder puts the forecast first; the directory listing right behind it still matches most of the query.
    expect(ids(fused.hits).slice(0, 2)).toEqual(['plugin:weather:forecast', 'mcp:fs:list_files']);
    expect(fused).toMatchObject({ evidence: 'strong', coverage: lexical.coverage, strength: lexical.strength });
    // A query nothing matches lexically stays weak, whatever the embedder ranks.
    await catalog.embedQueries(['parrot my phrase']);
    expect(catalog.searchWithEvidence('parrot my phrase')).toMatchObject({ evidence: 'weak', coverage: 0 });
  });
});
