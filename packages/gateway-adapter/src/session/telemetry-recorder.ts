// The telemetry of one session: counts, every final call, the last surface rendered, and the summary line.
import type { ToolSource } from '@tool-search/catalog';
import type { SessionLog } from '../create-session-log.js';
import type { ToolSearchModeDecision } from '../decide-tool-search-mode.js';
import type { CallRoute, FinalCallRecord, SurfaceTelemetry, Telemetry } from '../telemetry.js';
import type { ToolCallOutcome } from '../tool-call-outcome.js';

/** Writes one session-log event (a no-op without a session log). */
export type SessionEvent = SessionLog['write'];

export interface TelemetryRecorder {
  readonly counts: Telemetry['counts'];
  /** Records a final (real) call and writes its `call` event. */
  recordCall(record: FinalCallRecord, fields: { decision: string; repair?: string | undefined }): void;
  /** Records an error answered without running anything (`not-run`). */
  recordError(): void;
  recordSurface(surface: SurfaceTelemetry): void;
  telemetry(): Telemetry;
  /** Writes the `session.summary` event. */
  writeSummary(): void;
}

/** Creates the recorder; `catalog` reads the session's catalog figures when telemetry is asked for. */
export function createTelemetryRecorder(options: {
  sessionId: string;
  decision: ToolSearchModeDecision;
  directReason: string | undefined;
  event: SessionEvent;
  catalog: () => Telemetry['catalog'];
}): TelemetryRecorder {
  const counts: Telemetry['counts'] = { searches: 0, describes: 0, calls: 0, codeRuns: 0, hydrations: 0, nativeLoads: 0, blocked: 0, errors: 0 };
  const finalCalls: FinalCallRecord[] = [];
  let surface: SurfaceTelemetry | undefined;

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

  return {
    counts,
    recordCall(record, fields) {
      counts.calls += 1;
      if (record.status === 'blocked') counts.blocked += 1;
      if (record.status === 'error') counts.errors += 1;
      finalCalls.push(record);
      options.event('call', {
        toolCallId: record.toolCallId,
        via: record.via,
        toolId: record.toolId,
        source: record.source,
        decision: fields.decision,
        status: record.status,
        ...(record.detail === undefined ? {} : { detail: record.detail }),
        ...(fields.repair === undefined ? {} : { repair: fields.repair }),
        durationMs: record.durationMs,
      });
    },
    recordError() {
      counts.errors += 1;
    },
    recordSurface(rendered) {
      surface = rendered;
    },
    telemetry,
    writeSummary() {
      const summary = telemetry();
      options.event('session.summary', {
        mode: summary.mode,
        requestedMode: summary.requestedMode,
        ...(summary.fallbackReason === undefined ? {} : { fallbackReason: summary.fallbackReason }),
        catalogSize: summary.catalog.size,
        // Zero when no surface was ever rendered: nothing reached the model up front.
        schemasUpFront: summary.surface?.schemasUpFront ?? 0,
        surfaceRendered: summary.surface !== undefined,
        counts: summary.counts,
        finalCalls: summary.calls.map((call) => ({ toolId: call.toolId, source: call.source, via: call.via, status: call.status })),
      });
    },
  };
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
