import { describe, expect, it } from 'vitest';
import { BENCH_DATA_DIR } from '../bench/bench-options.js';
import { loadNameSet, readNameCases, type NameCase } from '../bench/name-cases.js';
import { createCatalog } from './create-catalog.js';
import type { Catalog } from './types.js';
import { scaledTimeout } from '@tool-search/property-settings';

// The names suite (bench/data/names): a tool's name, written as models and people write it, puts that tool first,
// and a name several servers share puts all of them first. Every case, not a share of them.
const cases = readNameCases(BENCH_DATA_DIR);
const bySet = new Map<string, NameCase[]>();
for (const entry of cases) bySet.set(entry.set, [...(bySet.get(entry.set) ?? []), entry]);

/** The catalog ids of the tools a search puts first, as many as a case expects, in benchmark ids, sorted. */
function firstNamed(catalog: Catalog, benchIdOf: ReadonlyMap<string, string>, entry: NameCase): string[] {
  const hits = catalog.search(entry.query, { limit: Math.max(5, entry.expect.length) });
  return hits
    .slice(0, entry.expect.length)
    .map((hit) => benchIdOf.get(hit.id) ?? hit.id)
    .sort();
}

describe('the names suite', () => {
  it('holds at least 200 cases of every kind the issue lists', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    const kinds = new Set(cases.map((entry) => entry.kind));
    for (const kind of ['id', 'bare', 'server__tool', 'server.tool', 'mcp__server__tool', 'upper', 'separator', 'camel', 'stop-words']) expect(kinds).toContain(kind);
    expect(cases.some((entry) => entry.expect.length > 1)).toBe(true);
  });

  for (const [set, entries] of bySet) {
    it(`ranks the named tools first for every case on ${set} (${entries.length} cases)`, () => {
      const bench = loadNameSet(BENCH_DATA_DIR, set);
      const catalog = createCatalog(bench.inputs);
      const missed = entries.filter((entry) => firstNamed(catalog, bench.benchIdOf, entry).join(' ') !== entry.expect.join(' '));
      expect(missed.map((entry) => `${entry.kind} ${entry.query}`)).toEqual([]);
    }, scaledTimeout(120_000));
  }

  it('answers a name with strong evidence, and each tool of a shared name with its server in its id', () => {
    const bench = loadNameSet(BENCH_DATA_DIR, 'realmcp+extra');
    const catalog = createCatalog(bench.inputs);
    const answer = catalog.searchWithEvidence('LIST-ALL');
    expect(answer.evidence).toBe('strong');
    expect(answer.hits.slice(0, 2).map((hit) => hit.id)).toEqual(['mcp:kv-store:list_all', 'mcp:task-runner:list_all']);
  });

  it('keeps a refused tool unknown however its name is written', () => {
    const bench = loadNameSet(BENCH_DATA_DIR, 'realmcp+extra');
    const catalog = createCatalog(bench.inputs);
    const view = catalog.view((tool) => tool.id !== 'mcp:filesystem:read_text_file' && tool.owner !== 'task-runner');
    const alone = createCatalog(bench.inputs.filter((input) => !(input.owner === 'filesystem' && input.name === 'read_text_file') && input.owner !== 'task-runner'));
    for (const query of ['read_text_file', 'READ_TEXT_FILE', 'readTextFile', 'filesystem__read_text_file', 'filesystem.read-text-file', 'mcp__filesystem__read_text_file', 'mcp:filesystem:read_text_file', 'task-runner__run', 'RUN', 'list_all', 'What_Is_It']) {
      const seen = view.search(query, { limit: 5 }).map((hit) => hit.id);
      expect(seen).not.toContain('mcp:filesystem:read_text_file');
      expect(seen.some((id) => id.startsWith('mcp:task-runner:'))).toBe(false);
      expect(seen).toEqual(alone.search(query, { limit: 5 }).map((hit) => hit.id));
      expect(view.describe(query)).toEqual(alone.describe(query));
    }
  });

  it('describes a tool by its name written another way, and calls a name two tools share ambiguous', () => {
    const bench = loadNameSet(BENCH_DATA_DIR, 'realmcp+extra');
    const catalog = createCatalog(bench.inputs);
    const one = catalog.describe('filesystem__read_text_file');
    expect(one.found && one.tool.id).toBe('mcp:filesystem:read_text_file');
    const shared = catalog.describe('ListAll');
    expect(shared.found ? 'found' : shared.reason).toBe('ambiguous');
    expect(shared.found ? [] : shared.suggestions).toEqual(['mcp:kv-store:list_all', 'mcp:task-runner:list_all']);
  });

  it('forgets a removed tool\'s other writings and keeps the rest of a shared name', () => {
    const bench = loadNameSet(BENCH_DATA_DIR, 'realmcp+extra');
    const catalog = createCatalog(bench.inputs);
    catalog.remove(['mcp:kv-store:list_all']);
    expect(catalog.search('ListAll', { limit: 2 }).map((hit) => hit.id)[0]).toBe('mcp:task-runner:list_all');
    const described = catalog.describe('kv_store__list_all');
    expect(described.found).toBe(false);
    catalog.remove(['mcp:task-runner:list_all']);
    expect(catalog.describe('LIST-ALL').found).toBe(false);
  });
});
