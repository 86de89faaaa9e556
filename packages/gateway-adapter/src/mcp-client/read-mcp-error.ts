// How the connection reads a rejected request: which errors mean "not authorized", "out of time", or "gone".
import { SdkError, SdkErrorCode, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';

/** An OAuth failure, or an HTTP 401 from a server the connection has no OAuth for. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof UnauthorizedError || (error instanceof SdkHttpError && error.status === 401);
}

/** True for the SDK's "maximum total timeout exceeded" (its data carries `maxTotalTimeout`). */
export function isTotalTimeout(error: { data?: unknown }): boolean {
  return typeof error.data === 'object' && error.data !== null && 'maxTotalTimeout' in error.data;
}

/** The message of anything thrown. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why a server did not start, in a user's words: a command that is not there, or a server that closed the
 * connection before answering, rather than the Node or SDK error (whose text names transport internals).
 */
export function describeStartFailure(error: unknown): string {
  const spawnError = error as NodeJS.ErrnoException & { path?: string };
  if (typeof spawnError.syscall === 'string' && spawnError.syscall.startsWith('spawn')) {
    const command = spawnError.path ?? spawnError.syscall.slice('spawn '.length);
    if (spawnError.code === 'ENOENT') return `the command "${command}" was not found (not installed, or not on the PATH tool-search runs with)`;
    if (spawnError.code === 'EACCES') return `the command "${command}" cannot be run (not executable)`;
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed && /connection closed/.test(error.message)) {
    return 'the server closed the connection before it answered (it exited as it started)';
  }
  return errorText(error);
}

/** ajv errors as one short line (schema text from a server included, so it is capped). */
export function describeAjvErrors(errors: { instancePath: string; message?: string }[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 5)
    .map((error) => `${error.instancePath === '' ? 'value' : error.instancePath} ${error.message ?? 'is invalid'}`)
    .join('; ')
    .slice(0, 1_000);
}

/** Why an HTTP MCP server counts as gone, from the error of the request that confirmed it (no payloads). */
export function describeHttpFailure(server: string, error: unknown): string {
  if (error instanceof SdkHttpError && error.status === 404) return `MCP server "${server}" ended the session (HTTP 404)`;
  if (error instanceof SdkHttpError && error.status !== undefined && error.status > 0) return `MCP server "${server}" answered HTTP ${error.status}`;
  // fetch() rejects with "fetch failed"; the socket-level reason (e.g. "connect ECONNREFUSED …") is its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return `MCP server "${server}" is unreachable: ${(cause ?? errorText(error)).slice(0, 200)}`;
}
