// The one error class of @tool-search/gateway-adapter. Expected outcomes (a blocked call, a missing tool, a
// server that went away) are values (`ToolCallOutcome`); this class is for broken contracts: bad config,
// bad options, a plugin that cannot be loaded, a session used after close.

const GATEWAY_ADAPTER_ERROR = Symbol.for('@tool-search/gateway-adapter/error');

/** The closed set of codes a `GatewayAdapterError` carries. */
export type GatewayAdapterErrorCode =
  | 'invalid_config'
  | 'invalid_options'
  | 'plugin_load_failed'
  | 'session_closed';

/** Thrown by `resolveToolSearchConfig`, `createToolSearchSession` and the plugin loader on broken contracts. */
export class GatewayAdapterError extends Error {
  readonly code: GatewayAdapterErrorCode;
  /** Where in the input the problem is (`toolSearch.mode`, `sources.plugins[1]`), when known. */
  readonly path: string | undefined;
  readonly [GATEWAY_ADAPTER_ERROR] = true;

  constructor(code: GatewayAdapterErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayAdapterError';
    this.code = code;
    this.path = options?.path;
  }
}

/** True when `value` is a `GatewayAdapterError`, across package copies (brand check, not `instanceof`). */
export function isGatewayAdapterError(value: unknown): value is GatewayAdapterError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[GATEWAY_ADAPTER_ERROR] === true;
}
