// `explain` against the real ranking: on realmcp's dev catalog and queries (user phrasing and model-written), the
// explanation's hits, order and scores are the lexical search's, and the top hit's terms add up to its score.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBenchSet, loadModelQueries } from '../bench/load-bench-set.js';
import { createCatalog } from './create-catalog.js';
import type { ToolInput } from './types.js';

const dir = fileURLToPath(new URL('../bench/data/realmcp', import.meta.url));
const set = loadBenchSet(dir, 'realmcp');
const modelQueries = (loadModelQueries(dir) ?? []).flatMap((entry) => {
  const first = entry.args.query ?? (entry.args.queries as Array<string | { query: string }> | undefined)?.[0];
  return first === undefined ? [] : [typeof first === 'string' ? first : first.query];
});
const queries = [...set.queries.map((query) => query.query), ...modelQueries];

describe('catalog.explain', () => {
  const catalog = createCatalog(set.inputs);

  it('gives the hits, order, scores and verdict of the lexical search, for every dev query', () => {
    expect(queries.length).toBeGreaterThan(300);
    for (const query of queries) {
      const explained = catalog.explain(query, { limit: 8 });
      const answer = catalog.searchWithEvidence(query, { limit: 8 });
      expect(explained.hits.map((hit) => [hit.id, hit.score]), query).toEqual(answer.hits.map((hit) => [hit.id, hit.score]));
      expect([explained.evidence, explained.coverage, explained.strength], query).toEqual([answer.evidence, answer.coverage, answer.strength]);
    }
  });

  it('adds each hit\'s term contributions up to its score (the top hit exactly, the rest at most it), shares summing to 1', () => {
    let checked = 0;
    let named = 0;
    for (const query of queries) {
      const explained = catalog.explain(query, { limit: 8 });
      for (const [position, hit] of explained.hits.entries()) {
        if (hit.exactMatch || hit.replaces !== undefined) continue;
        const shares = hit.matches.reduce((sum, match) => sum + match.share, 0);
        expect(Math.abs(shares - 1), `${query}: ${hit.id}`).toBeLessThan(0.01);
        const rebuilt = hit.lexical * hit.facet * hit.naming;
        if (hit.naming > 1) named += 1;
        if (position === 0) expect(Math.abs(rebuilt - hit.score), `${query}: ${hit.id}`).toBeLessThan(0.002);
        expect(rebuilt * hit.diversification, `${query}: ${hit.id}`).toBeCloseTo(hit.score, 1);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(1000);
    // The name and server factor takes part in the sum, not only as 1.
    expect(named).toBeGreaterThan(100);
  });

  it('names the fields and paths of the matches, and says why a search is weak', () => {
    const tools: ToolInput[] = [
      { name: 'create_entities', source: 'mcp', owner: 'memory', description: 'Create multiple new entities in the knowledge graph' },
      { name: 'read_file', source: 'mcp', owner: 'filesystem', description: 'Read the complete contents of a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }, annotations: { readOnlyHint: true } },
    ];
    const small = createCatalog(tools);
    const strong = small.explain('read files');
    expect(strong.evidence).toBe('strong');
    expect(strong.hits[0]).toMatchObject({ id: 'mcp:filesystem:read_file', exactMatch: false, facet: 1.1 });
    expect(strong.hits[0]?.matches).toContainEqual(expect.objectContaining({ term: 'read', path: 'word', fields: expect.arrayContaining(['name', 'description']) }));
    const none = small.explain('zzzz qqqq');
    expect(none).toMatchObject({ evidence: 'weak', hits: [], words: [{ term: 'zzzz', found: false }, { term: 'qqqq', found: false }] });
    expect(none.why).toContain('No tool you may use has any word of the query (zzzz, qqqq)');
    const stray = small.explain('remember that alice from accounting likes green tea with new honey');
    expect(stray.evidence).toBe('weak');
    expect(stray.why).toMatch(/^The best hit matches only new, creat \(coverage 0.052 < 0.4, strength 0.387 < 1.2\); no tool you may use has rememb, alic, .*: it is a guess\.$/);
    expect(small.explain('read_file').hits[0]).toMatchObject({ id: 'mcp:filesystem:read_file', exactMatch: true });
  });

  it('marks the words a query implies and does not write, and only those', () => {
    const small = createCatalog([{ name: 'read_file', source: 'mcp', owner: 'filesystem', description: 'Read the complete contents of a file' }]);
    expect(small.explain('how many lines in notes.txt').words).toEqual([
      { term: 'mani', found: false },
      { term: 'count', found: false, implied: true },
      { term: 'line', found: false },
      { term: 'note', found: false },
      { term: 'txt', found: false },
      { term: 'file', found: true, implied: true },
    ]);
    // A word the query also writes is its own, not implied.
    expect(small.explain('read the file notes.txt').words.find((word) => word.term === 'file')).toEqual({ term: 'file', found: true });
  });

  it('sees only a view\'s tools: a refused tool is neither a hit nor a found word', () => {
    const view = createCatalog(set.inputs).view((tool) => tool.owner !== 'memory');
    const explained = view.explain('create entities in the knowledge graph');
    expect(explained.hits.some((hit) => hit.owner === 'memory')).toBe(false);
    expect(JSON.stringify(explained)).not.toContain('create_entities');
  });
});
