// Searches and describes of one session, each one event (logged, counted and traced alike) from every route (tool_search,
// tool_describe, tools.search / tools.describe inside code, and `session.search` for a framework's own tool search).
import type { BrowseOptions, BrowseResult, CatalogView, DescribeResult, SearchAnswer, SearchExplanation, SearchHit, StartingOwner } from '@tool-search/catalog';
import { SERVER_MAP_PAGE_BYTES, SERVERS_OFFSET_ARG, type ServerMapPage, type ServerMapRequest } from '@tool-search/modes';
import type { ReadRoute, SearchRequest, SessionEmit } from './session-event.js';

export type { ReadRoute, SearchRequest } from './session-event.js';

export interface CatalogReads {
  /** One query (`single`) or up to 16; throws `CatalogError` on a bad query or limit. */
  search(queries: SearchRequest[], single: boolean, toolCallId: string | undefined, via: ReadRoute): SearchHit[][];
  /** `search` with each query's evidence (see `SearchAnswer`). */
  searchWithEvidence(queries: SearchRequest[], single: boolean, toolCallId: string | undefined, via: ReadRoute): SearchAnswer[];
  /**
   * One page of the server map of the session's view, as the catalog ranks and pages it: servers ranked by
   * relevance to `query` (by size without one), the tools nearest `query` first within each server, servers still
   * starting marked so; `offset` is the page's first server (default 0), `maxBytes` its budget (default
   * `SERVER_MAP_PAGE_BYTES`). Throws `CatalogError` on a bad query or offset.
   */
  servers(query: string | undefined, toolCallId: string | undefined, via: ReadRoute, page?: Partial<ServerMapRequest> & { offset?: number | undefined }): ServerMapPage;
  /** One server's tools, a page at a time. */
  browse(server: string, options: BrowseOptions, toolCallId: string | undefined, via: ReadRoute): BrowseResult;
  describe(idOrName: string, toolCallId: string, via: ReadRoute): DescribeResult;
  /** The view's explanation of a lexical search (for people; not counted as a search). */
  explain(query: string, limit: number | undefined): SearchExplanation;
}

export function createCatalogReads(options: {
  view: CatalogView;
  /** The session's emitter: each read is one event (logged, counted and traced by its sinks). */
  emit: SessionEmit;
  /** MCP servers still making their first connection that the session's policy may see (the map marks them `starting`). */
  starting?: (() => readonly StartingOwner[]) | undefined;
}): CatalogReads {
  const { view, emit } = options;
  const searchWithEvidence: CatalogReads['searchWithEvidence'] = (queries, single, toolCallId, via) => {
    const first = queries[0];
    const answers = single && first
      ? [view.searchWithEvidence(first.query, { limit: first.limit, server: first.server })]
      : view.searchManyWithEvidence(queries.map(({ query, limit }) => (limit === undefined ? { query } : { query, limit })));
    emit({ kind: 'search', toolCallId, via, searches: queries.map((request, index) => ({ request, answer: answers[index] })) });
    return answers;
  };
  return {
    search: (queries, single, toolCallId, via) => searchWithEvidence(queries, single, toolCallId, via).map((answer) => answer.hits),
    searchWithEvidence,
    servers(query, toolCallId, via, page = {}) {
      const map = view.servers({
        query,
        offset: page.offset,
        maxBytes: page.maxBytes ?? SERVER_MAP_PAGE_BYTES,
        maxServers: page.maxServers,
        leaveOut: page.leaveOut,
        starting: options.starting?.(),
        offsetKey: SERVERS_OFFSET_ARG,
      });
      emit({ kind: 'browse', fields: { toolCallId, via, servers: map.servers.length, omitted: map.omitted, ...(map.next ? { nextServersOffset: map.next.servers_offset } : {}) } });
      return map;
    },
    browse(server, options, toolCallId, via) {
      const browsed = view.browse(server, options);
      emit({ kind: 'browse', fields: { toolCallId, via, server: server.slice(0, 200), found: browsed.found, ...(browsed.found ? { tools: browsed.tools.length } : {}) } });
      return browsed;
    },
    explain: (query, limit) => view.explain(query, limit === undefined ? {} : { limit }),
    describe(idOrName, toolCallId, via) {
      const answer = view.describe(idOrName);
      emit({ kind: 'describe', toolCallId, via, target: idOrName, answer });
      return answer;
    },
  };
}
