// Property: a view of a catalog answers every read exactly as a catalog built from the tools it admits alone.
// So nothing of a tool it does not admit gets out (no id, text, score, suggestion or count), and a denied id is
// indistinguishable from one that was never catalogued.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import type { CatalogReader, ToolInput } from './types.js';

const WORDS = ['file', 'read', 'write', 'issue', 'create', 'delete', 'calendar', 'event', 'mail', 'send', 'list', 'search', 'repo', 'user', 'image'];
const OWNERS = ['github', 'fs', 'core', 'mail', 'cal'];
const SOURCES = ['openclaw', 'plugin', 'mcp', 'client'] as const;

const toolArbitrary = fc.record({
  nameWords: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  owner: fc.constantFrom(...OWNERS),
  source: fc.constantFrom(...SOURCES),
  descriptionWords: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }),
  denied: fc.boolean(),
});
const queryArbitrary = fc.oneof(
  fc.array(fc.constantFrom(...WORDS, 'github', 'zzz', 'fil', 'calender'), { minLength: 1, maxLength: 6 }).map((words) => words.join(' ')),
  fc.constantFrom(...WORDS.map((word) => `${word}_${word}`)),
);

const idOf = (tool: ToolInput) => `${tool.source}:${tool.owner}:${tool.name}`;

/** Every read a caller can make, for a set of queries and keys. */
function readAll(reader: CatalogReader, queries: string[], keys: string[]): unknown {
  return {
    size: reader.size,
    list: reader.list().map((tool) => tool.id),
    sources: reader.sources(),
    searches: queries.map((query) => reader.search(query, { limit: 10 })),
    many: reader.searchMany(queries.slice(0, 16).map((query) => ({ query, limit: 3 }))),
    describes: keys.map((key) => reader.describe(key)),
    gets: keys.map((key) => reader.get(key)?.id ?? null),
    named: keys.map((key) => reader.named(key)),
  };
}

describe('catalog.view (property)', () => {
  it('answers every read as a catalog of the admitted tools alone, also after adds and removes', () => {
    fc.assert(
      fc.property(
        fc.array(toolArbitrary, { minLength: 1, maxLength: 25 }),
        fc.array(toolArbitrary, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.array(queryArbitrary, { minLength: 1, maxLength: 6 }),
        (initialRaw, laterRaw, removals, queries) => {
          const seen = new Set<string>();
          const toInputs = (raw: typeof initialRaw) =>
            raw
              .map((tool) => ({
                input: { name: tool.nameWords.join('_'), owner: tool.owner, source: tool.source, description: tool.descriptionWords.join(' ') } as ToolInput,
                denied: tool.denied,
              }))
              .filter(({ input }) => !seen.has(idOf(input)) && seen.add(idOf(input)) !== undefined);
          const initial = toInputs(initialRaw);
          const later = toInputs(laterRaw);
          const deniedIds = new Set([...initial, ...later].filter((tool) => tool.denied).map((tool) => idOf(tool.input)));
          const catalog = createCatalog(initial.map((tool) => tool.input));
          const view = catalog.view((tool) => !deniedIds.has(tool.id));
          const keys = [...deniedIds, ...[...initial, ...later].slice(0, 4).map((tool) => tool.input.name), 'mcp:nobody:nothing'];

          const aloneNow = createCatalog(initial.filter((tool) => !tool.denied).map((tool) => tool.input));
          expect(readAll(view, queries, keys)).toEqual(readAll(aloneNow, queries, keys));

          // The catalog changes after the view was used: it catches up (journal), as a rebuild would.
          catalog.add(later.map((tool) => tool.input));
          const removedIds = removals.map((n) => idOf(initial[n % initial.length]!.input));
          catalog.remove(removedIds);
          const remaining = [...initial, ...later].filter((tool) => !tool.denied && !removedIds.includes(idOf(tool.input)));
          const aloneLater = createCatalog(remaining.map((tool) => tool.input));
          const seenLater = readAll(view, queries, [...keys, ...removedIds]);
          expect(seenLater).toEqual(readAll(aloneLater, queries, [...keys, ...removedIds]));

          const text = JSON.stringify(seenLater);
          for (const id of deniedIds) expect(text).not.toContain(`"${id}"`);
        },
      ),
      { numRuns: 300 },
    );
  }, 30_000);
});
