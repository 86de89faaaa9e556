// ReaderContext: everything one reader (the whole catalog, or a view) reads through. The catalog's parts, the
// reader's scope and limits, and the listings it caches until its scope changes.
import type { Logger } from 'pino';
import { CatalogError } from '../errors.js';
import type { ResolvedSearchLimits } from '../resolve-search-limits.js';
import { TOOL_SOURCES, type ToolSource } from '../tool-id.js';
import type { ToolDescriptor } from '../types.js';
import { outlineOwners, type OwnerOutline } from './build-server-map.js';
import { describeType } from './describe-type.js';
import type { EmbeddingState, QueryVectors } from './embedding-state.js';
import type { IndexScope } from './index-scope.js';
import type { RankingSettings, SearchIndex } from './search-index.js';
import type { ToolHits } from './tool-hits.js';
import type { ToolStore } from './tool-store.js';
import type { VectorIndex } from './vector-index.js';

/** The parts of one catalog, shared by all its readers. */
export interface CatalogParts {
  store: ToolStore;
  index: SearchIndex;
  vectors: VectorIndex;
  embeddings: EmbeddingState;
  hits: ToolHits;
  settings: RankingSettings;
  logger: Logger;
}

/** What a reader sees: the whole catalog, or the tools a view admits. */
export interface Scope {
  /** Undefined: everything catalogued is visible. */
  index: IndexScope | undefined;
  size(): number;
  tools(): Iterable<ToolDescriptor>;
  /** Changes whenever what the scope sees may have changed (for cached lists). */
  stamp(): number;
  /** Brings the scope up to date with the catalog; called first by every read. */
  sync(): void;
}

/** The visible tools sorted by id, and how many each source has. */
export interface Listing {
  tools: ToolDescriptor[];
  sources: Record<ToolSource, number>;
}

/** One reader's view of the catalog, with the helpers every read uses. */
export interface ReaderContext {
  parts: CatalogParts;
  scope: Scope;
  limits: ResolvedSearchLimits;
  /** The query vectors this reader embedded (a synchronous search fuses only with these). */
  known: QueryVectors;
  /** Whether `id` is catalogued and in scope: the test every read by id goes through. */
  visible(id: string): boolean;
  /** Visible ids of the tools called `name`, sorted. */
  namedIds(name: string): string[];
  /** Visible ids of the tools `text` names written another way (`ToolStore.idsNamedLoosely`), sorted. */
  looselyNamedIds(text: string): string[];
  listing(): Listing;
  /** The scope's owners with their summaries and tools. */
  outline(): OwnerOutline[];
}

/** A scope's listing and outline, each with the stamp it was computed at. */
interface ScopeListings {
  listed?: Listing & { stamp: number };
  outlined?: { stamp: number; owners: OwnerOutline[] };
}

/**
 * The listings of each scope, shared by every reader over it: a view's readers (one per session, each with its own
 * query vectors) see the same tools, so a session opened per request does not sort and outline them again.
 */
const scopeListings = new WeakMap<Scope, ScopeListings>();

/** A reader's context; the listing and the outline are computed again only when the scope's stamp changes. */
export function createReaderContext(parts: CatalogParts, scope: Scope, limits: ResolvedSearchLimits, known: QueryVectors): ReaderContext {
  const visible = (id: string) => parts.store.has(id) && (scope.index === undefined || scope.index.has(id));
  const cached = scopeListings.get(scope) ?? {};
  scopeListings.set(scope, cached);
  const listing = () => {
    const stamp = scope.stamp();
    if (cached.listed?.stamp === stamp) return cached.listed;
    const tools = [...scope.tools()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const sources = Object.fromEntries(TOOL_SOURCES.map((source) => [source, 0])) as Record<ToolSource, number>;
    for (const tool of tools) sources[tool.source] += 1;
    cached.listed = { stamp, tools, sources };
    return cached.listed;
  };
  return {
    parts,
    scope,
    limits,
    known,
    visible,
    namedIds: (name) => [...parts.store.idsNamed(name)].filter(visible).sort(),
    looselyNamedIds: (text) => [...parts.store.idsNamedLoosely(text)].filter(visible).sort(),
    listing,
    // An owner context change is a change of the scope's tools, so it renews the outline too.
    outline() {
      const stamp = scope.stamp();
      if (cached.outlined?.stamp !== stamp) cached.outlined = { stamp, owners: outlineOwners({ tools: listing().tools, summaryOf: (source, owner) => parts.store.summaryOf(source, owner) }) };
      return cached.outlined.owners;
    },
  };
}

/** Throws `invalid_query` unless `query` is a string. */
export function checkQuery(query: unknown): asserts query is string {
  if (typeof query !== 'string') {
    throw new CatalogError('invalid_query', `Invalid search query: expected a string, received ${describeType(query)}.`);
  }
}

/** A search's limit: the reader's default when absent, clamped to its maximum; `invalid_limit` when not an integer ≥ 1. */
export function resolveLimit(limit: unknown, limits: ResolvedSearchLimits): number {
  if (limit === undefined) return limits.searchDefaultLimit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw new CatalogError('invalid_limit', `Invalid search limit ${String(limit)}: expected an integer ≥ 1 (values above ${limits.maxSearchLimit} are clamped).`);
  }
  return Math.min(limit, limits.maxSearchLimit);
}
