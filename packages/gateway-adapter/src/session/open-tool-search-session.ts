// Opens one session on a host: wiring only. The session's policy view of the host catalog, its allowed-tools
// registry, the call pipeline, the control routes of its mode, its surface and its telemetry are each built
// by their own module; this file connects them, in named steps, and hands the parts to `sessionApi`.
import { randomUUID } from 'node:crypto';
import type { CatalogView } from '@tool-search/catalog';
import { measureSurface, renderSurface, type SurfaceFormat } from '@tool-search/modes';
import { createPolicy, isPolicy, type Policy, type PolicyContext } from '@tool-search/policy';
import type { Logger } from 'pino';
import { createSessionLog, type SessionLog } from '../create-session-log.js';
import type { DirectMeasure, ToolSearchModeDecision } from '../decide-tool-search-mode.js';
import { GatewayAdapterError, isToolSearchError } from '../errors.js';
import type { HostCore, PolicyByContent } from '../host/index.js';
import { pickDefined as pick } from '../pick-defined.js';
import { resolveToolSearchConfig, type ResolvedToolSearchConfig } from '../resolve-tool-search-config.js';
import type { ToolSearchSession } from '../tool-search-session.js';
import { createAllowedTools, type AllowedTools } from './allowed-tools.js';
import { answerChatToolSearch } from './answer-chat-tool-search.js';
import { createCallPipeline } from './call-pipeline.js';
import { createCatalogReads } from './catalog-reads.js';
import { createControlRoutes } from './control-routes.js';
import type { OutcomeStart } from './error-outcome.js';
import { followHost } from './follow-host.js';
import { gateStartingServers } from './gate-starting-servers.js';
import { logSessionStart, reportFallback } from './log-session-start.js';
import type { OpenSessionOptions } from './open-session-options.js';
import { sessionApi } from './session-api.js';
import type { SessionParts } from './session-parts.js';
import { createSessionSurface } from './session-surface.js';
import { createSessionEmitter } from './create-session-emitter.js';
import { createSessionCounters } from './session-counters-sink.js';
import type { SessionEmit } from './session-event.js';
import { createSessionLogSink, type SessionLogWrite } from './session-log-sink.js';
import { createSessionOtelSink } from './session-otel-sink.js';

const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/**
 * The run context, copied once: the view, the allowed tools and every call then read the same values, whatever a
 * getter or a later change of the caller's object would answer. Anything but an object is left for the policy to reject.
 */
function copyContext(context: PolicyContext | undefined): PolicyContext {
  if (context === undefined) return {};
  return typeof context === 'object' && context !== null && !Array.isArray(context) ? { ...context } : context;
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

/** What a session is opened with, settled before any wait: its id, loggers, config, policy, context and log. */
interface SessionInputs {
  sessionId: string;
  root: Logger;
  log: Logger;
  config: ResolvedToolSearchConfig;
  byContent: PolicyByContent | undefined;
  policy: Policy;
  context: PolicyContext;
  sessionLog: SessionLog | undefined;
  /** Writes one session-log line (a no-op without a session log): the log sink's pen. */
  writeLog: SessionLogWrite;
  /** The session opens before the host's start-up is over (its surface cannot change because of it). */
  opensEarly: boolean;
  started: Promise<void>;
}

type Lifecycle = { onClose(session: ToolSearchSession): void };

async function openSession(host: HostCore, options: OpenSessionOptions, lifecycle: Lifecycle): Promise<ToolSearchSession> {
  const inputs = resolveSessionInputs(host, options);
  if (!inputs.opensEarly) await inputs.started;
  const { parts, directReason } = await buildSessionParts(host, options, inputs);
  return startSession(host, options, { inputs, parts, directReason }, lifecycle);
}

/** The session's id, loggers, config, policy, context and log; a bad config or policy throws here, before any wait. */
function resolveSessionInputs(host: HostCore, options: OpenSessionOptions): SessionInputs {
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
  const writeLog: SessionLogWrite = (name, fields) => sessionLog?.write(name, fields);
  const opensEarly = options.waitForStartup === false && surfaceIgnoresStartup(config, options, host);
  return { sessionId, root, log, config, byContent, policy, context, sessionLog, writeLog, opensEarly, started: host.startupWait() };
}

/** The session's view, allowed tools, mode, telemetry, catalog reads, call pipeline, routes and surface. */
async function buildSessionParts(host: HostCore, options: OpenSessionOptions, inputs: SessionInputs): Promise<{ parts: SessionParts; directReason: string | undefined }> {
  const { sessionId, config, byContent, policy, context, log } = inputs;
  const searchLimits = { searchDefaultLimit: config.searchDefaultLimit, maxSearchLimit: config.maxSearchLimit };
  const view = byContent === undefined ? host.view(policy, context, searchLimits) : host.contentView(byContent, context, searchLimits);
  const likely = config.mode === 'directory' && options.request !== undefined ? view.likelyTools(options.request).map((tool) => tool.id) : [];
  const tools = createAllowedTools({ host, view, policy, context, client: options.client ?? [], visible: [...(options.visible ?? []), ...likely], log });
  const decision = await host.decideMode(config, () => measureDirect(tools, config));
  const counters = createSessionCounters({ sessionId, decision, directReason: directReasonOf(config, decision), catalog: () => catalogFacts(host, tools) });
  // Each event once, to every sink: the session log, the session's counters, OpenTelemetry.
  const emit: SessionEmit = createSessionEmitter([createSessionLogSink(inputs.writeLog), counters.sink, createSessionOtelSink(host.openTelemetry)]);
  reportFallback(decision, log, emit);
  const runner = decision.mode === 'code' ? (options.runner ?? host.runner(decision)) : undefined;
  const directReason = directReasonOf(config, decision);
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
  const reads = createCatalogReads({ view: reader, emit, starting: startingOwners });
  const pipeline = createCallPipeline({
    host,
    tools,
    policy,
    context,
    ...pick(options, ['hooks', 'approvals', 'authorizeTimeoutMs']),
    callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    validator: host.validator,
    sessionSignal: abort.signal,
    emit,
    log,
    mode: decision.mode,
    onServerLog: (entry) => emit({ kind: 'mcp.log', fields: { server: entry.server, level: entry.level, logger: entry.logger, message: entry.message.slice(0, 500) } }),
    openTelemetry: host.openTelemetry,
  });
  const base = { sessionId, decision, tools, counters, pipeline, reads, searchLimits, emit, abort, runner, log };
  const { routes, surface, loaded } = createRoutesAndSurface(host, config, view, base);
  // Render once now: a client tool colliding with a catalog name fails here, not on the first turn.
  surface.current();
  if (likely.length > 0) emit({ kind: 'likely', fields: { toolIds: likely } });
  const embedQueries = host.semantic ? (queries: string[]) => reader.embedQueries(queries) : undefined;
  const parts: SessionParts = { ...base, routes, surface, warnedFormats: new Set(), fellBack: new Set(), loaded, started: inputs.started, embedQueries };
  return { parts, directReason };
}

/** The control routes of the session's mode (gated on servers still starting) and the surface it renders. */
function createRoutesAndSurface(
  host: HostCore,
  config: ResolvedToolSearchConfig,
  view: CatalogView,
  parts: Pick<SessionParts, 'decision' | 'tools' | 'reads' | 'pipeline' | 'emit' | 'runner' | 'abort' | 'log' | 'searchLimits'>,
): Pick<SessionParts, 'routes' | 'surface' | 'loaded'> {
  const { decision, tools, reads, pipeline, emit, runner, log } = parts;
  // A search, describe or call naming a server still making its first connection waits for it a bounded time.
  // Native mode: what each format's searches loaded. With chat loading, OpenAI Chat declares its loaded tools.
  const loaded = new Map<SurfaceFormat, Set<string>>();
  const chatLoading = config.nativeSearch.chat === 'load';
  const chatSearch = chatLoading
    ? (args: Record<string, unknown>, start: OutcomeStart) => answerChatToolSearch({ surface, reads, loaded, maxLoaded: config.nativeSearch.maxLoaded, emit, log }, args, start)
    : undefined;
  const routes = gateStartingServers(createControlRoutes(decision.mode, { tools, reads, pipeline, emit, runner, runSlots: host.runSlots(), codeTimeoutMs: config.codeTimeoutMs, sessionSignal: parts.abort.signal, chatSearch }), {
    starting: (server) => host.startingServer(server),
    waitMs: host.startingWaitMs,
    admits: (tool) => tools.admits(tool),
  });
  const surface = createSessionSurface({
    mode: decision.mode,
    tools,
    version: () => host.version(),
    limits: { ...parts.searchLimits, codeTimeoutMs: config.codeTimeoutMs },
    directory: config.directory,
    native: { anthropicSearch: config.nativeSearch.anthropic, ...(chatLoading ? { chatLoading: true } : {}) },
    memo: host.surfaceMemo(view),
    catalogStarting: () => host.startupPending(),
    loaded: (format) => loaded.get(format) ?? [],
  });
  return { routes, surface, loaded };
}

/** Starts the session's log and its following of the host (now, or once the start-up is over), and gives its face. */
function startSession(
  host: HostCore,
  options: OpenSessionOptions,
  built: { inputs: SessionInputs; parts: SessionParts; directReason: string | undefined },
  lifecycle: Lifecycle,
): ToolSearchSession {
  const { inputs, parts, directReason } = built;
  let unsubscribe = () => undefined as void;
  const begin = () => {
    if (parts.abort.signal.aborted) return;
    unsubscribe = followHost(host, parts, options.onCatalogChange);
    logSessionStart(host, { decision: parts.decision, directReason, tools: parts.tools, emit: parts.emit });
  };
  // A session opened early starts its log and follows the catalog once the start-up is over, so its log says
  // what a session opened then would (which servers came up), not every server as it joins.
  if (inputs.opensEarly) void inputs.started.then(begin);
  else begin();
  const session = sessionApi(parts, async () => {
    unsubscribe();
    // A runner given for this session is the caller's to close; the host's shared one is the host's.
    inputs.sessionLog?.flush();
    lifecycle.onClose(session);
  });
  return session;
}

/** Why a session renders direct mode: the config's reason, or `auto` when auto chose it. */
function directReasonOf(config: ResolvedToolSearchConfig, decision: ToolSearchModeDecision): string | undefined {
  return config.directReason ?? (decision.mode === 'direct' && config.mode === 'auto' ? 'auto' : undefined);
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

/**
 * Whether a session's surface cannot change because of the servers' start-up, so it may open before it ends: the
 * control tools of `code` or `tools` mode (the code-mode probe does not depend on the servers), with nothing
 * pinned (config pins and `visible` need their tools in the catalog) and no `request` (likely tools need it).
 */
function surfaceIgnoresStartup(config: ResolvedToolSearchConfig, options: OpenSessionOptions, host: HostCore): boolean {
  if (config.mode !== 'code' && config.mode !== 'tools') return false;
  return (options.visible ?? []).length === 0 && host.pinnedByServers().length === 0 && options.request === undefined;
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
