// createReader: the read API of a catalog or a view over one scope. Every read brings the scope up to date
// first; the work itself is done by the search, browse and describe modules.
import type { ResolvedSearchLimits } from '../resolve-search-limits.js';
import type {
  BrowseOptions,
  BrowseResult,
  CatalogReader,
  DescribeResult,
  LikelyToolsOptions,
  SearchAnswer,
  SearchExplanation,
  SearchHit,
  SearchOptions,
  SearchQuery,
  ServerMap,
  ServerMapOptions,
  ToolDescription,
  ToolDescriptor,
} from '../types.js';
import type { ToolSource } from '../tool-id.js';
import { browseServer, mapServers } from './browse-server.js';
import { describeByKey } from './describe-by-key.js';
import type { QueryVectors } from './embedding-state.js';
import { explainSearch } from './explain-search.js';
import { checkQuery, createReaderContext, resolveLimit, type CatalogParts, type Scope } from './reader-context.js';
import { checkMany, exactMatches, likelyTools, searchScoped, searchWithEvidence } from './search-scoped.js';

/** A reader over `scope`; `known` holds the query vectors it embedded (a fresh reader starts with none). */
export function createReader(parts: CatalogParts, scope: Scope, limits: ResolvedSearchLimits, known: QueryVectors = new Map()): CatalogReader {
  const context = createReaderContext(parts, scope, limits, known);
  /** Runs `read` on an up-to-date scope. */
  const synced =
    <A extends unknown[], R>(read: (...args: A) => R) =>
    (...args: A): R => {
      scope.sync();
      return read(...args);
    };
  return {
    get size() {
      scope.sync();
      return scope.size();
    },
    limits,
    search: synced((query: string, options?: SearchOptions): SearchHit[] => searchScoped(context, query, options)),
    searchWithEvidence: synced((query: string, options?: SearchOptions): SearchAnswer => searchWithEvidence(context, query, options)),
    explain: synced((query: string, options?: SearchOptions): SearchExplanation => {
      const answer = searchWithEvidence(context, query, options, 'lexical');
      const tools = answer.hits.map((hit) => parts.store.get(hit.id) as ToolDescriptor);
      const thresholds = { coverage: parts.settings.weakCoverage, strength: parts.settings.weakStrength };
      return explainSearch({ query, answer, exact: exactMatches(context, query), index: parts.index.explain(query, tools, scope.index), thresholds, replacementNamedBy: (id) => parts.index.replacementNamedBy(id) });
    }),
    searchMany: synced((queries: SearchQuery[]): SearchHit[][] => {
      checkMany(context, queries, 'searchMany');
      return queries.map((entry) => searchScoped(context, entry.query, entry.limit === undefined ? {} : { limit: entry.limit }));
    }),
    searchManyWithEvidence: synced((queries: SearchQuery[]): SearchAnswer[] => {
      checkMany(context, queries, 'searchManyWithEvidence');
      return queries.map((entry) => searchWithEvidence(context, entry.query, entry.limit === undefined ? {} : { limit: entry.limit }));
    }),
    async searchAsync(query: string, options?: SearchOptions): Promise<SearchHit[]> {
      checkQuery(query);
      resolveLimit(options?.limit, limits);
      const vector = await parts.embeddings.vectorFor(query, known);
      // After the awaits: the catalog may have changed meanwhile, so the scope catches up here.
      scope.sync();
      return searchScoped(context, query, options, parts.vectors.size > 0 ? vector : undefined);
    },
    embedQueries: (queries: readonly string[]) => parts.embeddings.embedQueries(queries, known),
    withOwnQueryVectors: () => createReader(parts, scope, limits),
    likelyTools: synced((request: string, options?: LikelyToolsOptions): ToolDescription[] => likelyTools(context, request, options)),
    servers<OffsetKey extends string = 'offset'>(options?: ServerMapOptions<OffsetKey>): ServerMap<OffsetKey> {
      scope.sync();
      return mapServers(context, options);
    },
    browse: synced((server: string, options?: BrowseOptions): BrowseResult => browseServer(context, server, options)),
    describe: synced((idOrName: string): DescribeResult => describeByKey(context, idOrName)),
    named: synced((name: string): string[] => (typeof name === 'string' ? context.namedIds(name) : [])),
    get: synced((id: string): ToolDescriptor | undefined => (typeof id === 'string' && context.visible(id) ? parts.store.get(id) : undefined)),
    list: synced((): ToolDescriptor[] => [...context.listing().tools]),
    sources: synced((): Record<ToolSource, number> => ({ ...context.listing().sources })),
  };
}
