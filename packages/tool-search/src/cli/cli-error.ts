// The one error class of the `tool-search` command. Each code is an exit status (see `exit-codes.ts`); the
// command's entry turns every error into a message on stderr and that status, in one place.
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** The closed set of codes a `CliError` carries. */
export type CliErrorCode =
  /** A command line that cannot be run: unknown command or flag, missing or malformed value. */
  | 'usage'
  /** The config file is missing, unreadable, not JSON5, or invalid (the message names the path). */
  | 'config'
  /** Something the command needed is not available: an MCP server that did not start (doctor). */
  | 'unavailable'
  /** A file or port could not be used (exists without --force, not writable, port in use). */
  | 'io';

/**
 * Thrown by the command's parts on what stops a command (see the codes). `path` is where in the config the
 * problem is (`mcpServers.github.env`), when known.
 */
export class CliError extends ToolSearchErrorBase<CliErrorCode> {
  constructor(code: CliErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super('CliError', code, message, options);
  }
}

/** True when `value` is a `CliError` (brand check, not `instanceof`). */
export const isCliError = createErrorGuard<CliError>('CliError');
