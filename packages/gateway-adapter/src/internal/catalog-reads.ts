// Searches and describes of one session, counted and logged the same way from every route (tool_search,
// tool_describe, tools.search / tools.describe inside code, and `session.search` for a framework's own tool search).
import type { BrowseOptions, BrowseResult, CatalogView, DescribeResult, SearchAnswer, SearchExplanation, SearchHit } from '@tool-search/catalog';
import { renderServerMapPage, SERVER_MAP_PAGE_BYTES, type ServerMapInput, type ServerMapPage, type TOOL_DESCRIBE, type TOOL_SEARCH } from '@tool-search/modes';
import { gatewayInstruments } from '../otel/gateway-instruments.js';
import { recordDescribe, recordSearch, type OpenTelemetryOptions } from '../otel/gateway-spans.js';
import type { SessionEvent, TelemetryRecorder } from './telemetry-recorder.js';

/** The map read whole (every server, every tool name) before modes ranks and pages it. */
const WHOLE_MAP_BYTES = Number.MAX_SAFE_INTEGER;

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
   * One page of the server map of the session's view: servers ranked by relevance to `query` (by size without
   * one), the tools nearest `query` first within each server; `offset` is the page's first server.
   */
  servers(query: string | undefined, toolCallId: string | undefined, via: ReadRoute, page?: { offset?: number | undefined; maxBytes?: number | undefined }): ServerMapPage;
  /** What a map is cut from: every server with all its tool names, and the servers of the query's best hits. */
  mapInput(query: string | undefined): ServerMapInput;
  /** Logs a map page rendered from `mapInput` (as `servers` logs its own). */
  mapped(page: ServerMapPage, toolCallId: string | undefined, via: ReadRoute): void;
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

export function createCatalogReads(options: { view: CatalogView; recorder: TelemetryRecorder; event: SessionEvent; openTelemetry: OpenTelemetryOptions }): CatalogReads {
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
  const mapInput = (query: string | undefined): ServerMapInput => {
    const wanted = blankToUndefined(query);
    const whole = view.servers({ maxBytes: WHOLE_MAP_BYTES, query: wanted });
    const hitServers = wanted === undefined ? [] : view.search(wanted, { limit: view.limits.maxSearchLimit }).map((hit) => `${hit.source}:${hit.owner}`);
    return { servers: whole.servers, hitServers };
  };
  const mapped = (page: ServerMapPage, toolCallId: string | undefined, via: ReadRoute) => {
    event('browse', { toolCallId, via, servers: page.servers.length, omitted: page.omitted, ...(page.next ? { nextServersOffset: page.next.servers_offset } : {}) });
  };
  return {
    search: (queries, single, toolCallId, via) => searchWithEvidence(queries, single, toolCallId, via).map((answer) => answer.hits),
    searchWithEvidence,
    servers(query, toolCallId, via, page = {}) {
      const map = renderServerMapPage(mapInput(query), { query: blankToUndefined(query), offset: page.offset, maxBytes: page.maxBytes ?? SERVER_MAP_PAGE_BYTES });
      mapped(map, toolCallId, via);
      return map;
    },
    mapInput,
    mapped,
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

/** A query of only whitespace ranks nothing: read as none. */
function blankToUndefined(query: string | undefined): string | undefined {
  return query === undefined || query.trim() === '' ? undefined : query;
}
