// Property: a view of a catalog answers every read exactly as a catalog built from the tools it admits alone.
// So nothing of a tool it does not admit gets out (no id, text, score, suggestion or count), and a denied id is
// indistinguishable from one that was never catalogued.
import fc from 'fast-check';
import { propertySettings, scaledTimeout } from '@tool-search/property-settings';
import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import { normalizeTerm } from './internal/tokenize-text.js';
import { createConceptEmbedder } from './testing/create-concept-embedder.js';
import { readEveryRead } from './read-every-read.js';
import type { Catalog, Thesaurus, ToolInput } from './types.js';

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
/** Relatives among the tools' own words, so a word only denied tools have is expanded through a view. */
const THESAURUS_WORDS: Record<string, string[]> = {
  folder: ['file', 'repo'],
  file: ['read', 'write', 'image'],
  issue: ['repo', 'event'],
  event: ['calendar'],
  send: ['mail', 'list'],
  'send off': ['mail', 'delete'],
  zzz: ['search', 'user'],
};
const stem = (word: string) => normalizeTerm(word) as string;
const THESAURUS_TABLE = new Map(Object.entries(THESAURUS_WORDS).map(([key, words]) => [key.split(' ').map((word, i) => (i === 0 ? stem(word) : word)).join(' '), words.map(stem)]));
const THESAURUS: Thesaurus = { id: 'property', related: (key) => THESAURUS_TABLE.get(key) };

const queryArbitrary = fc.oneof(
  fc.array(fc.constantFrom(...WORDS, 'github', 'zzz', 'fil', 'calender', 'folder', 'off'), { minLength: 1, maxLength: 6 }).map((words) => words.join(' ')),
  fc.constantFrom(...WORDS.map((word) => `${word}_${word}`)),
);

const settings = propertySettings();

const idOf = (tool: ToolInput) => `${tool.source}:${tool.owner}:${tool.name}`;


describe('catalog.view (property)', () => {
  it('answers every read as a catalog of the admitted tools alone, also after adds and removes, with or without a thesaurus', () => {
    fc.assert(
      fc.property(
        fc.array(toolArbitrary, { minLength: 1, maxLength: 25 }),
        fc.array(toolArbitrary, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.array(queryArbitrary, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.constantFrom(...OWNERS), fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }).map((words) => words.join(' '))), { maxLength: 2 }),
        fc.boolean(),
        (initialRaw, laterRaw, removals, queries, contexts, withThesaurus) => {
          const options = withThesaurus ? { thesaurus: THESAURUS } : {};
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
          const catalog = createCatalog(initial.map((tool) => tool.input), options);
          const view = catalog.view((tool) => !deniedIds.has(tool.id));
          // Owner context (server instructions) set on the catalog and on each catalog built to compare with.
          const withContext = (target: Catalog) => {
            for (const [owner, text] of contexts) target.setOwnerContext({ source: 'mcp', owner, text });
            return target;
          };
          withContext(catalog);
          const keys = [...deniedIds, ...[...initial, ...later].slice(0, 4).map((tool) => tool.input.name), 'mcp:nobody:nothing'];

          const aloneNow = withContext(createCatalog(initial.filter((tool) => !tool.denied).map((tool) => tool.input), options));
          expect(readEveryRead(view, queries, keys)).toEqual(readEveryRead(aloneNow, queries, keys));

          // The catalog changes after the view was used: it catches up (journal), as a rebuild would.
          catalog.add(later.map((tool) => tool.input));
          const removedIds = removals.map((n) => idOf(initial[n % initial.length]!.input));
          catalog.remove(removedIds);
          const remaining = [...initial, ...later].filter((tool) => !tool.denied && !removedIds.includes(idOf(tool.input)));
          const aloneLater = withContext(createCatalog(remaining.map((tool) => tool.input), options));
          const seenLater = readEveryRead(view, queries, [...keys, ...removedIds]);
          expect(seenLater).toEqual(readEveryRead(aloneLater, queries, [...keys, ...removedIds]));

          const text = JSON.stringify(seenLater);
          for (const id of deniedIds) expect(text).not.toContain(`"${id}"`);
        },
      ),
      { numRuns: settings.runs(300), seed: settings.seed },
    );
  }, scaledTimeout(60_000));

  it('fuses searchAsync over the admitted tools exactly as a catalog of them alone, with the same embedder', async () => {
    const concepts = [['file', 'read', 'write'], ['issue', 'repo'], ['calendar', 'event'], ['mail', 'send'], ['image']];
    await fc.assert(
      fc.asyncProperty(fc.array(toolArbitrary, { minLength: 1, maxLength: 20 }), fc.array(queryArbitrary, { minLength: 1, maxLength: 4 }), async (raw, queries) => {
        const seen = new Set<string>();
        const tools = raw
          .map((tool) => ({ input: { name: tool.nameWords.join('_'), owner: tool.owner, source: tool.source, description: tool.descriptionWords.join(' ') } as ToolInput, denied: tool.denied }))
          .filter(({ input }) => !seen.has(idOf(input)) && seen.add(idOf(input)) !== undefined);
        const embeddingCache = new Map<string, Float32Array>();
        const catalog = createCatalog(tools.map((tool) => tool.input), { embedder: createConceptEmbedder(concepts), embeddingCache });
        const view = catalog.view((tool) => !tools.some((entry) => entry.denied && idOf(entry.input) === tool.id));
        const alone = createCatalog(tools.filter((tool) => !tool.denied).map((tool) => tool.input), { embedder: createConceptEmbedder(concepts) });
        for (const query of queries) expect(await view.searchAsync(query, { limit: 10 })).toEqual(await alone.searchAsync(query, { limit: 10 }));
      }),
      { numRuns: settings.runs(100), seed: settings.seed },
    );
  }, scaledTimeout(60_000));
});
