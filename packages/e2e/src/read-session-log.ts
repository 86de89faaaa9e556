// Reads a gateway-adapter session log (JSON lines) and answers the questions the proof asks of it.
import { readFile } from 'node:fs/promises';

/** One session-log line (the fields the proof reads; the rest are kept). */
export interface SessionLogLine {
  event: string;
  [field: string]: unknown;
}

/** What a session log says about one run. */
export interface SessionLogSummary {
  /** The session's mode (`session.start`). */
  mode: string | undefined;
  requestedMode: string | undefined;
  /** The mode of the first surface rendered (native mode renders tools mode on OpenAI Chat). */
  surfaceMode: string | undefined;
  /** Why the session, or its first surface, renders another mode than the one asked for. */
  fallbackReason: string | undefined;
  /** Catalog tools whose full schema the model saw up front (first surface rendered). */
  schemasUpFront: number | undefined;
  searches: number;
  describes: number;
  /** Final (real) tool calls. */
  calls: number;
  codeRuns: number;
  hydrations: number;
  /** Native mode: the provider's tool searches the session answered (`search` lines via `native`). */
  nativeSearches: number;
  /** Native mode: the catalog ids those answers loaded (`native.load` lines), in order. */
  nativeLoadedIds: string[];
  /** Searches, describes and calls made from code through the sandbox bridge (from the search/describe/call lines). */
  bridge: { searches: number; describes: number; calls: number };
  /** The sandbox runner's own bridge counts of the first code run (`code.run` → `stats.calls`). */
  codeRunBridgeCalls: Record<string, number> | undefined;
  /** The counts of the `session.summary` line written at close (undefined when the session was not closed). */
  summaryCounts: Record<string, number> | undefined;
  /** The last final call that succeeded, else the last final call. */
  finalCall: { toolId: string; source: string; via: string; status: string } | undefined;
  lines: SessionLogLine[];
}

/** Parses JSON-lines text into lines (blank lines skipped). */
export function parseSessionLog(text: string): SessionLogLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SessionLogLine);
}

/** Summarises session-log lines: mode, counts, bridge activity and the final call. */
export function summarizeSessionLog(lines: SessionLogLine[]): SessionLogSummary {
  const of = (event: string) => lines.filter((line) => line.event === event);
  const viaCode = (line: SessionLogLine) => line.via === 'code';
  const start = of('session.start')[0];
  const fallback = of('fallback')[0];
  const surface = of('surface')[0];
  const calls = of('call');
  const okCalls = calls.filter((line) => line.status === 'ok');
  const final = okCalls.at(-1) ?? calls.at(-1);
  return {
    mode: typeof start?.mode === 'string' ? start.mode : undefined,
    requestedMode: typeof start?.requestedMode === 'string' ? start.requestedMode : undefined,
    surfaceMode: typeof surface?.mode === 'string' ? surface.mode : undefined,
    fallbackReason: typeof fallback?.reason === 'string' ? fallback.reason : typeof surface?.fallbackReason === 'string' ? surface.fallbackReason : undefined,
    schemasUpFront: typeof surface?.schemasUpFront === 'number' ? surface.schemasUpFront : undefined,
    searches: of('search').length,
    describes: of('describe').length,
    calls: calls.length,
    codeRuns: of('code.run').length,
    hydrations: of('hydration').length,
    nativeSearches: of('search').filter((line) => line.via === 'native').length,
    nativeLoadedIds: of('native.load').flatMap((line) => (Array.isArray(line.loadedIds) ? line.loadedIds.map(String) : [])),
    bridge: {
      searches: of('search').filter(viaCode).length,
      describes: of('describe').filter(viaCode).length,
      calls: calls.filter(viaCode).length,
    },
    codeRunBridgeCalls: (() => {
      const stats = of('code.run')[0]?.stats as { calls?: Record<string, number> } | undefined;
      return stats?.calls;
    })(),
    summaryCounts: of('session.summary')[0]?.counts as Record<string, number> | undefined,
    finalCall: final
      ? { toolId: String(final.toolId ?? final.target), source: String(final.source), via: String(final.via), status: String(final.status) }
      : undefined,
    lines,
  };
}

/** Reads and summarises one session-log file. */
export async function readSessionLog(path: string): Promise<SessionLogSummary> {
  return summarizeSessionLog(parseSessionLog(await readFile(path, 'utf8')));
}
