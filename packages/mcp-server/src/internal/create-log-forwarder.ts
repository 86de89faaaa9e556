// Upstream log messages to the 2025-era client: the session log's `mcp.log` events (which arrive while a call to
// that server is in flight) as `notifications/message`, at or above the level the client set (`logging/setLevel`),
// on the stream of the call in flight, else on the session's own.
import type { LoggingLevel, Server, ServerContext } from '@modelcontextprotocol/server';
import { MCP_LOG_LEVELS } from '@tool-search/gateway-adapter';

const LEVELS: readonly LoggingLevel[] = MCP_LOG_LEVELS;

/** See `createLogForwarder`. */
export interface LogForwarder {
  /** The server whose session stream takes the messages sent outside any call. */
  attach(server: Server): void;
  /** The client's `logging/setLevel`. */
  setLevel(level: LoggingLevel): void;
  /** Marks a call in flight (its messages go on its stream); call the returned function when it ends. */
  enter(ctx: ServerContext): () => void;
  /** Forwards one `mcp.log` event's fields. */
  deliver(fields: Record<string, unknown>): void;
}

export function createLogForwarder(): LogForwarder {
  let server: Server | undefined;
  let level: LoggingLevel | undefined;
  const calls: ServerContext[] = [];
  return {
    attach(attached) {
      server = attached;
    },
    setLevel(next) {
      level = next;
    },
    enter(ctx) {
      calls.push(ctx);
      return () => {
        const index = calls.indexOf(ctx);
        if (index !== -1) calls.splice(index, 1);
      };
    },
    deliver(fields) {
      const entryLevel = LEVELS.find((known) => known === fields['level']);
      if (entryLevel === undefined || (level !== undefined && LEVELS.indexOf(entryLevel) < LEVELS.indexOf(level))) return;
      const params = { level: entryLevel, logger: typeof fields['logger'] === 'string' ? fields['logger'] : String(fields['server']), data: fields['message'] };
      const call = calls[calls.length - 1];
      const sent = call !== undefined ? call.mcpReq.notify({ method: 'notifications/message', params }) : server?.notification({ method: 'notifications/message', params });
      void sent?.catch(() => undefined);
    },
  };
}
