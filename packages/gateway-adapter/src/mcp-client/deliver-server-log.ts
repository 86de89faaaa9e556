// A server's `notifications/message`: kept at or above the connection's level, capped and redacted, then handed
// to the host's `onLog` or, without one, written to the connection's logger.
import type { LoggingLevel } from '@modelcontextprotocol/client';
import { MCP_LOG_LEVELS } from './mcp-log-levels.js';
import type { McpLogEntry } from './mcp-server-connection.js';
import type { McpConnectionCore } from './mcp-connection-core.js';

const LOG_MESSAGE_MAX_CHARS = 2_000;
const LOG_LEVELS: readonly LoggingLevel[] = MCP_LOG_LEVELS;
/** How a server log level maps onto pino when no `onLog` is given. */
const PINO_LEVEL_OF: Record<LoggingLevel, 'debug' | 'info' | 'warn' | 'error'> = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
};

/** The parts of a connection a log notification needs. */
export type ServerLogParts = Pick<McpConnectionCore, 'config' | 'options' | 'log' | 'logLevel' | 'redact'>;

/** Delivers one log notification of the server. */
export function deliverServerLog(core: ServerLogParts, params: { level: LoggingLevel; logger?: string | undefined; data?: unknown }): void {
  if (LOG_LEVELS.indexOf(params.level) < LOG_LEVELS.indexOf(core.logLevel)) return;
  const text = typeof params.data === 'string' ? params.data : JSON.stringify(params.data ?? null) ?? 'null';
  const entry: McpLogEntry = { server: core.config.name, level: params.level, message: core.redact(text.slice(0, LOG_MESSAGE_MAX_CHARS)) };
  if (params.logger !== undefined) entry.logger = params.logger.slice(0, 200);
  if (core.options.onLog) core.options.onLog(entry);
  else core.log[PINO_LEVEL_OF[params.level]]({ level: params.level, logger: entry.logger, message: entry.message }, 'mcp server log');
}
