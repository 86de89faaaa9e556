// OpenTelemetry's reading of each session event: the search and describe spans, and the gateway's instruments
// (calls by outcome, searches, called rank, surface size, described and never called). The spans that wrap work
// as it runs (`execute_tool`, the code run, MCP requests) are opened where the work runs; they record no metric.
import { gatewayInstruments } from '../otel/gateway-instruments.js';
import { callOutcomeKind, recordDescribe, recordSearch, type OpenTelemetryOptions } from '../otel/gateway-spans.js';
import { ignore, ignoreLoggedOnly, type SessionEventSink } from './session-event.js';

/** The OpenTelemetry sink of one session (it keeps the last search's hits and what was described and called). */
export function createSessionOtelSink(options: OpenTelemetryOptions): SessionEventSink {
  /** The hit ids of the session's last search, and the tools it described and called. */
  let lastHits: string[] = [];
  const described = new Set<string>();
  const calledIds = new Set<string>();
  return {
    ...ignoreLoggedOnly(),
    search: ({ via, searches }) => {
      for (const { request, answer } of searches) {
        const hits = answer?.hits ?? [];
        recordSearch({ query: request.query, via, hits: hits.length, topScore: hits[0]?.score, weak: answer?.evidence === 'weak', server: request.server }, options);
      }
      lastHits = searches.flatMap(({ answer }) => (answer?.hits ?? []).map((hit) => hit.id));
    },
    describe: ({ via, target, answer }) => {
      recordDescribe({ target, found: answer.found, toolId: answer.found ? answer.tool.id : undefined, via });
      if (answer.found) described.add(answer.tool.id);
    },
    'call.start': ({ toolId }) => {
      calledIds.add(toolId);
      if (lastHits.length > 0) gatewayInstruments().calledRank.record(lastHits.indexOf(toolId) + 1);
    },
    call: ({ record, outcome }) => {
      gatewayInstruments().calls.add(1, { 'tool_search.call.outcome': callOutcomeKind(outcome), 'tool_search.call.via': record.via, 'tool_search.tool.source': record.source });
    },
    'call.not_run': ignore,
    error: ignore,
    hydration: ignore,
    'native.load': ignore,
    'code.start': ignore,
    surface: ({ mode, rendered }) => {
      gatewayInstruments().surfaceBytes.record(rendered.totalBytes, { 'tool_search.mode': mode, 'tool_search.surface.format': rendered.format });
    },
    'session.end': () => {
      const uncalled = [...described].filter((id) => !calledIds.has(id)).length;
      if (uncalled > 0) gatewayInstruments().uncalledDescribes.add(uncalled);
    },
  };
}
