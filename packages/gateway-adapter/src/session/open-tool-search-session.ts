// Opens one session on a host: wiring only. The session's policy view of the host catalog, its allowed-tools
// registry, the call pipeline, the control routes of its mode, its surface and its telemetry are each built
// by their own module; this file connects them and routes `execute`.
import { randomUUID } from 'node:crypto';
import {
  isControlToolName,
  measureSurface,
  PROVIDER_MAX_TOOLS,
  renderSurface,
  toProviderTools,
  TOOL_SEARCH,
  TOOL_SEARCH_CODE,
  type Mode,
  type Surface,
  type SurfaceFormat,
  type SurfaceMeasure,
} from '@tool-search/modes';
import {
  createPolicy,
  isPolicy,
  type ApprovalProvider,
  type BeforeToolCallHook,
  type Policy,
  type PolicyConfig,
  type PolicyContext,
  type PolicyTimeouts,
  type PolicyTool,
} from '@tool-search/policy';
import type { Runner } from '@tool-search/sandbox-runner';
import type { Logger } from 'pino';
import { createSessionLog, type SessionLog, type SessionLogTarget } from '../create-session-log.js';
import { GatewayAdapterError, isToolSearchError } from '../errors.js';
import type { ClientTool } from '../executable-tool.js';
import { resolveToolSearchConfig, type ResolvedToolSearchConfig } from '../resolve-tool-search-config.js';
import type { CallRoute } from '../telemetry.js';
import type { ToolCallOutcome } from '../tool-call-outcome.js';
import type { ExecuteOptions, RenderedSurface, SearchLimits, ToolCallRequest, ToolProgress, ToolSearchSession } from '../tool-search-session.js';
import type { DirectMeasure, ToolSearchModeDecision } from '../decide-tool-search-mode.js';
import { createAllowedTools, type AllowedTools } from './allowed-tools.js';
import { createCallPipeline, type CallPipeline } from './call-pipeline.js';
import { createCatalogReads, type CatalogReads } from './catalog-reads.js';
import { answerChatToolSearch } from './answer-chat-tool-search.js';
import { answerNativeSearch } from './answer-native-search.js';
import { controlKind, createControlRoutes, type ControlRoute } from './control-routes.js';
import { gateStartingServers } from './gate-starting-servers.js';
import { errorOutcome, type OutcomeStart } from './error-outcome.js';
import type { HostCore, HostEvent } from '../host/host-core.js';
import { parseCallArgs } from './parse-call-args.js';
import { pickDefined as pick } from '../pick-defined.js';
import { createSessionSurface, type SessionSurface } from './session-surface.js';
import { createTelemetryRecorder, type SessionEvent, type TelemetryRecorder } from './telemetry-recorder.js';
import { gatewayInstruments } from '../otel/gateway-instruments.js';

/** Options of `host.openSession`. */
export interface OpenSessionOptions {
  /** The `tools.toolSearch` setting (raw, or the output of `resolveToolSearchConfig`). */
  config: unknown;
  /**
   * A policy config, or a compiled policy. A config is validated and its catalog view shared with every session of
   * a config with the same content (see the host's `policyCacheSize`); a compiled policy shares views only with
   * sessions of the same object. Default: empty.
   */
  policy?: Policy | PolicyConfig | undefined;
  /** Who is asking, for this run. */
  context?: PolicyContext | undefined;
  /** Tools executed by the caller: their calls come back as `{ status: 'client' }` outcomes. */
  client?: ClientTool[] | undefined;
  /** Ids (or unique names) of allowed tools to keep directly visible in every mode (pinned). */
  visible?: string[] | undefined;
  /** Where the session log goes: a file path, a stream, or a `SessionLog`. */
  sessionLog?: SessionLogTarget | SessionLog | undefined;
  /** `before_tool_call` hooks for every call (after the policy's own). */
  hooks?: readonly BeforeToolCallHook[] | undefined;
  approvals?: ApprovalProvider | undefined;
  /** Limits for hooks and approvals (passed to `authorizeCall`). */
  authorizeTimeoutMs?: number | PolicyTimeouts | undefined;
  /** Timeout of one tool execution (local or MCP). Default 30,000 ms. */
  callTimeoutMs?: number | undefined;
  sessionId?: string | undefined;
  /** This session's logger (default: the host's). */
  logger?: Logger | undefined;
  /** A sandbox runner for this session only (default: the host's shared one). */
  runner?: Runner | undefined;
  /**
   * The run's request text. In directory mode the few catalog tools the ranking is confident about for it (at most
   * 3, only past a measured margin) are declared directly, so the model can often call without a search turn.
   */
  request?: string | undefined;
  /**
   * Called after each change of the host's catalog (a server joined, went away or changed its tools), once the
   * session has taken it in: its surface may differ now. A front re-renders and compares.
   */
  onCatalogChange?: (() => void) | undefined;
  /**
   * Default true: the host's first session waits (up to its startup timeout) for servers still starting. `false`:
   * a `code` or `tools` session with no pinned tools and no `request` opens at once, since its surface is the
   * control tools whatever the servers bring; its `execute` waits for the start-up before running anything and
   * `whenStarted()` says when it is over. Every other session waits as with `true`.
   */
  waitForStartup?: boolean | undefined;
}

const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** Where the model finds tools in each mode (for the unknown-tool message). */
const SEARCH_HINTS: Readonly<Record<Mode, string>> = {
  code: `tools.search inside ${TOOL_SEARCH_CODE}`,
  tools: TOOL_SEARCH,
  directory: TOOL_SEARCH,
  native: TOOL_SEARCH,
  direct: 'the declared tools',
};

/**
 * The run context, copied once: the view, the allowed tools and every call then read the same values, whatever a
 * getter or a later change of the caller's object would answer. Anything but an object is left for the policy to reject.
 */
function copyContext(context: PolicyContext | undefined): PolicyContext {
  if (context === undefined) return {};
  return typeof context === 'object' && context !== null && !Array.isArray(context) ? { ...context } : context;
}

/** Everything one session is made of, built once at open. */
interface SessionParts {
  sessionId: string;
  decision: ToolSearchModeDecision;
  tools: AllowedTools;
  recorder: TelemetryRecorder;
  pipeline: CallPipeline;
  routes: ReadonlyMap<string, ControlRoute>;
  reads: CatalogReads;
  searchLimits: SearchLimits;
  surface: SessionSurface;
  event: SessionEvent;
  abort: AbortController;
  runner: Runner | undefined;
  log: Logger;
  /** Formats already warned about for a surface over the provider's tool limit. */
  warnedFormats: Set<string>;
  /** Formats whose surface fell back to another mode (logged once each). */
  fellBack: Set<string>;
  /** Native mode: the ids each format's searches have loaded so far (not loaded again). */
  loaded: Map<SurfaceFormat, Set<string>>;
  /** Resolves when the host's first start of its servers is over (at once for a session opened after it). */
  started: Promise<void>;
  /** Embeds search queries before a `tool_search` runs them (set when the host has an embedder). */
  embedQueries: ((queries: string[]) => Promise<void>) | undefined;
}

/** The query texts of `tool_search` arguments (`query`, or `queries` of strings or `{ query }`); the route checks them. */
function searchQueriesOf(args: Record<string, unknown>): string[] {
  if (typeof args['query'] === 'string') return [args['query']];
  if (!Array.isArray(args['queries'])) return [];
  return args['queries']
    .map((entry: unknown) => (typeof entry === 'string' ? entry : typeof entry === 'object' && entry !== null ? (entry as { query?: unknown }).query : undefined))
    .filter((query): query is string => typeof query === 'string');
}

/**
 * Opens a session on `host`; `onClose` is told when it closes. Whatever the composed packages throw while it
 * opens (a `PolicyError` for a bad policy config, a `ModesError` for a client tool colliding with a catalog name,
 * a `CatalogError`, a `SandboxRunnerError` from the runner it starts) comes out as one `GatewayAdapterError` (the
 * original as its `cause`, its `path` kept), so a host needs one guard.
 */
export async function openToolSearchSession(
  host: HostCore,
  options: OpenSessionOptions,
  lifecycle: { onClose(session: ToolSearchSession): void },
): Promise<ToolSearchSession> {
  try {
    return await openSession(host, options, lifecycle);
  } catch (error) {
    throw asGatewayAdapterError(error);
  }
}

/** How each composed package's contract error comes out of `openSession`: one table, by the error's class name. */
const WRAPPED_ERROR_CODES: Readonly<Record<string, 'invalid_config' | 'invalid_options'>> = {
  PolicyError: 'invalid_config',
  ModesError: 'invalid_options',
  CatalogError: 'invalid_options',
  SandboxRunnerError: 'invalid_options',
};

/** The composed packages' contract errors as this package's (path kept, the original as `cause`); anything else passes through. */
function asGatewayAdapterError(error: unknown): unknown {
  if (!isToolSearchError(error)) return error;
  const code = Object.hasOwn(WRAPPED_ERROR_CODES, error.name) ? WRAPPED_ERROR_CODES[error.name] : undefined;
  if (code === undefined) return error;
  return new GatewayAdapterError(code, `${error.message} (${error.name} ${error.code})`, { cause: error, ...(error.path === undefined ? {} : { path: error.path }) });
}

async function openSession(
  host: HostCore,
  options: OpenSessionOptions,
  lifecycle: { onClose(session: ToolSearchSession): void },
): Promise<ToolSearchSession> {
  const sessionId = options.sessionId ?? randomUUID();
  const root = (options.logger ?? host.rootLogger).child({ sessionId });
  const log = root.child({ pkg: 'gateway-adapter' });
  const config = resolveToolSearchConfig(options.config, host.env);
  // A config is validated here, before any wait; its session gets its own compiled policy (for its log) from the
  // canonical copy, and the view of the content's shared one.
  const byContent = isPolicy(options.policy) ? undefined : host.policyByContent(options.policy ?? {});
  const policy = byContent === undefined ? (options.policy as Policy) : createPolicy(byContent.config, { logger: root });
  const context = copyContext(options.context);
  const sessionLog = options.sessionLog === undefined ? undefined : 'write' in options.sessionLog ? options.sessionLog : createSessionLog(options.sessionLog, { sessionId });
  const event: SessionEvent = (name, fields) => sessionLog?.write(name, fields);
  const opensEarly = options.waitForStartup === false && surfaceIgnoresStartup(config, options, host);
  const started = host.startupWait();
  if (!opensEarly) await started;

  const searchLimits = { searchDefaultLimit: config.searchDefaultLimit, maxSearchLimit: config.maxSearchLimit };
  const view = byContent === undefined ? host.view(policy, context, searchLimits) : host.contentView(byContent, context, searchLimits);
  const likely = config.mode === 'directory' && options.request !== undefined ? view.likelyTools(options.request).map((tool) => tool.id) : [];
  const tools = createAllowedTools({ host, view, policy, context, client: options.client ?? [], visible: [...(options.visible ?? []), ...likely], log });
  const decision = await host.decideMode(config, () => measureDirect(tools, config));
  reportFallback(decision, log, event);
  const runner = decision.mode === 'code' ? (options.runner ?? host.runner(decision)) : undefined;
  const directReason = config.directReason ?? (decision.mode === 'direct' && config.mode === 'auto' ? 'auto' : undefined);
  const recorder = createTelemetryRecorder({ sessionId, decision, directReason, event, catalog: () => catalogFacts(host, tools) });
  const abort = new AbortController();
  // The view is shared by every session of this policy; the session's searches fuse only with query vectors it embedded.
  const reader = view.withOwnQueryVectors();
  // The map marks an MCP server still making its first connection as starting, when the policy may see it (asked
  // as the gate asks: a tool named `*` of it), so a model is never told a server it needs is not there.
  const startingOwners = () =>
    host
      .unavailableServers()
      .filter((server) => host.startingServer(server) !== undefined && tools.admits({ id: `mcp:${server}:*`, name: '*', source: 'mcp', owner: server, ownerOnly: false }))
      .map((owner) => ({ source: 'mcp' as const, owner }));
  const reads = createCatalogReads({ view: reader, recorder, event, openTelemetry: host.openTelemetry, starting: startingOwners });
  const pipeline = createCallPipeline({
    host,
    tools,
    policy,
    context,
    ...pick(options, ['hooks', 'approvals', 'authorizeTimeoutMs']),
    callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    validator: host.validator,
    sessionSignal: abort.signal,
    recorder,
    log,
    searchHint: SEARCH_HINTS[decision.mode],
    onServerLog: (entry) => event('mcp.log', { server: entry.server, level: entry.level, logger: entry.logger, message: entry.message.slice(0, 500) }),
    openTelemetry: host.openTelemetry,
    onFinalCall: (toolId) => reads.called(toolId),
  });
  // A search, describe or call naming a server still making its first connection waits for it a bounded time.
  // Native mode: what each format's searches loaded. With chat loading, OpenAI Chat declares its loaded tools.
  const loaded = new Map<SurfaceFormat, Set<string>>();
  const chatLoading = config.nativeSearch.chat === 'load';
  const chatSearch = chatLoading
    ? (args: Record<string, unknown>, start: OutcomeStart) => answerChatToolSearch({ surface, reads, loaded, maxLoaded: config.nativeSearch.maxLoaded, recorder, event, log }, args, start)
    : undefined;
  const routes = gateStartingServers(createControlRoutes(decision.mode, { tools, reads, pipeline, recorder, event, runner, runSlots: host.runSlots(), codeTimeoutMs: config.codeTimeoutMs, sessionSignal: abort.signal, chatSearch }), {
    starting: (server) => host.startingServer(server),
    waitMs: host.startingWaitMs,
    admits: (tool) => tools.admits(tool),
  });
  const surface = createSessionSurface({
    mode: decision.mode,
    tools,
    version: () => host.version(),
    limits: { ...searchLimits, codeTimeoutMs: config.codeTimeoutMs },
    directory: config.directory,
    native: { anthropicSearch: config.nativeSearch.anthropic, ...(chatLoading ? { chatLoading: true } : {}) },
    memo: host.surfaceMemo(view),
    catalogStarting: () => host.startupPending(),
    loaded: (format) => loaded.get(format) ?? [],
  });
  // Render once now: a client tool colliding with a catalog name fails here, not on the first turn.
  surface.current();
  if (likely.length > 0) event('likely', { toolIds: likely });
  const embedQueries = host.semantic ? (queries: string[]) => reader.embedQueries(queries) : undefined;
  const parts: SessionParts = { sessionId, decision, tools, recorder, pipeline, routes, surface, reads, searchLimits, event, abort, runner, log, warnedFormats: new Set(), fellBack: new Set(), loaded, started, embedQueries };
  let unsubscribe = () => undefined as void;
  const begin = () => {
    if (parts.abort.signal.aborted) return;
    unsubscribe = followHost(host, parts, options.onCatalogChange);
    logSessionStart(host, { decision, directReason, tools, event });
  };
  // A session opened early starts its log and follows the catalog once the start-up is over, so its log says
  // what a session opened then would (which servers came up), not every server as it joins.
  if (opensEarly) void started.then(begin);
  else begin();
  const session = sessionApi(parts, async () => {
    unsubscribe();
    // A runner given for this session is the caller's to close; the host's shared one is the host's.
    sessionLog?.flush();
    lifecycle.onClose(session);
  });
  return session;
}

/** What the telemetry summary says of the catalog the session sees. */
function catalogFacts(host: HostCore, tools: AllowedTools) {
  return {
    size: tools.view.size,
    sources: tools.view.sources(),
    clientTools: tools.clientInputs().length,
    visibleTools: tools.pinnedInputs().length,
    unavailableServers: host.unavailableServers(),
  };
}

/** Logs each host change for the session and tells its owner; returns the unsubscribe. */
function followHost(host: HostCore, parts: SessionParts, onCatalogChange: (() => void) | undefined): () => void {
  return host.subscribe((change) => {
    logHostEvent(change, parts.tools, parts.event);
    notifyCatalogChange(onCatalogChange, parts.log);
  });
}

/**
 * Whether a session's surface cannot change because of the servers' start-up, so it may open before it ends: the
 * control tools of `code` or `tools` mode (the code-mode probe does not depend on the servers), with nothing
 * pinned (config pins and `visible` need their tools in the catalog) and no `request` (likely tools need it).
 */
function surfaceIgnoresStartup(config: ResolvedToolSearchConfig, options: OpenSessionOptions, host: HostCore): boolean {
  if (config.mode !== 'code' && config.mode !== 'tools') return false;
  return (options.visible ?? []).length === 0 && host.pinnedByServers().length === 0 && options.request === undefined;
}

/** A code mode that could not start, in the log and the session log. */
function reportFallback(decision: ToolSearchModeDecision, log: Logger, event: SessionEvent): void {
  if (decision.fallbackReason === undefined) return;
  log.warn({ requestedMode: decision.requestedMode, mode: decision.mode, reason: decision.fallbackReason }, 'code mode unavailable, falling back');
  event('fallback', { requestedMode: decision.requestedMode, mode: decision.mode, reason: decision.fallbackReason });
}

/** The public session over its parts. */
function sessionApi(parts: SessionParts, onClose: () => Promise<void>): ToolSearchSession {
  let closed = false;
  return {
    sessionId: parts.sessionId,
    decision: parts.decision,
    surface<F extends SurfaceFormat>(format: F): RenderedSurface<F> {
      const current = parts.surface.current(format);
      recordSurface(parts, current, format, measureSurface(current, format));
      const fallback = current.fallbackReason === undefined ? {} : { requestedMode: current.requestedMode ?? parts.decision.mode, fallbackReason: current.fallbackReason };
      return { mode: current.mode, tools: toProviderTools(current.tools, format), instructions: current.instructions, ...fallback };
    },
    modelSurface() {
      const current = parts.surface.current();
      const toolBytes = Buffer.byteLength(JSON.stringify(current.tools));
      const instructionBytes = Buffer.byteLength(current.instructions);
      recordSurface(parts, current, 'model', { toolBytes, instructionBytes, totalBytes: toolBytes + instructionBytes, upFrontToolBytes: toolBytes, deferredTools: 0 });
      return { mode: current.mode, tools: current.tools.map((tool) => ({ ...tool })), instructions: current.instructions };
    },
    async execute(request, executeOptions = {}) {
      if (closed) throw new GatewayAdapterError('session_closed', `Tool call ${request.toolCallId} arrived after the session was closed`);
      // No call, search or describe misses a server that was still starting (bounded by the startup timeout).
      await parts.started;
      return executeRequest(parts, request, executeOptions);
    },
    whenStarted: () => parts.started,
    tool: (id) => parts.tools.view.get(id),
    answerNativeSearch: (request, format) => {
      if (closed) throw new GatewayAdapterError('session_closed', 'A native tool search arrived after the session was closed');
      return answerNativeSearch(parts, request, format);
    },
    searchLimits: { ...parts.searchLimits },
    search(query, searchOptions = {}) {
      if (closed) throw new GatewayAdapterError('session_closed', 'A search arrived after the session was closed');
      const { limit, toolCallId } = searchOptions;
      // A framework's own tool search (AI SDK, Agents SDK) ranking through this session: logged as `session`.
      return parts.reads.search([{ query, limit }], true, toolCallId, 'session')[0] ?? [];
    },
    explain(query, explainOptions = {}) {
      if (closed) throw new GatewayAdapterError('session_closed', 'An explain arrived after the session was closed');
      return parts.reads.explain(query, explainOptions.limit);
    },
    telemetry: () => parts.recorder.telemetry(),
    async close() {
      if (closed) return;
      closed = true;
      parts.abort.abort();
      parts.recorder.writeSummary();
      parts.reads.close();
      await onClose();
    },
  };
}

/** What `auto` compares with its thresholds: the direct surface's tool count, and its bytes when asked. */
function measureDirect(tools: AllowedTools, config: ResolvedToolSearchConfig): DirectMeasure {
  const visible = tools.pinnedInputs();
  const clientTools = tools.clientInputs();
  return {
    tools: tools.view.size + clientTools.length,
    bytes: () => {
      const direct = renderSurface({ mode: 'direct', catalog: tools.view, visible, clientTools, limits: { searchDefaultLimit: config.searchDefaultLimit, maxSearchLimit: config.maxSearchLimit } });
      return measureSurface(direct, 'openai-responses').totalBytes;
    },
  };
}

/** Records what was declared up front (schemas of catalog, pinned and client tools; deferred ones do not count). */
function recordSurface(parts: SessionParts, current: Surface, format: string, measured: SurfaceMeasure): void {
  const schemasUpFront = current.tools.filter((tool) => tool.id !== undefined && tool.deferred !== true).length;
  const maxTools = format in PROVIDER_MAX_TOOLS ? PROVIDER_MAX_TOOLS[format as SurfaceFormat] : undefined;
  const overLimit = maxTools !== undefined && current.tools.length > maxTools ? { providerMaxTools: maxTools } : {};
  // A format the mode cannot serve renders another one (native on OpenAI Chat renders tools): say so, per format.
  const fallback = current.fallbackReason === undefined ? {} : { renderedMode: current.mode, fallbackReason: current.fallbackReason };
  const rendered = { format, toolsDeclared: current.tools.length, schemasUpFront, ...measured, ...overLimit, ...fallback };
  parts.recorder.recordSurface(rendered);
  gatewayInstruments().surfaceBytes.record(measured.totalBytes, { 'tool_search.mode': current.mode, 'tool_search.surface.format': format });
  parts.event('surface', { mode: current.mode, ...rendered });
  if (current.fallbackReason !== undefined && !parts.fellBack.has(format)) {
    parts.fellBack.add(format);
    parts.event('fallback', { requestedMode: current.requestedMode ?? parts.decision.mode, mode: current.mode, format, reason: current.fallbackReason });
    parts.log.info({ format, requestedMode: current.requestedMode, mode: current.mode, reason: current.fallbackReason }, 'mode not available for this format, falling back');
  }
  // A request over the provider's documented limit is likely refused: say so, once per format, and suggest the fix.
  if (maxTools !== undefined && current.tools.length > maxTools && !parts.warnedFormats.has(format)) {
    parts.warnedFormats.add(format);
    parts.log.warn(
      { format, toolsDeclared: current.tools.length, providerMaxTools: maxTools, mode: current.mode },
      'surface declares more tools than the provider documents; use a tool-search mode (or auto)',
    );
  }
}

/** Routes one model tool call: a control tool of the mode, a declared name, a hydrated name, or unknown. */
async function executeRequest(parts: SessionParts, request: ToolCallRequest, options: ExecuteOptions): Promise<ToolCallOutcome> {
  const { name, toolCallId } = request;
  const { recorder, pipeline, tools, surface } = parts;
  const start = { kind: controlKind(name), toolCallId, name, startedAt: Date.now() };
  const fail = (outcome: ReturnType<typeof errorOutcome>) => {
    recorder.recordError();
    return outcome;
  };
  const args = parseCallArgs(request.args);
  if (args === undefined) return fail(errorOutcome(start, 'invalid_request', `Arguments of ${name} must be a JSON object`));
  const call = { ...pick(options, ['signal', 'progressExtendsTimeout', 'onUpstreamCall']), ...(options.onProgress === undefined ? {} : { onProgress: progressReporter(parts, toolCallId, options.onProgress) }) };
  const route = parts.routes.get(name);
  if (route !== undefined) {
    // With an embedder, the queries are embedded first, so the route's (synchronous) search of them is fused.
    if (name === TOOL_SEARCH && parts.embedQueries !== undefined) await parts.embedQueries(searchQueriesOf(args));
    return route.handle(args, start, call);
  }
  if (isControlToolName(name)) return fail(errorOutcome(start, 'wrong_mode', `${name} is not available in ${parts.decision.mode} mode`));
  const signal = call;
  const declared = surface.declaredId(name);
  if (declared !== undefined) return pipeline.call(declared, args, { via: declaredRoute(parts, declared), toolCallId, name, ...signal });
  // Directory mode: an exact hidden name the model read in the directory is hydrated from the allowed catalog.
  const hydrated = parts.decision.mode === 'directory' ? surface.current().hydratable.get(name) : undefined;
  if (hydrated !== undefined && tools.get(hydrated) !== undefined) {
    recorder.counts.hydrations += 1;
    parts.event('hydration', { toolCallId, name, toolId: hydrated });
    return pipeline.call(hydrated, args, { via: 'hydrated', toolCallId, name, ...signal });
  }
  const unknown = pipeline.unknown(start, name);
  parts.event('call', { toolCallId, via: 'direct', target: name.slice(0, 300), decision: 'not-run', status: 'error', detail: unknown.code, durationMs: unknown.durationMs });
  return fail(unknown);
}

/** Tells the session's owner the catalog changed; a throwing listener must not break the host's change event. */
function notifyCatalogChange(listener: (() => void) | undefined, log: Logger): void {
  if (listener === undefined) return;
  try {
    listener();
  } catch (error) {
    log.warn({ error: error instanceof Error ? error.message.slice(0, 200) : 'non-error thrown' }, 'catalog change listener failed');
  }
}

/** Most progress events one call writes to the session log (the caller's receiver gets every one). */
const MAX_PROGRESS_EVENTS = 50;

/** Hands progress to the caller's receiver and writes it to the session log (bounded per call). */
function progressReporter(parts: SessionParts, toolCallId: string, receiver: (progress: ToolProgress) => void): (progress: ToolProgress) => void {
  let written = 0;
  return (progress) => {
    if (written < MAX_PROGRESS_EVENTS) {
      written += 1;
      parts.event('progress', { toolCallId, progress: progress.progress, total: progress.total });
    }
    try {
      receiver(progress);
    } catch (error) {
      // A throwing receiver must not fail the call it watches.
      parts.event('progress', { toolCallId, receiverFailed: error instanceof Error ? error.message.slice(0, 200) : 'non-error thrown' });
    }
  };
}

/** How a call to a declared name came: a client tool, a tool native mode deferred (loaded by a search), or direct. */
function declaredRoute(parts: SessionParts, id: string): CallRoute {
  if (parts.tools.get(id)?.kind === 'client') return 'client';
  return parts.decision.mode === 'native' && !parts.tools.pinnedInputs().some((pin) => `${pin.source}:${pin.owner}:${pin.name}` === id) ? 'native' : 'direct';
}

/** The `session.start` event, and one `mcp.unavailable` per server that is not ready at open. */
function logSessionStart(host: HostCore, facts: { decision: ToolSearchModeDecision; directReason: string | undefined; tools: AllowedTools; event: SessionEvent }): void {
  const { decision, tools, event } = facts;
  const down = host.unavailableServers();
  event('session.start', {
    mode: decision.mode,
    requestedMode: decision.requestedMode,
    directReason: facts.directReason,
    autoReason: decision.autoReason,
    catalogSize: tools.view.size,
    sources: { ...tools.view.sources(), client: tools.clientInputs().length },
    mcpServers: down.map((server) => ({ name: server, status: 'unavailable', reason: host.serverDown(server) })),
  });
  for (const server of down) event('mcp.unavailable', { server, reason: host.serverDown(server) });
}

/** Writes what a host change means for this session, naming only tools its policy admits. */
function logHostEvent(change: HostEvent, tools: AllowedTools, event: SessionEvent): void {
  const admitted = (list: readonly PolicyTool[]) => list.filter((tool) => tools.admits(tool));
  switch (change.type) {
    case 'tools_changed':
      event('mcp.tools_changed', { server: change.server, added: admitted(change.added).map((tool) => tool.id), removed: admitted(change.removed).map((tool) => tool.id) });
      return;
    case 'server_down':
      event('mcp.unavailable', { server: change.server, reason: change.reason, tools: admitted(change.tools).length });
      return;
    case 'server_up':
      event('mcp.available', { server: change.server, tools: admitted(change.tools).length });
      return;
  }
}
