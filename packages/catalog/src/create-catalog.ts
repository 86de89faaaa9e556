// createCatalog: validated descriptors, a ranking index and prompt-safe hits for very large tool catalogs. This
// file wires the parts: the tool store, the search and vector indexes, the embedding state, and the readers.
import { pino, type Logger } from 'pino';
import { z } from 'zod';
import { CatalogError } from './errors.js';
import { createReader } from './internal/create-reader.js';
import { createView } from './internal/create-view.js';
import { describeType } from './internal/describe-type.js';
import { EmbeddingState } from './internal/embedding-state.js';
import type { CatalogParts } from './internal/reader-context.js';
import { DEFAULT_RANKING, SearchIndex, type RankingSettings } from './internal/search-index.js';
import { ToolHits } from './internal/tool-hits.js';
import { ToolStore, type RemovedSlot } from './internal/tool-store.js';
import { VectorIndex } from './internal/vector-index.js';
import { resolveSearchLimits } from './resolve-search-limits.js';
import { catalogOptionsSchema } from './schemas.js';
import type { AddResult, Catalog, CatalogOptions, EmbeddingCache, OwnerContext, ToolDescriptor, ToolInput } from './types.js';

// The limit constants live with their owners; they stay reachable from here, where the package root takes them.
export { DEFAULT_MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT, SEARCH_LIMIT_CEILING } from './resolve-search-limits.js';
export { DEFAULT_SERVER_MAP_BYTES } from './internal/browse-server.js';
export { SERVERS_PER_PAGE } from './internal/build-server-map.js';
export { DEFAULT_LIKELY_TOOLS, MAX_QUERIES_PER_CALL, pickLikely } from './internal/search-scoped.js';
export { MAX_DESCRIBE_LENGTH, MAX_HIT_DESCRIPTION_LENGTH } from './internal/tool-hits.js';

/** Creates a searchable catalog from tool entries; throws `CatalogError` on an invalid entry or a duplicate id. */
export function createCatalog(tools: ToolInput[], options: CatalogOptions = {}): Catalog {
  return createRankedCatalog(tools, options, DEFAULT_RANKING);
}

/**
 * Internal entry point, not exported from the package root: `createCatalog` with other ranking settings than
 * `DEFAULT_RANKING`. The benchmark scripts import it from this file to measure a setting before it ships.
 */
export function createRankedCatalog(tools: ToolInput[], options: CatalogOptions, settings: RankingSettings): Catalog {
  const parsed = catalogOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = z.core.toDotPath(issue?.path ?? []);
    throw new CatalogError('invalid_options', `Invalid catalog option \`${path}\`: ${issue?.message ?? 'invalid'}.`, { path });
  }
  const limits = resolveSearchLimits(parsed.data);
  const logger: Logger = (parsed.data.logger ?? pino({ level: 'silent' })).child({ pkg: 'catalog' });
  const store = new ToolStore(new Set(parsed.data.reservedNames ?? []));
  const index = new SearchIndex(settings, (tool) => store.contextOf(tool), parsed.data.thesaurus, (id) => store.get(id));
  /** Tool vectors by index slot (only with an embedder). */
  const vectors = new VectorIndex();
  const cache: EmbeddingCache = parsed.data.embeddingCache ?? new Map<string, Float32Array>();
  const embeddings = new EmbeddingState({ embedder: parsed.data.embedder, cache, store, index, vectors, logger });
  const parts: CatalogParts = { store, index, vectors, embeddings, hits: new ToolHits(store), settings, logger };
  const insert = (batch: ToolDescriptor[]) => {
    store.put(batch);
    index.add(batch);
    embeddings.track(batch);
  };
  const whole = createReader(parts, { index: undefined, size: () => store.size, tools: () => store.tools(), stamp: () => store.version, sync: () => undefined }, limits);

  const catalog: Catalog = {
    ...whole,
    get size() {
      return store.size;
    },
    add(toolsToAdd: ToolInput[]): AddResult {
      const { accepted, rejected } = store.validate(toolsToAdd);
      insert(accepted);
      if (accepted.length > 0) store.record(accepted, []);
      for (const entry of rejected) logger.warn({ index: entry.index, toolId: entry.id, code: entry.code }, 'tool rejected');
      logger.debug({ added: accepted.length, rejected: rejected.length, size: store.size }, 'tools added');
      return { added: accepted, rejected };
    },
    remove: (ids: string[]) => removeTools(parts, ids),
    view: (filter, viewOptions) => createView(parts, limits, filter, viewOptions),
    setOwnerContext(context: OwnerContext): void {
      const { source, owner, text, changed } = store.setOwnerContext(context);
      const owned = changed ? store.toolsOf(source, owner) : [];
      if (owned.length === 0) return;
      // Views see this as the owner's tools removed and added again, and catch up as for any change.
      store.record(owned, reindex(parts, owned));
      logger.debug({ source, owner, tools: owned.length, chars: text.length }, 'owner context set');
    },
    updateEmbeddings: () => embeddings.update(),
  };

  const initial = store.validate(tools);
  const invalid = initial.rejected.find((entry) => entry.code !== 'reserved_name');
  if (invalid) {
    throw new CatalogError(invalid.code === 'duplicate_id' ? 'duplicate_id' : 'invalid_tool', invalid.message, {
      index: invalid.index,
      path: invalid.path ?? `tools[${invalid.index}].name`,
    });
  }
  for (const entry of initial.rejected) logger.warn({ name: entry.id, index: entry.index }, 'tool with a reserved name skipped');
  insert(initial.accepted);
  logger.debug({ size: store.size }, 'catalog built');
  return catalog;
}

/** Removes the catalogued ones of `ids` from every part and records the change; returns the ids removed. */
function removeTools({ store, index, vectors, embeddings, hits, logger }: CatalogParts, ids: string[]): string[] {
  if (!Array.isArray(ids)) {
    throw new CatalogError('invalid_query', `Invalid remove input: expected an array of ids, received ${describeType(ids)}.`);
  }
  const removed = [...new Set(ids)].filter((id) => typeof id === 'string' && store.has(id));
  if (removed.length === 0) return removed;
  const slots = removed.map((id) => ({ id, slot: index.slotFor(id) as number }));
  for (const { slot } of slots) vectors.clear(slot);
  index.remove(removed);
  for (const id of removed) {
    store.delete(id);
    hits.forget(id);
    embeddings.forget(id);
  }
  store.record([], slots);
  logger.debug({ removed: removed.length, size: store.size }, 'tools removed');
  return removed;
}

/** Takes tools out of the index and puts them back (their owner's context changed), keeping their vectors. */
function reindex({ index, vectors }: CatalogParts, tools: ToolDescriptor[]): RemovedSlot[] {
  const removed = tools.map((tool) => ({ id: tool.id, slot: index.slotFor(tool.id) as number }));
  const kept = removed.map(({ slot }) => vectors.get(slot));
  for (const { slot } of removed) vectors.clear(slot);
  index.remove(tools.map((tool) => tool.id));
  index.add(tools);
  tools.forEach((tool, i) => {
    const vector = kept[i];
    if (vector !== undefined) vectors.set(index.slotFor(tool.id) as number, vector);
  });
  return removed;
}
