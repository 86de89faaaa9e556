// The one error class of the `tool-search` command. Each code is an exit status (see `exit-codes.ts`); the
// command's entry turns every error into a message on stderr and that status, in one place.

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package, its value the class
 * name. A guard reads it instead of `instanceof`, so an error from another copy of the package is recognised.
 */
const TOOL_SEARCH_ERROR = Symbol.for('tool-search.error');

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

export class CliError extends Error {
  readonly code: CliErrorCode;
  /** Where in the config the problem is (`mcpServers.github.env`), when known. */
  readonly path: string | undefined;

  constructor(code: CliErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.code = code;
    this.path = options?.path;
    Object.defineProperty(this, TOOL_SEARCH_ERROR, { value: 'CliError' });
  }
}

/** True when `value` is a `CliError` (brand check, not `instanceof`). */
export function isCliError(value: unknown): value is CliError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR] === 'CliError';
}
