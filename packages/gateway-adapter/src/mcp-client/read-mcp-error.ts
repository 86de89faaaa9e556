// How the connection reads a rejected request: which errors mean "not authorized", "out of time", or "gone".
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';

/** An OAuth failure, or an HTTP 401 from a server the connection has no OAuth for. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof UnauthorizedError || (error instanceof StreamableHTTPError && error.code === 401);
}

/** True for the SDK's "maximum total timeout exceeded" (its data carries `maxTotalTimeout`). */
export function isTotalTimeout(error: McpError): boolean {
  return typeof error.data === 'object' && error.data !== null && 'maxTotalTimeout' in error.data;
}

/** The message of anything thrown. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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
  if (error instanceof StreamableHTTPError && error.code === 404) return `MCP server "${server}" ended the session (HTTP 404)`;
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0) return `MCP server "${server}" answered HTTP ${error.code}`;
  // fetch() rejects with "fetch failed"; the socket-level reason (e.g. "connect ECONNREFUSED …") is its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return `MCP server "${server}" is unreachable: ${(cause ?? errorText(error)).slice(0, 200)}`;
}
