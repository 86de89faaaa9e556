// Property: fail closed on every read path. A view of a catalog, created at any point of any sequence of changes
// (adds, removes, re-adds into freed slots, owner contexts, embeddings arriving), answers every read exactly as a
// catalog built from the tools it admits alone: nothing of a refused tool gets out (no id, text, score, suggestion
// or count), and a refused id is indistinguishable from one that was never catalogued. The small-catalog cases
// shrink to a readable sequence; the scale case builds catalogs of up to 10,000 tools from a seed, since index
// arrays grow in steps and a read past the admitted tools' end only shows on catalogs larger than the first step.
// `pnpm fuzz:isolation` runs the same properties longer, with a fresh seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import { createConceptEmbedder } from './testing/create-concept-embedder.js';
import { readEveryRead } from './read-every-read.js';
import type { Catalog, CatalogReader, CatalogView, ToolDescriptor, ToolFilter, ToolInput } from './types.js';
import { fnv1a, propertySettings, scaledTimeout, seededPick } from '@tool-search/property-settings';

const WORDS = ['file', 'read', 'write', 'issue', 'create', 'delete', 'calendar', 'event', 'mail', 'send', 'list', 'search', 'repo', 'user', 'image', 'age', 'cash', 'note'];
const OWNERS = ['github', 'fs', 'core', 'mail', 'cal', 'apigen', 'toolink'];
const SOURCES = ['openclaw', 'plugin', 'mcp', 'client'] as const;
const CONCEPTS = [['file', 'read', 'write'], ['issue', 'repo'], ['calendar', 'event'], ['mail', 'send'], ['image'], ['age', 'cash']];

const settings = propertySettings();

interface GeneratedTool {
  nameWords: string[];
  owner: string;
  source: (typeof SOURCES)[number];
  descriptionWords: string[];
}

const toolArbitrary: fc.Arbitrary<GeneratedTool> = fc.record({
  nameWords: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  owner: fc.constantFrom(...OWNERS),
  source: fc.constantFrom(...SOURCES),
  descriptionWords: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }),
});

/** One server's tool list: every tool of one owner and source, added together (as a server lists them). */
function serverBatchArbitrary(maxLength: number): fc.Arbitrary<GeneratedTool[]> {
  return fc
    .tuple(fc.constantFrom(...OWNERS), fc.constantFrom(...SOURCES), fc.array(toolArbitrary, { minLength: 1, maxLength }))
    .map(([owner, source, tools]) => tools.map((tool) => ({ ...tool, owner, source })));
}

const toInput = (tool: GeneratedTool): ToolInput => ({ name: tool.nameWords.join('_'), owner: tool.owner, source: tool.source, description: tool.descriptionWords.join(' ') });
const idOf = (tool: ToolInput) => `${tool.source}:${tool.owner}:${tool.name}`;

/** A rule a policy could compile to, as data (so a counterexample prints as the rule, not as a closure). */
type FilterSpec =
  | { kind: 'deny-owners'; owners: string[] }
  | { kind: 'allow-owners'; owners: string[] }
  | { kind: 'deny-sources'; sources: string[] }
  | { kind: 'deny-word'; word: string }
  | { kind: 'deny-hashed'; salt: number; modulus: number };

const filterArbitrary: fc.Arbitrary<FilterSpec> = fc.oneof(
  fc.record({ kind: fc.constant('deny-owners' as const), owners: fc.subarray(OWNERS, { minLength: 1 }) }),
  fc.record({ kind: fc.constant('allow-owners' as const), owners: fc.subarray(OWNERS) }),
  fc.record({ kind: fc.constant('deny-sources' as const), sources: fc.subarray([...SOURCES], { minLength: 1 }) }),
  fc.record({ kind: fc.constant('deny-word' as const), word: fc.constantFrom(...WORDS) }),
  fc.record({ kind: fc.constant('deny-hashed' as const), salt: fc.nat(1_000), modulus: fc.integer({ min: 2, max: 5 }) }),
);

function compileFilter(spec: FilterSpec): ToolFilter {
  switch (spec.kind) {
    case 'deny-owners':
      return (tool) => !spec.owners.includes(tool.owner);
    case 'allow-owners':
      return (tool) => spec.owners.includes(tool.owner);
    case 'deny-sources':
      return (tool) => !spec.sources.includes(tool.source);
    case 'deny-word':
      return (tool) => !tool.name.split('_').includes(spec.word);
    case 'deny-hashed':
      return (tool) => fnv1a(`${spec.salt}:${tool.id}`) % spec.modulus !== 0;
  }
}

type Change =
  | { kind: 'add'; tools: GeneratedTool[] }
  | { kind: 'remove'; picks: number[] }
  | { kind: 'readd'; picks: number[] }
  | { kind: 'context'; owner: string; words: string[] }
  | { kind: 'embed' }
  | { kind: 'view'; filter: FilterSpec };

const changeArbitrary: fc.Arbitrary<Change> = fc.oneof(
  { arbitrary: serverBatchArbitrary(24).map((tools) => ({ kind: 'add' as const, tools })), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('remove' as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('readd' as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('context' as const), owner: fc.constantFrom(...OWNERS), words: fc.array(fc.constantFrom(...WORDS), { maxLength: 4 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('embed' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('view' as const), filter: filterArbitrary }), weight: 2 },
);

const queryArbitrary = fc.oneof(
  fc.array(fc.constantFrom(...WORDS, ...OWNERS, 'zzz', 'fil', 'calender', 'folder'), { minLength: 1, maxLength: 5 }).map((words) => words.join(' ')),
  fc.constantFrom(...WORDS.map((word) => `${word}_${word}`)),
);

/** Every synchronous read a caller can make, for a set of queries and keys. */
function readAll(reader: CatalogReader, queries: string[], keys: string[]): unknown {
  return {
    ...readEveryRead(reader, queries, keys),
    evidence: queries.map((query) => reader.searchWithEvidence(query, { limit: 10 })),
    explained: queries.map((query) => reader.explain(query, { limit: 10 })),
    manyEvidence: reader.searchManyWithEvidence(queries.slice(0, 16).map((query) => ({ query, limit: 3 }))),
    servers: reader.servers(),
    serversNearQuery: queries.map((query) => reader.servers({ query, maxBytes: 512 })),
    // Every owner name and source:owner pair there is, refused or not: a refused server is as unknown as none.
    browse: [...OWNERS, 'nobody', ...SOURCES.flatMap((source) => OWNERS.map((owner) => `${source}:${owner}`))].map((server) => reader.browse(server, { limit: 5 })),
    // A search within each server there is, refused or not: a refused one has no hits.
    withinServer: SOURCES.flatMap((source) => OWNERS.map((owner) => queries.slice(0, 4).map((query) => reader.searchWithEvidence(query, { limit: 10, server: `${source}:${owner}` })))),
  };
}

/** `readAll` plus the vector-fused search. */
async function readAllAsync(reader: CatalogReader, queries: string[], keys: string[]): Promise<unknown> {
  const fused = [];
  for (const query of queries) fused.push(await reader.searchAsync(query, { limit: 10 }));
  return { ...(readAll(reader, queries, keys) as object), fused };
}

/** Ids refused by a view's filter among every tool the catalog ever held. */
function refusedIds(all: Iterable<ToolDescriptor>, filter: ToolFilter): string[] {
  return [...all].filter((tool) => filter(tool) !== true).map((tool) => tool.id);
}

describe('catalog.view isolation (property)', () => {
  it('answers every read, searchAsync included, as a catalog of the admitted tools alone, at every step of a sequence of changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(serverBatchArbitrary(40), { minLength: 1, maxLength: 5 }).map((batches) => batches.flat()),
        fc.array(changeArbitrary, { minLength: 1, maxLength: 10 }),
        fc.array(queryArbitrary, { minLength: 1, maxLength: 4 }),
        async (initialRaw, changes, queries) => {
          const embeddingCache = new Map<string, Float32Array>();
          const embedder = () => createConceptEmbedder(CONCEPTS);
          const unique = (raw: GeneratedTool[]) => {
            const seen = new Set<string>();
            return raw.map(toInput).filter((input) => !seen.has(idOf(input)) && seen.add(idOf(input)) !== undefined);
          };
          const catalog = createCatalog(unique(initialRaw), { embedder: embedder(), embeddingCache });
          const ever = new Map<string, ToolDescriptor>();
          const remember = () => {
            for (const tool of catalog.list()) ever.set(tool.id, tool);
          };
          remember();
          const removed: ToolInput[] = [];
          const contexts = new Map<string, string>();
          const views: Array<{ view: CatalogView; filter: ToolFilter }> = [];

          const alone = async (filter: ToolFilter): Promise<Catalog> => {
            const admitted = catalog.list().filter((tool) => filter(tool) === true);
            const inputs = admitted.map((tool) => ({ name: tool.name, owner: tool.owner, source: tool.source, description: tool.description }));
            const fresh = createCatalog(inputs, { embedder: embedder() });
            for (const [owner, text] of contexts) fresh.setOwnerContext({ source: 'mcp', owner, text });
            await fresh.updateEmbeddings();
            return fresh;
          };
          const check = async () => {
            // Embeddings are brought up to date on both sides first: which tools have a vector at a given moment
            // is timing, not policy, and is covered by the fused comparison once both are current.
            await catalog.updateEmbeddings();
            for (const { view, filter } of views) {
              const refused = refusedIds(ever.values(), filter);
              const keys = [...refused.slice(0, 6), ...catalog.list().slice(0, 3).map((tool) => tool.name), 'mcp:nobody:nothing'];
              const seen = await readAllAsync(view, queries, keys);
              expect(seen).toEqual(await readAllAsync(await alone(filter), queries, keys));
              const text = JSON.stringify(seen);
              for (const id of refused) if (catalog.get(id) !== undefined && filter(catalog.get(id) as ToolDescriptor) !== true) expect(text).not.toContain(`"${id}"`);
            }
          };

          for (const change of changes) {
            switch (change.kind) {
              case 'add':
                catalog.add(unique(change.tools).filter((input) => catalog.get(idOf(input)) === undefined));
                break;
              case 'remove': {
                const current = catalog.list();
                if (current.length === 0) break;
                const ids = change.picks.map((pick) => (current[pick % current.length] as ToolDescriptor).id);
                for (const id of catalog.remove(ids)) {
                  const tool = ever.get(id) as ToolDescriptor;
                  removed.push({ name: tool.name, owner: tool.owner, source: tool.source, description: tool.description });
                }
                break;
              }
              case 'readd': {
                if (removed.length === 0) break;
                const picked = [...new Set(change.picks.map((pick) => removed[pick % removed.length] as ToolInput))];
                catalog.add(picked.filter((input) => catalog.get(idOf(input)) === undefined));
                break;
              }
              case 'context': {
                const text = change.words.join(' ');
                catalog.setOwnerContext({ source: 'mcp', owner: change.owner, text });
                if (text === '') contexts.delete(change.owner);
                else contexts.set(change.owner, text);
                break;
              }
              case 'embed':
                await catalog.updateEmbeddings();
                break;
              case 'view': {
                const filter = compileFilter(change.filter);
                views.push({ view: catalog.view(filter), filter });
                break;
              }
            }
            remember();
            // A view is read between changes too, so later changes reach it through its journal.
            if (views.length > 0) await check();
          }
          const last = changes.at(-1);
          if (last?.kind !== 'view') views.push({ view: catalog.view(compileFilter({ kind: 'deny-owners', owners: ['apigen', 'toolink'] })), filter: compileFilter({ kind: 'deny-owners', owners: ['apigen', 'toolink'] }) });
          await check();
        },
      ),
      { numRuns: settings.runs(60), seed: settings.seed },
    );
  }, scaledTimeout(240_000));

  it('holds on catalogs of up to 10,000 tools whose refused tools sit anywhere in the index, the end included', () => {
    fc.assert(
      fc.property(
        fc.record({
          size: fc.noBias(fc.integer({ min: 65, max: 10_000 })),
          owners: fc.integer({ min: 2, max: 40 }),
          // The share of owners the view refuses, taken from the end of the index (the servers added last), from
          // its start and scattered: all three are checked on each catalog.
          refusedShare: fc.integer({ min: 1, max: 90 }),
          seed: fc.nat(1_000_000),
        }),
        fc.array(queryArbitrary, { minLength: 1, maxLength: 3 }),
        (shape, queries) => {
          const inputs = syntheticTools(shape.size, shape.owners, shape.seed);
          const catalog = createCatalog(inputs);
          const ownerNames = [...new Set(inputs.map((tool) => tool.owner))];
          const count = Math.max(1, Math.min(ownerNames.length - 1, Math.round((ownerNames.length * shape.refusedShare) / 100)));
          const step = Math.max(1, Math.floor(ownerNames.length / count));
          const refusals = [ownerNames.slice(-count), ownerNames.slice(0, count), ownerNames.filter((_, i) => i % step === step - 1).slice(0, count)];
          for (const refused of refusals) {
            const filter: ToolFilter = (tool) => !refused.includes(tool.owner);
            const view = catalog.view(filter);
            const refusedTools = catalog.list().filter((tool) => !filter(tool));
            const keys = [...refusedTools.slice(0, 3).map((tool) => tool.id), ...refusedTools.slice(0, 2).map((tool) => tool.name)];
            const fresh = createCatalog(inputs.filter((input) => !refused.includes(input.owner)));
            const seen = readAll(view, queries, keys);
            expect(seen).toEqual(readAll(fresh, queries, keys));
            const text = JSON.stringify(seen);
            for (const tool of refusedTools) expect(text).not.toContain(`"${tool.id}"`);
          }
        },
      ),
      { numRuns: settings.runs(6), seed: settings.seed },
    );
  }, scaledTimeout(240_000));

  it('never shows a refused tool in a family of near-duplicates (alsoOn), which a view answers as the admitted tools alone', () => {
    fc.assert(
      fc.property(
        // Each tool is copied onto other servers, by name or with its description and another name: families everywhere.
        fc.array(
          fc.record({ tool: toolArbitrary, copies: fc.array(fc.record({ owner: fc.constantFrom(...OWNERS), source: fc.constantFrom(...SOURCES), renamed: fc.boolean() }), { minLength: 1, maxLength: 3 }) }),
          { minLength: 1, maxLength: 12 },
        ),
        filterArbitrary,
        fc.array(queryArbitrary, { minLength: 1, maxLength: 4 }),
        (families, spec, queries) => {
          const seen = new Set<string>();
          const inputs = families
            .flatMap(({ tool, copies }) => [
              toInput({ ...tool, descriptionWords: [...tool.descriptionWords, 'alpha', 'beta', 'gamma'] }),
              ...copies.map((copy) => toInput({ ...tool, owner: copy.owner, source: copy.source, nameWords: copy.renamed ? [...tool.nameWords, 'copy'] : tool.nameWords, descriptionWords: [...tool.descriptionWords, 'alpha', 'beta', 'gamma'] })),
            ])
            .filter((input) => !seen.has(idOf(input)) && seen.add(idOf(input)) !== undefined);
          const catalog = createCatalog(inputs);
          const filter = compileFilter(spec);
          const view = catalog.view(filter);
          const refused = catalog.list().filter((tool) => filter(tool) !== true);
          const keys = [...refused.slice(0, 3).map((tool) => tool.id), ...catalog.list().slice(0, 3).map((tool) => tool.name)];
          const read = readAll(view, queries, keys);
          expect(read).toEqual(readAll(createCatalog(inputs.filter((input) => refused.every((tool) => tool.id !== idOf(input)))), queries, keys));
          const text = JSON.stringify(read);
          for (const tool of refused) expect(text).not.toContain(`"${tool.id}"`);
        },
      ),
      { numRuns: settings.runs(60), seed: settings.seed },
    );
  }, scaledTimeout(120_000));
});

/** `size` tools over `owners` owners, in owner order (each owner's tools added together, as servers list them). */
function syntheticTools(size: number, owners: number, seed: number): ToolInput[] {
  const pick = seededPick(WORDS, seed);
  const perOwner = Math.ceil(size / owners);
  const tools: ToolInput[] = [];
  for (let i = 0; i < size; i++) {
    const owner = OWNERS[Math.floor(i / perOwner) % OWNERS.length] + String(Math.floor(i / perOwner));
    tools.push({ name: `${pick()}_${pick()}_${i}`, owner, source: 'openclaw', description: Array.from({ length: 6 }, pick).join(' ') });
  }
  return tools;
}
