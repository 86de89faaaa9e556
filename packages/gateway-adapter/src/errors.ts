// The one error class of @tool-search/gateway-adapter. Expected outcomes (a blocked call, a missing tool, a
// server that went away) are values (`ToolCallOutcome`); this class is for broken contracts: bad config,
// bad options, a plugin that cannot be loaded, a session used after close.
import { createErrorGuard, readErrorBrand, ToolSearchErrorBase } from '@tool-search/error-base';

/** The closed set of codes a `GatewayAdapterError` carries. */
export type GatewayAdapterErrorCode =
  | 'invalid_config'
  | 'invalid_options'
  | 'plugin_load_failed'
  | 'session_closed';

/**
 * Thrown by `resolveToolSearchConfig`, `createToolSearchSession` and the plugin loader on broken contracts. `path`
 * is where in the input the problem is (`toolSearch.mode`, `sources.plugins[1]`), when known.
 */
export class GatewayAdapterError extends ToolSearchErrorBase<GatewayAdapterErrorCode> {
  constructor(code: GatewayAdapterErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super('GatewayAdapterError', code, message, options);
  }
}

/** True when `value` is a `GatewayAdapterError`, across package copies (brand check, not `instanceof`). */
export const isGatewayAdapterError = createErrorGuard<GatewayAdapterError>('GatewayAdapterError');

/**
 * What every Tool Search error class has in common (`CatalogError`, `PolicyError`, `SandboxRunnerError`,
 * `ModesError`, `GatewayAdapterError`, `McpServerError`, `AiSdkError`, `OpenAIAgentsError`): a `name` that is
 * the class name, a `code` from that class's closed union, and a `path` (`tools[3].inputSchema.type`) when the
 * problem is at one place in the input.
 */
export interface ToolSearchError extends Error {
  readonly name: string;
  readonly code: string;
  readonly path: string | undefined;
}

/** True for an error of any Tool Search package, from any copy of it (the shared `Symbol.for` brand). */
export function isToolSearchError(value: unknown): value is ToolSearchError {
  const brand = readErrorBrand(value);
  return brand !== undefined && brand === (value as { name?: unknown }).name;
}
