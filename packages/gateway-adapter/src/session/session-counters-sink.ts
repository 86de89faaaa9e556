// The session's own counters (what `session.telemetry()` answers): counts, every final call, the last surface.
import type { ToolSource } from '@tool-search/catalog';
import type { ToolSearchModeDecision } from '../decide-tool-search-mode.js';
import type { CallRoute, FinalCallRecord, SurfaceTelemetry, Telemetry } from '../telemetry.js';
import type { ToolCallOutcome } from '../tool-call-outcome.js';
import { ignore, ignoreLoggedOnly, type SessionEventSink } from './session-event.js';

/** The counters sink, and the session's telemetry read from it. */
export interface SessionCounters {
  readonly sink: SessionEventSink;
  telemetry(): Telemetry;
}

/** Creates the counters; `catalog` reads the session's catalog figures when telemetry is asked for. */
export function createSessionCounters(options: {
  sessionId: string;
  decision: ToolSearchModeDecision;
  directReason: string | undefined;
  catalog: () => Telemetry['catalog'];
}): SessionCounters {
  const counts: Telemetry['counts'] = { searches: 0, describes: 0, calls: 0, codeRuns: 0, hydrations: 0, nativeLoads: 0, blocked: 0, errors: 0 };
  const finalCalls: FinalCallRecord[] = [];
  let surface: SurfaceTelemetry | undefined;
  const sink: SessionEventSink = {
    ...ignoreLoggedOnly(),
    search: ({ searches }) => {
      counts.searches += searches.length;
    },
    describe: () => {
      counts.describes += 1;
    },
    'call.start': ignore,
    call: ({ record }) => {
      counts.calls += 1;
      if (record.status === 'blocked') counts.blocked += 1;
      if (record.status === 'error') counts.errors += 1;
      finalCalls.push(record);
    },
    'call.not_run': () => {
      counts.errors += 1;
    },
    error: () => {
      counts.errors += 1;
    },
    hydration: () => {
      counts.hydrations += 1;
    },
    'native.load': ({ loadedIds }) => {
      counts.nativeLoads += loadedIds.length;
    },
    'code.start': () => {
      counts.codeRuns += 1;
    },
    surface: ({ rendered }) => {
      surface = rendered;
    },
    'session.end': ignore,
  };
  const telemetry = (): Telemetry => {
    const value: Telemetry = {
      sessionId: options.sessionId,
      mode: options.decision.mode,
      requestedMode: options.decision.requestedMode,
      catalog: options.catalog(),
      counts: { ...counts },
      calls: finalCalls.map((call) => ({ ...call })),
    };
    if (options.decision.fallbackReason !== undefined) value.fallbackReason = options.decision.fallbackReason;
    if (options.directReason !== undefined) value.directReason = options.directReason;
    if (options.decision.autoReason !== undefined) value.autoReason = options.decision.autoReason;
    if (surface) value.surface = { ...surface };
    return value;
  };
  return { sink, telemetry };
}

/** The final-call record of an outcome. */
export function finalCallRecord(outcome: ToolCallOutcome, meta: { toolId: string; source: ToolSource; via: CallRoute }): FinalCallRecord {
  const record: FinalCallRecord = {
    toolCallId: outcome.toolCallId,
    toolId: meta.toolId,
    source: meta.source,
    via: meta.via,
    status: outcome.status,
    durationMs: outcome.durationMs,
  };
  if (outcome.status === 'error') record.detail = outcome.code;
  if (outcome.status === 'blocked') record.detail = outcome.by;
  return record;
}
