import type { CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, LoggingLevel, Transport } from '@modelcontextprotocol/client';
import type { Logger } from 'pino';
import type { EraVerdictCache } from './create-era-verdict-cache.js';
import type { McpFailureKind, McpLogEntry, McpRoot, McpToolDefinition } from './mcp-server-connection.js';
import type { OAuthTokenStore } from './oauth-token-store.js';

/** Answers a server's `elicitation/create`; the default declines. */
export type McpElicitationHandler = (request: ElicitRequestParams, context: McpServerRequestContext) => Promise<ElicitResult>;
/** Answers a server's `sampling/createMessage`; the default refuses with a readable error. */
export type McpSamplingHandler = (request: CreateMessageRequestParams, context: McpServerRequestContext) => Promise<CreateMessageResult>;

/** Where a server's question comes from, for the handlers that answer it. */
export interface McpServerRequestContext {
  /** The server's name. */
  server: string;
  /** Aborted when the server no longer needs the answer (its call was cancelled or ended). */
  signal: AbortSignal;
  /**
   * The server's own key for the question when it came as one of the `inputRequests` of a 2026-07-28
   * `input_required` result (for example `user_name`); absent for a 2025-era server's request.
   */
  inputKey?: string | undefined;
  /**
   * True when the question is answered within the async context of the tool call that caused it (the rounds of a
   * 2026-07-28 call, which the gateway drives in the caller's context), so a handler may tell from that context whose
   * call it is. Absent for a 2025-era server's own request, which arrives on the shared connection outside every call.
   */
  withinCall?: boolean | undefined;
}

/** OAuth for HTTP servers whose config has `oauth`. */
export interface McpOAuthOptions {
  /** Where tokens, the registered client and discovery results are kept (see `createFileTokenStore`). */
  store: OAuthTokenStore;
  /**
   * Called when the user must authorize in a browser: open `authorizationUrl`, resolve with the redirect's query
   * (`new URL(callback).searchParams`: its `code`, and its `iss`, which the SDK checks against the authorization
   * server, RFC 9207; preferred) or the bare `code`, or `undefined` to give up. Without it such a server is
   * `unauthorized`. An authorization server that says it sends `iss` refuses a bare code.
   */
  authorize?: ((request: { server: string; authorizationUrl: URL }) => Promise<URLSearchParams | string | undefined>) | undefined;
  /** The redirect URL registered for the client when the server config does not name one. */
  redirectUrl?: string | undefined;
}

/** Options for `connectMcpServer`. */
export interface ConnectMcpServerOptions {
  logger?: Logger | undefined;
  /** Timeout of every MCP request (connect, list, and calls unless the server config sets `timeoutMs`). Default 30,000 ms. */
  requestTimeoutMs?: number | undefined;
  /**
   * How long the `server/discover` era probe waits on stdio before reading silence as a 2025-era server (capped by
   * `requestTimeoutMs`). A 2026-07-28-only server slower to start than this fails its first start and is probed again
   * on the next one. Default 5,000 ms; raise it for servers that start slowly (a first `npx` download, a loaded machine).
   */
  stdioEraProbeTimeoutMs?: number | undefined;
  /** Aborts connecting: the start fails at once and the child or transport is closed (a host closing while a server starts). */
  signal?: AbortSignal | undefined;
  /** Called after a `notifications/tools/list_changed` re-list, with what changed (among offered tools). */
  onToolsChanged?: ((change: { added: McpToolDefinition[]; removed: string[] }) => void) | undefined;
  /**
   * Called once when a connected server goes away: it exits or closes (stdio), its HTTP session ends or it stops
   * answering (a request fails below JSON-RPC and one `ping` right after fails the same way), or its token
   * cannot be renewed. Not called for a failed start (the returned connection says so) nor for `close()`.
   * Replace the connection with a fresh `connectMcpServer` to restart.
   */
  onUnavailable?: ((reason: string, kind: McpFailureKind) => void) | undefined;
  /** Called on `notifications/resources/list_changed` and `notifications/prompts/list_changed`. */
  onListChanged?: ((kind: 'resources' | 'prompts') => void) | undefined;
  /** Roots offered to the server. Default: none (the roots capability is not declared). */
  roots?: McpRoot[] | undefined;
  /** Answers elicitation requests. Default: decline. */
  onElicitation?: McpElicitationHandler | undefined;
  /** Answers sampling requests. Default: refuse with an error naming the server. */
  onSampling?: McpSamplingHandler | undefined;
  /** Receives the server's log notifications at or above `logLevel`. Default: they go to `logger` (debug/info/warn/error). */
  onLog?: ((entry: McpLogEntry) => void) | undefined;
  /** The lowest server log level delivered (and asked of the server with `logging/setLevel`). Default `info`. */
  logLevel?: LoggingLevel | undefined;
  /** OAuth for HTTP servers whose config has `oauth` (ignored otherwise). */
  oauth?: McpOAuthOptions | undefined;
  /** How the client introduces itself. Default `{ name: 'tool-search-gateway', version: '0.0.0' }`. */
  clientInfo?: { name: string; version: string } | undefined;
  /**
   * The server's era as an earlier connection found it (see `createEraVerdictCache`): a fresh verdict skips the
   * `server/discover` probe, a probing connect stores what it found, a failed start forgets it. Default: none (every
   * connect probes).
   */
  eraVerdicts?: EraVerdictCache | undefined;
  /** The server's transport, already started (a stdio server spawned ahead, see `spawnStdioServersAhead`), used instead of a new one. */
  startedTransport?: Transport | undefined;
}
