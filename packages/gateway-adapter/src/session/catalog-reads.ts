// Searches and describes of one session, counted and logged the same way from every route (tool_search,
// tool_describe, tools.search / tools.describe inside code, and `session.search` for a framework's own tool search).
import type { BrowseOptions, BrowseResult, CatalogView, DescribeResult, SearchAnswer, SearchExplanation, SearchHit, StartingOwner } from '@tool-search/catalog';
import { SERVER_MAP_PAGE_BYTES, SERVERS_OFFSET_ARG, type ServerMapPage, type ServerMapRequest, type TOOL_DESCRIBE, type TOOL_SEARCH } from '@tool-search/modes';
import { gatewayInstruments } from '../otel/gateway-instruments.js';
import { recordDescribe, recordSearch, type OpenTelemetryOptions } from '../otel/gateway-spans.js';
import type { SessionEvent, TelemetryRecorder } from './telemetry-recorder.js';

/** Where a read came from. */
export type ReadRoute = typeof TOOL_SEARCH | typeof TOOL_DESCRIBE | 'code' | 'native' | 'session';

/** One search: a query, its limit, and (a single search only) the `<source>:<owner>` it stays within. */
export interface SearchRequest {
  query: string;
  limit?: number | undefined;
  server?: string | undefined;
}

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
  /** Records a final call to `toolId`: its rank in the last search, and that it was called (see `close`). */
  called(toolId: string): void;
  /** Counts the tools described in the session and never called (`tool_search.describes.uncalled`). */
  close(): void;
}

export function createCatalogReads(options: {
  view: CatalogView;
  recorder: TelemetryRecorder;
  event: SessionEvent;
  openTelemetry: OpenTelemetryOptions;
  /** MCP servers still making their first connection that the session's policy may see (the map marks them `starting`). */
  starting?: (() => readonly StartingOwner[]) | undefined;
}): CatalogReads {
  const { view, recorder, event } = options;
  /** The hit ids of the session's last search, and the tools it described and called. */
  let lastHits: string[] = [];
  const described = new Set<string>();
  const calledIds = new Set<string>();
  const searchWithEvidence: CatalogReads['searchWithEvidence'] = (queries, single, toolCallId, via) => {
    const first = queries[0];
    const answers = single && first
      ? [view.searchWithEvidence(first.query, { limit: first.limit, server: first.server })]
      : view.searchManyWithEvidence(queries.map(({ query, limit }) => (limit === undefined ? { query } : { query, limit })));
    recorder.counts.searches += queries.length;
    queries.forEach((query, index) => {
      const answer = answers[index];
      event('search', {
        toolCallId,
        via,
        query: query.query.slice(0, 500),
        server: query.server,
        hitIds: (answer?.hits ?? []).map((hit) => hit.id),
        ...(answer?.evidence === 'weak' ? { evidence: 'weak' } : {}),
      });
      const hits = answer?.hits ?? [];
      recordSearch({ query: query.query, via, hits: hits.length, topScore: hits[0]?.score, weak: answer?.evidence === 'weak', server: query.server }, options.openTelemetry);
    });
    lastHits = answers.flatMap((answer) => answer.hits.map((hit) => hit.id));
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
      event('browse', { toolCallId, via, servers: map.servers.length, omitted: map.omitted, ...(map.next ? { nextServersOffset: map.next.servers_offset } : {}) });
      return map;
    },
    browse(server, options, toolCallId, via) {
      const browsed = view.browse(server, options);
      event('browse', { toolCallId, via, server: server.slice(0, 200), found: browsed.found, ...(browsed.found ? { tools: browsed.tools.length } : {}) });
      return browsed;
    },
    explain: (query, limit) => view.explain(query, limit === undefined ? {} : { limit }),
    describe(idOrName, toolCallId, via) {
      recorder.counts.describes += 1;
      const answer = view.describe(idOrName);
      event('describe', { toolCallId, via, target: idOrName.slice(0, 300), found: answer.found, ...(answer.found ? { toolId: answer.tool.id } : {}) });
      recordDescribe({ target: idOrName, found: answer.found, toolId: answer.found ? answer.tool.id : undefined, via });
      if (answer.found) described.add(answer.tool.id);
      return answer;
    },
    called(toolId) {
      calledIds.add(toolId);
      if (lastHits.length > 0) gatewayInstruments().calledRank.record(lastHits.indexOf(toolId) + 1);
    },
    close() {
      const uncalled = [...described].filter((id) => !calledIds.has(id)).length;
      if (uncalled > 0) gatewayInstruments().uncalledDescribes.add(uncalled);
    },
  };
}
