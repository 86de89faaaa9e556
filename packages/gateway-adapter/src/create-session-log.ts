import pino, { type DestinationStream, type Logger } from 'pino';

/** Session-log event names (the `event` field of every line). */
export type SessionLogEvent =
  | 'session.start'
  | 'fallback'
  | 'surface'
  | 'search'
  | 'browse'
  | 'describe'
  | 'call'
  | 'hydration'
  | 'likely'
  | 'native.load'
  | 'native.unload'
  | 'progress'
  | 'code.run'
  | 'mcp.unavailable'
  | 'mcp.available'
  | 'mcp.log'
  | 'mcp.tools_changed'
  | 'session.summary';

/** Writes one JSON line per session event. */
export interface SessionLog {
  write(event: SessionLogEvent, fields: Record<string, unknown>): void;
  /** Flushes pending lines (file destinations are synchronous; this is for custom streams). */
  flush(): void;
}

/** Where a session log goes: a file path the host chooses, or any pino destination stream. */
export type SessionLogTarget = { path: string } | { destination: DestinationStream };

/**
 * Creates a session log: pino JSON lines (`{ time, sessionId, event, ... }`) appended to a file (created
 * with its folders) or written to a stream. Lines never carry tool arguments or results, only ids, counts,
 * statuses and timings.
 */
export function createSessionLog(target: SessionLogTarget, options: { sessionId: string }): SessionLog {
  const destination = 'path' in target ? pino.destination({ dest: target.path, sync: true, mkdir: true, append: true }) : target.destination;
  const logger: Logger = pino(
    { level: 'info', base: { sessionId: options.sessionId }, messageKey: 'msg', timestamp: pino.stdTimeFunctions.isoTime },
    destination,
  );
  return {
    write(event, fields) {
      logger.info({ event, ...fields }, event);
    },
    flush() {
      logger.flush();
    },
  };
}
