// What happens in a session, as one typed event per happening. A session emits each event once
// (`createSessionEmitter`); its sinks (the session log, the session's counters, OpenTelemetry) each decide what
// the event means for them, so a new event is one new kind here and one handler per sink, checked by the compiler.
import type { DescribeResult, SearchAnswer } from '@tool-search/catalog';
import type { TOOL_DESCRIBE, TOOL_SEARCH } from '@tool-search/modes';
import type { FinalCallRecord, SurfaceTelemetry, Telemetry } from '../telemetry.js';
import type { ToolCallOutcome } from '../tool-call-outcome.js';

/** Where a read came from. */
export type ReadRoute = typeof TOOL_SEARCH | typeof TOOL_DESCRIBE | 'code' | 'native' | 'session';

/** One search: a query, its limit, and (a single search only) the `<source>:<owner>` it stays within. */
export interface SearchRequest {
  query: string;
  limit?: number | undefined;
  server?: string | undefined;
}

/** Events only the session log records: their fields are the log line's, as written. */
export const LOGGED_ONLY_KINDS = [
  'browse',
  'native.unload',
  'code.run',
  'fallback',
  'likely',
  'progress',
  'session.start',
  'mcp.log',
  'mcp.unavailable',
  'mcp.available',
  'mcp.tools_changed',
] as const;
export type LoggedOnlyKind = (typeof LOGGED_ONLY_KINDS)[number];

/** One session event. */
export type SessionEvent =
  /** One `tool_search` (or `tools.search`, native or framework search): its queries and what each answered. */
  | { kind: 'search'; toolCallId: string | undefined; via: ReadRoute; searches: ReadonlyArray<{ request: SearchRequest; answer: SearchAnswer | undefined }> }
  | { kind: 'describe'; toolCallId: string; via: ReadRoute; target: string; answer: DescribeResult }
  /** A final call is about to run (the called-rank metric reads the session's last search). */
  | { kind: 'call.start'; toolId: string }
  /** A final call's outcome: every call the pipeline decided, run or not. */
  | { kind: 'call'; record: FinalCallRecord; outcome: ToolCallOutcome; decision: string; repair?: string | undefined }
  /** A call named no tool it could reach and ran nothing (logged as a `call` with decision `not-run`). */
  | { kind: 'call.not_run'; toolCallId: string; via: string; target: string; outcome: ToolCallOutcome & { status: 'error' } }
  /** An error answered without running anything and without a log line of its own (bad arguments, a failed code run). */
  | { kind: 'error' }
  | { kind: 'hydration'; toolCallId: string; name: string; toolId: string }
  | { kind: 'native.load'; toolCallId: string; format: string; loadedIds: readonly string[]; unknownIds: readonly string[] }
  | { kind: 'code.start' }
  | { kind: 'surface'; mode: string; rendered: SurfaceTelemetry }
  /** The session closed: its telemetry as it ends. */
  | { kind: 'session.end'; summary: Telemetry }
  | { kind: LoggedOnlyKind; fields: Record<string, unknown> };

export type SessionEventKind = SessionEvent['kind'];

/** Every kind, once (the record makes the compiler name a kind left out). */
const KINDS: Record<SessionEventKind, true> = {
  search: true,
  describe: true,
  'call.start': true,
  call: true,
  'call.not_run': true,
  error: true,
  hydration: true,
  'native.load': true,
  'code.start': true,
  surface: true,
  'session.end': true,
  ...(Object.fromEntries(LOGGED_ONLY_KINDS.map((kind) => [kind, true])) as Record<LoggedOnlyKind, true>),
};
export const SESSION_EVENT_KINDS = Object.keys(KINDS) as SessionEventKind[];

/** The event of one kind. */
export type SessionEventOf<K extends SessionEventKind> = Extract<SessionEvent, { kind: K }> extends never
  ? { kind: K; fields: Record<string, unknown> }
  : Extract<SessionEvent, { kind: K }>;

/** A sink: one handler per kind (a kind that means nothing to the sink says so with `ignore`). */
export type SessionEventSink = { readonly [K in SessionEventKind]: (event: SessionEventOf<K>) => void };

/** Emits one event to every sink of the session. */
export type SessionEmit = (event: SessionEvent) => void;

/** The handler of a kind a sink has nothing to do with. */
export function ignore(): void {}

/** The handlers of the logged-only kinds, for a sink other than the log: each `ignore`. */
export function ignoreLoggedOnly(): { readonly [K in LoggedOnlyKind]: (event: SessionEventOf<K>) => void } {
  return Object.fromEntries(LOGGED_ONLY_KINDS.map((kind) => [kind, ignore])) as unknown as { readonly [K in LoggedOnlyKind]: (event: SessionEventOf<K>) => void };
}
