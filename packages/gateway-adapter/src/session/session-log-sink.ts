// The session log's reading of each session event: the line it writes (field names and clipping as the log
// format has them), or none.
import type { SessionLog } from '../create-session-log.js';
import { ignore, LOGGED_ONLY_KINDS, type LoggedOnlyKind, type SessionEventOf, type SessionEventSink } from './session-event.js';

/** Writes one session-log line (a no-op without a session log). */
export type SessionLogWrite = SessionLog['write'];

/** The sink that writes the session log. */
export function createSessionLogSink(write: SessionLogWrite): SessionEventSink {
  const loggedOnly = Object.fromEntries(LOGGED_ONLY_KINDS.map((kind) => [kind, (event: SessionEventOf<LoggedOnlyKind>) => write(kind, event.fields)])) as {
    [K in LoggedOnlyKind]: (event: SessionEventOf<K>) => void;
  };
  return {
    ...loggedOnly,
    search: ({ toolCallId, via, searches }) => {
      for (const { request, answer } of searches) {
        write('search', {
          toolCallId,
          via,
          query: request.query.slice(0, 500),
          server: request.server,
          hitIds: (answer?.hits ?? []).map((hit) => hit.id),
          ...(answer?.evidence === 'weak' ? { evidence: 'weak' } : {}),
        });
      }
    },
    describe: ({ toolCallId, via, target, answer }) =>
      write('describe', { toolCallId, via, target: target.slice(0, 300), found: answer.found, ...(answer.found ? { toolId: answer.tool.id } : {}) }),
    'call.start': ignore,
    call: ({ record, decision, repair }) =>
      write('call', {
        toolCallId: record.toolCallId,
        via: record.via,
        toolId: record.toolId,
        source: record.source,
        decision,
        status: record.status,
        ...(record.detail === undefined ? {} : { detail: record.detail }),
        ...(repair === undefined ? {} : { repair }),
        durationMs: record.durationMs,
      }),
    'call.not_run': ({ toolCallId, via, target, outcome }) =>
      write('call', { toolCallId, via, target: target.slice(0, 300), decision: 'not-run', status: 'error', detail: outcome.code, durationMs: outcome.durationMs }),
    error: ignore,
    hydration: ({ toolCallId, name, toolId }) => write('hydration', { toolCallId, name, toolId }),
    'native.load': ({ toolCallId, format, loadedIds, unknownIds }) =>
      write('native.load', { toolCallId, format, loadedIds, ...(unknownIds.length > 0 ? { unknownIds } : {}) }),
    'code.start': ignore,
    surface: ({ mode, rendered }) => write('surface', { mode, ...rendered }),
    'session.end': ({ summary }) =>
      write('session.summary', {
        mode: summary.mode,
        requestedMode: summary.requestedMode,
        ...(summary.fallbackReason === undefined ? {} : { fallbackReason: summary.fallbackReason }),
        catalogSize: summary.catalog.size,
        // Zero when no surface was ever rendered: nothing reached the model up front.
        schemasUpFront: summary.surface?.schemasUpFront ?? 0,
        surfaceRendered: summary.surface !== undefined,
        counts: summary.counts,
        finalCalls: summary.calls.map((call) => ({ toolId: call.toolId, source: call.source, via: call.via, status: call.status })),
      }),
  };
}
