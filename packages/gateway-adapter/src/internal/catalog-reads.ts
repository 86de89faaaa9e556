// Searches and describes of one session, counted and logged the same way from every route (tool_search,
// tool_describe, tools.search / tools.describe inside code, and `session.search` for a framework's own tool search).
import type { BrowseOptions, BrowseResult, CatalogView, DescribeResult, SearchAnswer, SearchExplanation, SearchHit, ServerMap } from '@tool-search/catalog';
import type { TOOL_DESCRIBE, TOOL_SEARCH } from '@tool-search/modes';
import { gatewayInstruments } from '../otel/gateway-instruments.js';
import { recordDescribe, recordSearch, type OpenTelemetryOptions } from '../otel/gateway-spans.js';
import type { SessionEvent, TelemetryRecorder } from './telemetry-recorder.js';

/**
 * The server map's byte budget on every route (tools, code, native, browse). Larger than the catalog's default:
 * a weak tools-mode answer keeps only its first guesses' ids (see `WEAK_GUESSES`), so the map gets their bytes
 * and names more of each server's tools (catalog/bench/RESULTS.md, "Weak evidence: the map budget").
 */
export const SERVER_MAP_BYTES = 8_192;

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
  /** The server map of the session's view, the tools nearest `query` first within each server. */
  servers(query: string | undefined, toolCallId: string | undefined, via: ReadRoute): ServerMap;
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
  return {
    search: (queries, single, toolCallId, via) => searchWithEvidence(queries, single, toolCallId, via).map((answer) => answer.hits),
    searchWithEvidence,
    servers(query, toolCallId, via) {
      const map = view.servers({ maxBytes: SERVER_MAP_BYTES, query });
      event('browse', { toolCallId, via, servers: map.servers.length, omitted: map.omitted });
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
