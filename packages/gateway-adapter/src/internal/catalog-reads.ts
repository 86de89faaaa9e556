// Searches and describes of one session, counted and logged the same way from every route (tool_search,
// tool_describe, tools.search / tools.describe inside code, and `session.search` for a framework's own tool search).
import type { CatalogView, DescribeResult, SearchHit } from '@tool-search/catalog';
import type { TOOL_DESCRIBE, TOOL_SEARCH } from '@tool-search/modes';
import type { SessionEvent, TelemetryRecorder } from './telemetry-recorder.js';

/** Where a read came from. */
export type ReadRoute = typeof TOOL_SEARCH | typeof TOOL_DESCRIBE | 'code' | 'native' | 'session';

export interface CatalogReads {
  /** One query (`single`) or up to 16; throws `CatalogError` on a bad query or limit. */
  search(queries: Array<{ query: string; limit?: number }>, single: boolean, toolCallId: string | undefined, via: ReadRoute): SearchHit[][];
  describe(idOrName: string, toolCallId: string, via: ReadRoute): DescribeResult;
}

export function createCatalogReads(options: { view: CatalogView; recorder: TelemetryRecorder; event: SessionEvent }): CatalogReads {
  const { view, recorder, event } = options;
  return {
    search(queries, single, toolCallId, via) {
      const first = queries[0];
      const results = single && first ? [view.search(first.query, first.limit === undefined ? {} : { limit: first.limit })] : view.searchMany(queries);
      recorder.counts.searches += queries.length;
      queries.forEach((query, index) =>
        event('search', { ...(toolCallId === undefined ? {} : { toolCallId }), via, query: query.query.slice(0, 500), hitIds: (results[index] ?? []).map((hit) => hit.id) }),
      );
      return results;
    },
    describe(idOrName, toolCallId, via) {
      recorder.counts.describes += 1;
      const described = view.describe(idOrName);
      event('describe', { toolCallId, via, target: idOrName.slice(0, 300), found: described.found, ...(described.found ? { toolId: described.tool.id } : {}) });
      return described;
    },
  };
}
