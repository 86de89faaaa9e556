import type { SessionLog, SessionLogEvent } from '../create-session-log.js';

/** A recorded session-log line: the event and its fields. */
export type RecordedLogLine = { event: SessionLogEvent } & Record<string, unknown>;

/** A session log that keeps its events in memory, so a test can read them or wait for the session to see a change. */
export function recordingSessionLog(): SessionLog & { lines: RecordedLogLine[] } {
  const lines: RecordedLogLine[] = [];
  return { lines, write: (event, fields) => lines.push({ event, ...fields }), flush: () => undefined };
}
