import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  ListToolsResultSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type LoggingLevel,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { createPolicy, type Policy } from '@tool-search/policy';
import pino, { type Logger } from 'pino';
import { admitListedTools } from './internal/admit-listed-tools.js';
import { callToolAsTask } from './internal/call-tool-as-task.js';
import { createBoundedSchemaCompiler, type BoundedSchemaCompiler } from './internal/create-bounded-schema-compiler.js';
import { createOAuthProvider, type McpOAuthProvider } from './internal/create-oauth-provider.js';
import { createSdkTransport } from './internal/create-sdk-transport.js';
import { createStderrTail, type StderrTail } from './internal/create-stderr-tail.js';
import { linkAbortSignal } from './internal/link-abort-signal.js';
import { listAllPages } from './internal/list-all-pages.js';
import { listDescendantPids } from './internal/list-descendant-pids.js';
import { createSecretRedactor } from './internal/redact-secrets.js';
import { pickPrompt, pickResource, pickResourceTemplate } from './internal/pick-listed-items.js';
import { describeAjvErrors, describeHttpFailure, errorText, isTotalTimeout, isUnauthorized } from './internal/read-mcp-error.js';
import { simplifyCallResult, toContentParts, toResourcePart } from './internal/to-content-parts.js';
import type {
  McpCallFailureCode,
  McpCallResult,
  McpFailureKind,
  McpLogEntry,
  McpProgress,
  McpRoot,
  McpServerConnection,
  McpServerFeatures,
  McpServerStatus,
  McpToolDefinition,
  McpWithheldTool,
} from './mcp-server-connection.js';
import type { OAuthTokenStore } from './oauth-token-store.js';
import type { McpServerConfig } from './schemas.js';

// The connection's contract lives in mcp-server-connection.ts; it is re-exported here, where it is made.
export type {
  McpCallFailureCode,
  McpCallOptions,
  McpCallResult,
  McpCompleteResult,
  McpFailureKind,
  McpGetPromptResult,
  McpListResult,
  McpLogEntry,
  McpProgress,
  McpPrompt,
  McpReadResourceResult,
  McpResource,
  McpResourceTemplate,
  McpRoot,
  McpServerConnection,
  McpServerFeatures,
  McpServerStatus,
  McpToolAnnotations,
  McpToolDefinition,
  McpWithheldTool,
} from './mcp-server-connection.js';

/** Answers a server's `elicitation/create`; the default declines. */
export type McpElicitationHandler = (request: ElicitRequestParams, context: { server: string; signal: AbortSignal }) => Promise<ElicitResult>;
/** Answers a server's `sampling/createMessage`; the default refuses with a readable error. */
export type McpSamplingHandler = (request: CreateMessageRequestParams, context: { server: string; signal: AbortSignal }) => Promise<CreateMessageResult>;

/** OAuth for HTTP servers whose config has `oauth`. */
export interface McpOAuthOptions {
  /** Where tokens, the registered client and discovery results are kept (see `createFileTokenStore`). */
  store: OAuthTokenStore;
  /**
   * Called when the user must authorize in a browser: open `authorizationUrl`, resolve with the `code` the
   * redirect brought back, or `undefined` to give up. Without it such a server is `unauthorized`.
   */
  authorize?: (request: { server: string; authorizationUrl: URL }) => Promise<string | undefined>;
  /** The redirect URL registered for the client when the server config does not name one. */
  redirectUrl?: string;
}

/** Options for `connectMcpServer`. */
export interface ConnectMcpServerOptions {
  logger?: Logger;
  /** Timeout of every MCP request (connect, list, and calls unless the server config sets `timeoutMs`). Default 30,000 ms. */
  requestTimeoutMs?: number;
  /** Aborts connecting: the start fails at once and the child or transport is closed (a host closing while a server starts). */
  signal?: AbortSignal;
  /** Called after a `notifications/tools/list_changed` re-list, with what changed (among offered tools). */
  onToolsChanged?: (change: { added: McpToolDefinition[]; removed: string[] }) => void;
  /**
   * Called once when a connected server goes away: it exits or closes (stdio), its HTTP session ends or it stops
   * answering (a request fails below JSON-RPC and one `ping` right after fails the same way), or its token
   * cannot be renewed. Not called for a failed start (the returned connection says so) nor for `close()`.
   * Replace the connection with a fresh `connectMcpServer` to restart.
   */
  onUnavailable?: (reason: string, kind: McpFailureKind) => void;
  /** Called on `notifications/resources/list_changed` and `notifications/prompts/list_changed`. */
  onListChanged?: (kind: 'resources' | 'prompts') => void;
  /** Roots offered to the server. Default: none (the roots capability is not declared). */
  roots?: McpRoot[];
  /** Answers elicitation requests. Default: decline. */
  onElicitation?: McpElicitationHandler;
  /** Answers sampling requests. Default: refuse with an error naming the server. */
  onSampling?: McpSamplingHandler;
  /** Receives the server's log notifications at or above `logLevel`. Default: they go to `logger` (debug/info/warn/error). */
  onLog?: (entry: McpLogEntry) => void;
  /** The lowest server log level delivered (and asked of the server with `logging/setLevel`). Default `info`. */
  logLevel?: LoggingLevel;
  /** OAuth for HTTP servers whose config has `oauth` (ignored otherwise). */
  oauth?: McpOAuthOptions;
  /** How the client introduces itself. Default `{ name: 'tool-search-gateway', version: '0.0.0' }`. */
  clientInfo?: { name: string; version: string };
}

/** Default ceiling of one call however much progress it reports. */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Ceiling of the `ping` that decides whether an HTTP server that failed a request is still there. */
const PROBE_TIMEOUT_MS = 5_000;
const LOG_MESSAGE_MAX_CHARS = 2_000;
const STDERR_LINES = 20;
const STDERR_BYTES = 2_048;
const LOG_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
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
/** The one log line per transition, by what the connection became. */
const TRANSITION_LOG: Record<McpFailureKind, { level: 'info' | 'warn'; message: string }> = {
  start_failed: { level: 'warn', message: 'mcp server failed to start' },
  exited: { level: 'warn', message: 'mcp server unavailable' },
  unreachable: { level: 'warn', message: 'mcp server unavailable' },
  unauthorized: { level: 'warn', message: 'mcp server needs authorization' },
  closed: { level: 'info', message: 'mcp server closed' },
};
/** Marks the reason of our own total-time abort, so it is told apart from the caller's. */
const TOTAL_TIMEOUT = Symbol('total-timeout');

/**
 * Connects to one MCP server (stdio child, Streamable HTTP, or legacy SSE), lists its tools across every page and
 * keeps the list current on `notifications/tools/list_changed`. A server that fails to start comes back
 * `unavailable` (or `unauthorized`) with the reason rather than throwing.
 */
export async function connectMcpServer(config: McpServerConfig, options: ConnectMcpServerOptions = {}): Promise<McpServerConnection> {
  const log = (options.logger ?? pino({ level: 'silent' })).child({ component: 'mcp', server: config.name });
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const logLevel = options.logLevel ?? 'info';
  const secrets = [
    ...Object.values(config.transport === 'stdio' ? (config.env ?? {}) : (config.headers ?? {})),
    ...('oauth' in config && typeof config.oauth === 'object' && config.oauth.clientSecret !== undefined ? [config.oauth.clientSecret] : []),
  ];
  const redact = createSecretRedactor(secrets);
  const stderr: StderrTail = createStderrTail({ maxLines: STDERR_LINES, maxBytes: STDERR_BYTES, redact });
  const compiler: BoundedSchemaCompiler = createBoundedSchemaCompiler();
  const filter: Policy | undefined =
    config.include === undefined && config.exclude === undefined
      ? undefined
      : createPolicy({ ...(config.include === undefined ? {} : { allow: config.include }), ...(config.exclude === undefined ? {} : { deny: config.exclude }) });
  const oauthConfig = config.transport !== 'stdio' && config.oauth !== undefined ? (config.oauth === true ? {} : config.oauth) : undefined;
  const oauthProvider: McpOAuthProvider | undefined =
    oauthConfig !== undefined && options.oauth !== undefined && config.transport !== 'stdio'
      ? createOAuthProvider({
          server: config.name,
          serverUrl: config.url,
          config: oauthConfig,
          store: options.oauth.store,
          ...(options.oauth.redirectUrl === undefined ? {} : { redirectUrl: options.oauth.redirectUrl }),
        })
      : undefined;
  let roots = options.roots ?? [];

  let status: McpServerStatus = 'connected';
  let failure: string | undefined;
  let failureKind: McpFailureKind | undefined;
  let started = false;
  let closedByUs = false;
  let current = new Map<string, McpToolDefinition>();
  let withheld: McpWithheldTool[] = [];
  let pid: number | undefined;

  const capabilities: ClientCapabilities = {
    elicitation: { form: options.onElicitation === undefined ? {} : { applyDefaults: true } },
    sampling: {},
    ...(options.roots === undefined ? {} : { roots: { listChanged: true } }),
  };
  // The SDK compiles output schemas only through this validator (never for tools we list ourselves), bounded.
  const sdkValidator: jsonSchemaValidator = {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      const compiled = compiler.compile(schema);
      return (input: unknown) => {
        if (!compiled.ok || compiled.validate(input)) return { valid: true, data: input as T, errorMessage: undefined };
        return { valid: false, data: undefined, errorMessage: describeAjvErrors(compiled.validate.errors) };
      };
    },
  };

  const becomeUnavailable = (kind: McpFailureKind, reason: string): void => {
    if (status !== 'connected') return;
    status = kind === 'unauthorized' ? 'unauthorized' : 'unavailable';
    failure = reason;
    failureKind = kind;
    current = new Map();
    const line = TRANSITION_LOG[kind];
    log[line.level]({ reason, kind }, line.message);
    if (started && kind !== 'closed' && !closedByUs) options.onUnavailable?.(reason, kind);
  };
  const withStderr = (reason: string): string => {
    const lines = stderr.lines();
    return lines.length === 0 ? reason : `${reason}. Last stderr lines:\n${lines.join('\n')}`;
  };

  let client: Client = createClient();
  let transport: Transport = createTransport();

  function createClient(): Client {
    const created = new Client(options.clientInfo ?? { name: 'tool-search-gateway', version: '0.0.0' }, { capabilities, jsonSchemaValidator: sdkValidator });
    created.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      if (options.onElicitation) return options.onElicitation(request.params, { server: config.name, signal: extra.signal });
      log.info({ mode: request.params.mode ?? 'form' }, 'mcp elicitation declined (no handler)');
      return { action: 'decline' };
    });
    created.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      if (options.onSampling) return options.onSampling(request.params, { server: config.name, signal: extra.signal });
      throw new McpError(-1, `Sampling is not available: the gateway does not let MCP server "${config.name}" ask its model for completions`);
    });
    if (options.roots !== undefined) created.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
    created.setNotificationHandler(ToolListChangedNotificationSchema, () => scheduleRelist());
    created.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => deliverLog(notification.params));
    created.setNotificationHandler(ResourceListChangedNotificationSchema, () => options.onListChanged?.('resources'));
    created.setNotificationHandler(PromptListChangedNotificationSchema, () => options.onListChanged?.('prompts'));
    created.onclose = () => {
      pid = undefined;
      // While connecting, a close is reported by the failed connect itself (as "failed to start"). The reason of
      // an exit stays short and stable; what the process printed last is in `stderrTail()`.
      if (started && created === client) becomeUnavailable(closedByUs ? 'closed' : 'exited', `MCP server "${config.name}" exited or closed its connection`);
    };
    created.onerror = (error) => {
      log.debug({ err: redact(error.message) }, 'mcp transport error');
      if (created === client) void confirmHttpServerAlive();
    };
    return created;
  }

  function createTransport(): Transport {
    const created = createSdkTransport(config, oauthProvider);
    deliverInOrder(created);
    if (created instanceof StdioClientTransport) {
      // Drain the server's stderr (an undrained pipe would block it) into the bounded tail and debug logs.
      created.stderr?.on('data', (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        stderr.push(text);
        log.debug({ stderr: redact(text.slice(0, 2_000)) }, 'mcp server stderr');
      });
    }
    return created;
  }

  function deliverLog(params: { level: LoggingLevel; logger?: string | undefined; data?: unknown }): void {
    if (LOG_LEVELS.indexOf(params.level) < LOG_LEVELS.indexOf(logLevel)) return;
    const text = typeof params.data === 'string' ? params.data : JSON.stringify(params.data ?? null) ?? 'null';
    const entry: McpLogEntry = { server: config.name, level: params.level, message: redact(text.slice(0, LOG_MESSAGE_MAX_CHARS)) };
    if (params.logger !== undefined) entry.logger = params.logger.slice(0, 200);
    if (options.onLog) options.onLog(entry);
    else log[PINO_LEVEL_OF[params.level]]({ level: params.level, logger: entry.logger, message: entry.message }, 'mcp server log');
  }

  // Over HTTP nothing closes when the server dies or forgets the session: requests fail (fetch errors, HTTP
  // 404) and streams drop, each reported through `onerror` or a rejected request. Any such failure is checked
  // with one `ping`; if that fails below JSON-RPC too, the server is unavailable and the client is closed, which
  // also fails every request still waiting for an answer. A JSON-RPC answer (even an error) or a ping timeout
  // means the server is still there.
  let probing: Promise<void> | undefined;
  function confirmHttpServerAlive(): Promise<void> {
    if (config.transport === 'stdio' || !started || status !== 'connected' || closedByUs) return Promise.resolve();
    probing ??= client
      .ping({ timeout: Math.min(requestTimeoutMs, PROBE_TIMEOUT_MS) })
      .then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof McpError || status !== 'connected' || closedByUs) return;
          if (isUnauthorized(error)) becomeUnavailable('unauthorized', unauthorizedReason(oauthProvider === undefined ? unauthorizedHint() : undefined));
          else becomeUnavailable('unreachable', describeHttpFailure(config.name, error));
          void client.close().catch(() => undefined);
        },
      )
      .finally(() => {
        probing = undefined;
      });
    return probing;
  }

  const listTools = async () => {
    // A server that offers only resources or prompts has no tools to list.
    if (!features().tools) return { offered: new Map<string, McpToolDefinition>(), withheld: [] };
    const tools = await listAllPages(async (cursor) => {
      const page = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, ListToolsResultSchema, {
        timeout: requestTimeoutMs,
        ...(started || options.signal === undefined ? {} : { signal: options.signal }),
      });
      return { items: page.tools, nextCursor: page.nextCursor };
    });
    return admitListedTools(tools, { server: config.name, filter, tasksSupported: features().toolTasks });
  };

  // Re-lists are serialised: a burst of notifications yields one consistent diff each.
  let refreshing: Promise<void> = Promise.resolve();
  function scheduleRelist(): Promise<void> {
    refreshing = refreshing.then(async () => {
      // Before the first full list, that list is what counts; after a close there is nothing to update.
      if (!started || status !== 'connected') return;
      try {
        const next = await listTools();
        const added: McpToolDefinition[] = [];
        const removed: string[] = [];
        for (const [name, definition] of current) {
          const replacement = next.offered.get(name);
          if (replacement === undefined || JSON.stringify(replacement) !== JSON.stringify(definition)) removed.push(name);
        }
        for (const [name, definition] of next.offered) {
          const previous = current.get(name);
          if (previous === undefined || JSON.stringify(previous) !== JSON.stringify(definition)) added.push(definition);
        }
        if (status !== 'connected') return;
        current = next.offered;
        withheld = next.withheld;
        log.info({ added: added.length, removed: removed.length }, 'mcp tool list changed');
        if (added.length > 0 || removed.length > 0) options.onToolsChanged?.({ added, removed });
      } catch (error) {
        log.warn({ err: redact(errorText(error)) }, 'mcp re-list failed');
      }
    });
    return refreshing;
  }

  function features(): McpServerFeatures {
    const server: ServerCapabilities = client.getServerCapabilities() ?? {};
    return {
      tools: server.tools !== undefined,
      resources: server.resources !== undefined,
      prompts: server.prompts !== undefined,
      completions: server.completions !== undefined,
      logging: server.logging !== undefined,
      toolTasks: server.tasks?.requests?.tools?.call !== undefined,
    };
  }

  const unauthorizedHint = (): string =>
    oauthConfig === undefined ? 'the server config has no "oauth"' : 'no OAuth store was given';
  const unauthorizedReason = (detail?: string): string =>
    `MCP server "${config.name}" needs OAuth authorization and no valid token could be had${detail === undefined ? '' : ` (${detail})`}`;

  /** Runs `authorize` for a pending authorization URL and exchanges the code; false when there is none or no code. */
  const completeAuthorization = async (target: Transport): Promise<boolean> => {
    const authorizationUrl = oauthProvider?.takeAuthorizationUrl();
    if (authorizationUrl === undefined || options.oauth?.authorize === undefined) return false;
    const code = await options.oauth.authorize({ server: config.name, authorizationUrl });
    if (code === undefined) return false;
    await (target as StreamableHTTPClientTransport).finishAuth(code);
    return true;
  };

  // ---- start ------------------------------------------------------------------------------------------
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await client.connect(transport, { timeout: requestTimeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) });
        break;
      } catch (error) {
        if (!(error instanceof UnauthorizedError) || attempt > 0 || !(await completeAuthorization(transport))) throw error;
        // The code is exchanged; a new client and transport start over with the token.
        await client.close().catch(() => undefined);
        client = createClient();
        transport = createTransport();
      }
    }
    if (transport instanceof StdioClientTransport) pid = transport.pid ?? undefined;
    // A server may let `initialize` through and ask for a token on the first real request.
    const listed = await listTools().catch(async (error: unknown) => {
      if (!(error instanceof UnauthorizedError) || !(await completeAuthorization(transport))) throw error;
      return listTools();
    });
    current = listed.offered;
    withheld = listed.withheld;
    if (features().logging) await client.setLoggingLevel(logLevel, { timeout: requestTimeoutMs }).catch(() => undefined);
    started = true;
    log.info({ tools: current.size, withheld: withheld.length }, 'mcp server connected');
  } catch (error) {
    // The stderr of a process that died is read to its end before the reason quotes it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (isUnauthorized(error)) becomeUnavailable('unauthorized', unauthorizedReason(oauthProvider === undefined ? unauthorizedHint() : undefined));
    else becomeUnavailable('start_failed', withStderr(`MCP server "${config.name}" failed to start: ${redact(errorText(error))}`));
    closedByUs = true;
    await stopClient();
  }

  async function stopClient(): Promise<void> {
    const descendants = pid === undefined ? [] : listDescendantPids(pid);
    await client.close().catch(() => undefined);
    // A wrapper (`npx`, `sh -c`) may leave the real server behind: what is still running is stopped.
    for (const child of descendants) {
      try {
        process.kill(child, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    pid = undefined;
  }

  const notConnected = (): { ok: false; code: McpCallFailureCode; message: string } => ({
    ok: false,
    code: status === 'unauthorized' ? 'unauthorized' : 'unavailable',
    message: failure ?? `MCP server "${config.name}" is unavailable`,
  });

  /** Turns a rejected request into a failure value (and checks an HTTP server that failed below JSON-RPC). */
  const classifyFailure = async (
    error: unknown,
    what: string,
    context: { callerSignal: AbortSignal | undefined; ownSignal: AbortSignal; idleMs: number; totalMs: number },
  ): Promise<{ ok: false; code: McpCallFailureCode; message: string }> => {
    const own = context.ownSignal.reason as unknown;
    if (context.callerSignal?.aborted) {
      const reason = context.callerSignal.reason as unknown;
      const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
      return timedOut
        ? { ok: false, code: 'timeout', message: `MCP server "${config.name}" did not finish ${what} before the caller's deadline` }
        : { ok: false, code: 'cancelled', message: `${what} on MCP server "${config.name}" was cancelled` };
    }
    if (own === TOTAL_TIMEOUT || (error instanceof McpError && error.code === ErrorCode.RequestTimeout && isTotalTimeout(error))) {
      return { ok: false, code: 'timeout', message: `MCP server "${config.name}" did not finish ${what} within the maximum of ${context.totalMs} ms` };
    }
    if (isUnauthorized(error)) {
      becomeUnavailable('unauthorized', unauthorizedReason(oauthProvider === undefined ? unauthorizedHint() : undefined));
      return notConnected();
    }
    // A failure below JSON-RPC (not a server's error answer) may mean the server is gone.
    if (status === 'connected' && !(error instanceof McpError)) await confirmHttpServerAlive();
    if (status !== 'connected') {
      const during = what.startsWith('tools/call') ? 'the call' : what;
      return { ok: false, code: notConnected().code, message: `MCP server "${config.name}" became unavailable during ${during}: ${failure ?? redact(errorText(error))}` };
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return { ok: false, code: 'timeout', message: `MCP server "${config.name}" did not answer ${what} within ${context.idleMs} ms` };
    }
    return { ok: false, code: 'failed', message: `MCP server "${config.name}" failed ${what}: ${redact(errorText(error)).slice(0, 2_000)}` };
  };

  /** Runs one request with a per-call signal, an idle and a total timeout; retries once after an interactive authorization. */
  const request = async <T>(
    what: string,
    run: (requestOptions: RequestOptions) => Promise<T>,
    callOptions: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined; maxTotalTimeoutMs?: number | undefined; onProgress?: ((progress: McpProgress) => void) | undefined },
  ): Promise<{ ok: true; value: T } | { ok: false; code: McpCallFailureCode; message: string }> => {
    if (status !== 'connected') return notConnected();
    const totalMs = callOptions.maxTotalTimeoutMs ?? config.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS;
    const idleMs = Math.min(callOptions.timeoutMs ?? config.timeoutMs ?? requestTimeoutMs, totalMs);
    for (let attempt = 0; ; attempt += 1) {
      const { controller, dispose } = linkAbortSignal(callOptions.signal);
      const deadline = setTimeout(() => controller.abort(TOTAL_TIMEOUT), totalMs);
      // The SDK may keep a task's progress handler after the call; it then holds nothing of the caller.
      const progressTarget = { callback: callOptions.onProgress };
      try {
        const value = await run({
          signal: controller.signal,
          timeout: idleMs,
          maxTotalTimeout: totalMs,
          resetTimeoutOnProgress: true,
          // Always asked for: a progress token is what lets a long call's progress keep it alive.
          onprogress: (progress: McpProgress) => progressTarget.callback?.(progress),
        });
        return { ok: true, value };
      } catch (error) {
        if (error instanceof UnauthorizedError && attempt === 0 && !controller.signal.aborted && (await completeAuthorization(transport).catch(() => false))) continue;
        return await classifyFailure(error, what, { callerSignal: callOptions.signal, ownSignal: controller.signal, idleMs, totalMs });
      } finally {
        progressTarget.callback = undefined;
        clearTimeout(deadline);
        dispose();
      }
    }
  };

  const toCallResult = (result: CallToolResult, name: string, taskId: string | undefined): McpCallResult => {
    const parts = toContentParts(result.content);
    const structured = result.structuredContent;
    const outputSchema = current.get(name)?.outputSchema;
    if (config.trusted === true && outputSchema !== undefined && structured !== undefined && result.isError !== true) {
      const compiled = compiler.compile(outputSchema);
      if (compiled.ok && !compiled.validate(structured)) {
        return { ok: false, code: 'invalid_output', message: `MCP server "${config.name}" returned structured content for ${name} that does not match its output schema: ${describeAjvErrors(compiled.validate.errors)}` };
      }
    }
    const out: McpCallResult = { ok: true, parts, isError: result.isError === true, result: simplifyCallResult(parts, structured) };
    if (structured !== undefined) out.structured = structured;
    if (taskId !== undefined) out.taskId = taskId;
    return out;
  };

  const ensure = (feature: keyof McpServerFeatures, what: string): { ok: false; code: 'unsupported'; message: string } | undefined =>
    status === 'connected' && !features()[feature] ? { ok: false, code: 'unsupported', message: `MCP server "${config.name}" does not offer ${what}` } : undefined;

  return {
    name: config.name,
    config,
    get status() {
      return status;
    },
    get failure() {
      return failure;
    },
    get failureKind() {
      return failureKind;
    },
    get instructions() {
      return status === 'connected' || started ? client.getInstructions() : undefined;
    },
    get serverInfo() {
      const info = client.getServerVersion();
      return info === undefined ? undefined : { name: info.name, version: info.version, ...(info.title === undefined ? {} : { title: info.title }) };
    },
    get features() {
      return features();
    },
    get pid() {
      return pid;
    },
    stderrTail: () => stderr.lines(),
    tools: () => [...current.values()],
    withheldTools: () => withheld.map((tool) => ({ ...tool })),
    async callTool(name, args, callOptions = {}) {
      if (status !== 'connected') return notConnected();
      const refused = withheld.find((tool) => tool.name === name);
      if (refused !== undefined) return { ok: false, code: 'failed', message: `Tool ${name} of MCP server "${config.name}" is not offered (${refused.reason})` };
      const definition = current.get(name);
      const asTask = definition?.taskSupport === 'required';
      const called = await request(
        `tools/call ${name}`,
        (requestOptions) =>
          asTask
            ? callToolAsTask(client, { name, args, requestOptions, onProgress: callOptions.onProgress, totalTimeoutReason: TOTAL_TIMEOUT })
            : client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, requestOptions).then((result) => ({ result, taskId: undefined })),
        callOptions,
      );
      return called.ok ? toCallResult(called.value.result, name, called.value.taskId) : called;
    },
    async listResources() {
      const missing = ensure('resources', 'resources');
      if (missing) return missing;
      const listed = await request('resources/list', (requestOptions) => listAllPages(async (cursor) => {
        const page = await client.listResources(cursor === undefined ? {} : { cursor }, requestOptions);
        return { items: page.resources, nextCursor: page.nextCursor };
      }), {});
      return listed.ok ? { ok: true, items: listed.value.map(pickResource) } : listed;
    },
    async listResourceTemplates() {
      const missing = ensure('resources', 'resources');
      if (missing) return missing;
      const listed = await request('resources/templates/list', (requestOptions) => listAllPages(async (cursor) => {
        const page = await client.listResourceTemplates(cursor === undefined ? {} : { cursor }, requestOptions);
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      }), {});
      return listed.ok ? { ok: true, items: listed.value.map(pickResourceTemplate) } : listed;
    },
    async readResource(uri, readOptions = {}) {
      const missing = ensure('resources', 'resources');
      if (missing) return missing;
      const read = await request(`resources/read ${uri.slice(0, 200)}`, (requestOptions) => client.readResource({ uri }, requestOptions), readOptions);
      return read.ok ? { ok: true, parts: read.value.contents.map((content) => toResourcePart(content)) } : read;
    },
    async listPrompts() {
      const missing = ensure('prompts', 'prompts');
      if (missing) return missing;
      const listed = await request('prompts/list', (requestOptions) => listAllPages(async (cursor) => {
        const page = await client.listPrompts(cursor === undefined ? {} : { cursor }, requestOptions);
        return { items: page.prompts, nextCursor: page.nextCursor };
      }), {});
      return listed.ok ? { ok: true, items: listed.value.map(pickPrompt) } : listed;
    },
    async getPrompt(name, args, promptOptions = {}) {
      const missing = ensure('prompts', 'prompts');
      if (missing) return missing;
      const got = await request(`prompts/get ${name}`, (requestOptions) => client.getPrompt({ name, ...(args === undefined ? {} : { arguments: args }) }, requestOptions), promptOptions);
      if (!got.ok) return got;
      const messages = got.value.messages.map((message) => ({ role: message.role, part: toContentParts([message.content])[0]! }));
      return got.value.description === undefined ? { ok: true, messages } : { ok: true, description: got.value.description, messages };
    },
    async complete(ref, argument, context) {
      const missing = ensure('completions', 'completions');
      if (missing) return missing;
      const completed = await request('completion/complete', (requestOptions) =>
        client.complete({ ref, argument, ...(context === undefined ? {} : { context: { arguments: context } }) }, requestOptions), {});
      if (!completed.ok) return completed;
      const { values, total, hasMore } = completed.value.completion;
      return { ok: true, values, ...(total === undefined ? {} : { total }), ...(hasMore === undefined ? {} : { hasMore }) };
    },
    async setRoots(next) {
      if (options.roots === undefined) throw new Error(`MCP connection "${config.name}" was created without roots; pass options.roots to offer them`);
      roots = next.map((root) => ({ ...root }));
      if (status === 'connected') await client.sendRootsListChanged().catch(() => undefined);
    },
    async close() {
      if (closedByUs) return;
      closedByUs = true;
      await stopClient();
      becomeUnavailable('closed', `MCP server "${config.name}" was closed`);
    },
  };
}

/**
 * The SDK runs a notification handler a microtask late but handles a response at once, so a progress notification
 * read in the same chunk as the result of its call finds the call's progress handler gone. Each incoming message
 * is delivered one microtask after the one before, once that one's notification handlers have run.
 */
function deliverInOrder(transport: Transport): void {
  let handler: Transport['onmessage'];
  let chain = Promise.resolve();
  const deliver: NonNullable<Transport['onmessage']> = (message, extra) => {
    chain = chain.then(() => {
      try {
        handler?.(message, extra);
      } catch (error) {
        transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    });
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (handler === undefined ? undefined : deliver),
    set: (next: Transport['onmessage']) => {
      handler = next;
    },
  });
}
