// The long-lived host: loads plugins and starts MCP servers once, keeps one catalog, restarts what dies, and
// opens cheap per-run sessions that see the catalog through their own policy.
import type { Embedder, EmbeddingCache, EmbeddingUpdate, ToolSource } from '@tool-search/catalog';
import { wordnetThesaurus, type Thesaurus } from '@tool-search/catalog/wordnet';
import type { Surface } from '@tool-search/modes';
import { createRunner, probeRuntime, type ProbeResult, type Runner } from '@tool-search/sandbox-runner';
import { createRunSlots, defaultMaxConcurrentRuns, type CodeRunLimits } from '../shared/create-run-slots.js';
import pino, { type Logger } from 'pino';
import { createArgsValidator } from './create-args-validator.js';
import { decideToolSearchMode, type ToolSearchModeDecision } from '../decide-tool-search-mode.js';
import { GatewayAdapterError } from '../errors.js';
import type { ExecutableTool } from '../executable-tool.js';
import { HostRegistry, type LocalTool } from './host-registry.js';
import { formatZodError } from '../shared/format-zod-error.js';
import type { HostCore } from './host-core.js';
import { openToolSearchSession, type OpenSessionOptions } from '../session/open-tool-search-session.js';
import {
  DEFAULT_MAX_CONCURRENT_STARTS,
  McpServerSupervisor,
  type McpElicitationHandler,
  type McpLogEntry,
  type McpOAuthOptions,
  type McpRoot,
  type McpSamplingHandler,
  type McpServerConnection,
  type McpServerState,
  type RestartBackoff,
  type StdioServersAhead,
} from '../mcp-client/index.js';
import { loadPluginTools, type PluginSpec } from './load-plugin-tools.js';
import { pickDefined as pick } from '../pick-defined.js';
import { DEFAULT_POLICY_CACHE_SIZE, PolicyCache, type PolicyCacheStatus } from './policy-cache.js';
import type { ToolSearchEnv } from '../resolve-tool-search-config.js';
import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { ToolSearchSession } from '../tool-search-session.js';
import { mcpServerConfigSchema, type McpServerConfig } from '../schemas.js';
import { gatewayInstruments, observeHost } from '../otel/gateway-instruments.js';
import type { OpenTelemetryOptions } from '../otel/gateway-spans.js';

/** The tools a host owns, by source (client tools belong to sessions). */
export interface ToolSearchHostSources {
  /** OpenClaw core tools (owner `core` unless a tool names its own). */
  openclaw?: ExecutableTool[];
  /** Plugin modules loaded by path (see `loadPluginTools`); owner = plugin name. */
  plugins?: PluginSpec[];
  /** MCP servers to start and keep running (stdio children or Streamable HTTP); owner = server name. */
  mcp?: McpServerConfig[];
}

/** Options of `createToolSearchHost`. */
export interface CreateToolSearchHostOptions {
  sources: ToolSearchHostSources;
  logger?: Logger | undefined;
  /** Base folder for relative plugin paths. Default `process.cwd()`. */
  cwd?: string | undefined;
  /**
   * What the host's OpenTelemetry spans record beyond their default attributes (arguments, results and query
   * text are off by default). Spans and metrics go to the global providers of `@opentelemetry/api`: with no SDK
   * registered they cost nothing.
   */
  openTelemetry?: OpenTelemetryOptions | undefined;
  /** Timeout of MCP connect and list requests. Default 30,000 ms. */
  mcpRequestTimeoutMs?: number | undefined;
  /** How long the first `openSession` waits for servers still starting. Default 5,000 ms; later sessions never wait. */
  startupTimeoutMs?: number | undefined;
  /**
   * How long a search, describe or call that names an MCP server still making its first connection waits for it;
   * past it the answer says the server is starting (never that the tool is unknown). Default 3,000 ms.
   */
  startingWaitMs?: number | undefined;
  /**
   * MCP server connections made at once (first starts and restarts); the others wait their turn, in config order,
   * so the first servers are searchable sooner than if a hundred started together. Default 8.
   */
  maxConcurrentStarts?: number | undefined;
  /** Reconnect backoff of MCP servers that fail or go away (default 1 s doubling to 30 s); `false`: never. */
  restartBackoff?: RestartBackoff | undefined;
  /** Replaces `probeRuntime` for the code-mode decision (run once per host). */
  probe?: (() => Promise<ProbeResult>) | undefined;
  /** A sandbox runner shared by code-mode sessions; by default one is created on first use and closed with the host. */
  runner?: Runner | undefined;
  /** Warm sandbox children of the runner the host creates. Default 2. */
  sandboxPoolSize?: number | undefined;
  /**
   * How many code-mode runs run at once (host-wide and per session) and how many may wait; past that a run
   * answers `busy`. Default: twice the cores, at most what a quarter of the memory holds (see the README).
   */
  codeRuns?: CodeRunLimits | undefined;
  /** Environment for `resolveToolSearchConfig` (`TOOL_SEARCH_MODE`). Default: none. */
  env?: ToolSearchEnv | undefined;
  /** What the host offers MCP servers as their client: roots, elicitation, sampling, OAuth, the log level it takes. */
  mcpClient?: McpClientOptions | undefined;
  /**
   * Stdio servers already spawned (`spawnStdioServersAhead` on the same configs): a server's first connection takes
   * its process when it was spawned with the same command, arguments, environment and folder. Those not taken stay
   * the caller's to close.
   */
  spawnedAhead?: StdioServersAhead | undefined;
  /**
   * Sessions that pass a policy config (not a compiled `Policy`) share the compiled policy and its catalog views
   * with every session whose config has the same content (equal after sorting object keys). This many views, and
   * as many compiled policies, are kept, least recently used first out. Default 64; 0 keeps none.
   */
  policyCacheSize?: number | undefined;
  /**
   * A text-embedding model (`createOpenAiEmbedder`): each `tool_search` then embeds its queries and fuses the
   * lexical ranking with the nearest tools; when the embedder fails, searches answer lexically (logged).
   */
  embedder?: Embedder | undefined;
  /** Where tool vectors are kept (`createFileEmbeddingCache` keeps them across restarts). Default: in memory. */
  embeddingCache?: EmbeddingCache | undefined;
  /**
   * Relatives of query words no tool has, read when a search's own words answer it weakly (see the catalog's
   * `thesaurus`). Default: the WordNet thesaurus of `@tool-search/catalog/wordnet` (parsed on the first weak
   * search, about 13 MB of heap once per process); `false` searches without one.
   */
  thesaurus?: Thesaurus | false | undefined;
}

/** The MCP client capabilities of a host (each default is the safe one). */
export interface McpClientOptions {
  /** Roots offered to every server. Default: none (the capability is not declared). */
  roots?: McpRoot[] | undefined;
  /** Answers a server's elicitation requests. Default: decline, so the tool gets an answer it can report. */
  onElicitation?: McpElicitationHandler | undefined;
  /** Answers a server's sampling requests. Default: refuse with an error the model can read. */
  onSampling?: McpSamplingHandler | undefined;
  /** Lowest server log level taken (asked of servers with `logging/setLevel`). Default `info`. */
  logLevel?: LoggingLevel | undefined;
  /** OAuth for HTTP servers whose config has `oauth`: the token store and how to ask the user. */
  oauth?: McpOAuthOptions | undefined;
}

/** One MCP server as the host sees it. */
export interface HostServerStatus {
  name: string;
  state: McpServerState;
  /** Its tools in the catalog now (0 unless ready; tools the catalog rejected are not counted). */
  tools: number;
  /** Why it is not ready. */
  reason?: string;
  /** Connections made after the first. */
  restarts: number;
  /** Tools the server lists that are not catalogued, with why (include/exclude, tasks it cannot run, schemas over the limits). */
  withheld: Array<{ name: string; reason: string }>;
}

/** What `host.status()` reports. */
export interface HostStatus {
  servers: HostServerStatus[];
  catalog: { size: number; sources: Record<ToolSource, number> };
  /** Sessions open now. */
  sessions: number;
  /** What the host keeps by policy content (see `policyCacheSize`). */
  policyCache: PolicyCacheStatus;
}

/**
 * One configured MCP server's resources, prompts and completions, for fronts that pass them through (an MCP
 * server front). Each answers `{ ok: false, code: 'unavailable' }` while the server is not ready. These do not
 * go through a session's policy: the front applies its own (for example the policy's verdict on the server's
 * `read_resource` tool).
 */
export type HostMcpServer = Pick<
  McpServerConnection,
  'listResources' | 'listResourceTemplates' | 'readResource' | 'listPrompts' | 'getPrompt' | 'complete'
> & { readonly name: string; readonly state: McpServerState; readonly instructions: string | undefined };

/** A long-lived host of tool-search sessions. */
export interface ToolSearchHost {
  status(): HostStatus;
  /** The configured MCP servers, for resources, prompts and completions. */
  mcpServers(): HostMcpServer[];
  /** Opens a session: its own policy view of the one catalog, client tools, pins, hooks, log and telemetry. */
  openSession(options: OpenSessionOptions): Promise<ToolSearchSession>;
  /**
   * Embeds the catalog's tools that have no vector yet (from the cache when it has them) with the host's embedder:
   * what the first semantic search would otherwise wait for. Without an embedder it embeds nothing.
   */
  updateEmbeddings(): Promise<EmbeddingUpdate>;
  /** Closes every open session, stops the MCP servers and the runner the host created. */
  close(): Promise<void>;
}

const DEFAULT_STARTUP_TIMEOUT_MS = 5_000;
const DEFAULT_STARTING_WAIT_MS = 3_000;
/** The code-run limits with their defaults, each a positive integer (else `invalid_options`). */
function resolveCodeRunLimits(limits: CodeRunLimits | undefined): { maxConcurrent: number; maxConcurrentPerSession: number; maxQueued: number } {
  for (const [name, value] of Object.entries(limits ?? {})) {
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < 1)) {
      throw new GatewayAdapterError('invalid_options', `codeRuns.${name} must be a positive integer, got ${JSON.stringify(value)}`, { path: `codeRuns.${name}` });
    }
  }
  const maxConcurrent = limits?.maxConcurrent ?? defaultMaxConcurrentRuns();
  return {
    maxConcurrent,
    maxConcurrentPerSession: Math.min(maxConcurrent, limits?.maxConcurrentPerSession ?? Math.ceil(maxConcurrent / 2)),
    maxQueued: limits?.maxQueued ?? maxConcurrent * 4,
  };
}

/** Sandbox children kept warm for the host's code-mode sessions. */
const DEFAULT_SANDBOX_POOL_SIZE = 2;

/**
 * Creates a host: loads the plugins (a plugin that cannot be loaded throws `plugin_load_failed`), catalogues
 * the local tools, and starts every MCP server in parallel without waiting for them. A server that becomes
 * ready later joins the catalog; one that dies is restarted with backoff, its tools unavailable meanwhile.
 */
export async function createToolSearchHost(options: CreateToolSearchHostOptions): Promise<ToolSearchHost> {
  const rootLogger = options.logger ?? pino({ level: 'silent' });
  const log = rootLogger.child({ pkg: 'gateway-adapter', component: 'host' });
  const mcpConfigs = parseMcpConfigs(options.sources?.mcp ?? []);
  const policyCacheSize = options.policyCacheSize ?? DEFAULT_POLICY_CACHE_SIZE;
  if (!Number.isSafeInteger(policyCacheSize) || policyCacheSize < 0) {
    throw new GatewayAdapterError('invalid_options', `Invalid policyCacheSize: expected a whole number 0 or more, received ${String(policyCacheSize)}`, { path: 'policyCacheSize' });
  }
  const plugins = await loadPluginTools(options.sources?.plugins ?? [], options.cwd === undefined ? {} : { cwd: options.cwd });
  const thesaurus = options.thesaurus === false ? undefined : (options.thesaurus ?? wordnetThesaurus());
  const registry = new HostRegistry({ logger: log, catalogLogger: rootLogger, embedder: options.embedder, embeddingCache: options.embeddingCache, thesaurus });
  registry.addLocal(collectLocalTools(options.sources?.openclaw ?? [], plugins));

  const supervisors = new Map<string, McpServerSupervisor>();
  const serverLogs = new ServerLogRouter(log);
  const maxConcurrentStarts = options.maxConcurrentStarts ?? DEFAULT_MAX_CONCURRENT_STARTS;
  if (!Number.isSafeInteger(maxConcurrentStarts) || maxConcurrentStarts < 1) {
    throw new GatewayAdapterError('invalid_options', `Invalid maxConcurrentStarts: expected a whole number 1 or more, received ${String(maxConcurrentStarts)}`, { path: 'maxConcurrentStarts' });
  }
  const startSlots = createRunSlots({ limit: maxConcurrentStarts, maxQueued: mcpConfigs.length, what: 'server starts' });
  for (const config of mcpConfigs) {
    const server = config.name;
    const firstTransport = options.spawnedAhead?.take(config);
    const supervisor = new McpServerSupervisor(config, {
      logger: log,
      firstTransport,
      startSlots,
      connect: {
        ...pick(options.mcpClient ?? {}, ['roots', 'onElicitation', 'onSampling', 'logLevel', 'oauth']),
        // A server's log lines go to the host log and to the sessions with a call to it in flight.
        onLog: (entry) => serverLogs.deliver(entry),
      },
      requestTimeoutMs: options.mcpRequestTimeoutMs,
      backoff: options.restartBackoff,
      onReady: (connection) => registry.serverReady(server, connection),
      onToolsChanged: (change) => registry.serverChanged(server, change),
      onDown: (reason) => registry.serverDown(server, reason),
      onState: (state, reason) => {
        log.info({ server, state, reason }, 'mcp server state changed');
        if (state === 'restarting') gatewayInstruments().restarts.add(1, { 'tool_search.server': server });
      },
    });
    supervisors.set(server, supervisor);
  }
  const pins = mcpConfigs.flatMap((config) => (config.visible ?? []).map((name) => `mcp:${config.name}:${name}`));
  const policies = new PolicyCache({
    capacity: policyCacheSize,
    logger: rootLogger,
    buildView: (policy, context, limits) => registry.buildView(policy, context, limits),
  });
  const core = createHostCore({ options, rootLogger, registry, policies, supervisors, serverLogs, pins, runLimits: resolveCodeRunLimits(options.codeRuns) });
  const sessions = new Set<ToolSearchSession>();
  let closed = false;
  const unobserve = observeHost({
    catalogSizes: () => registry.catalog.sources(),
    upstreams: () => [...supervisors.values()].map((server) => ({ server: server.name, up: server.state === 'ready' })),
  });

  return {
    status: () => ({
      servers: [...supervisors.values()].map((server) => ({
        name: server.name,
        state: server.state,
        tools: registry.serverToolCount(server.name),
        ...(server.reason === undefined || server.state === 'ready' ? {} : { reason: server.reason }),
        restarts: server.restarts,
        withheld: server.withheld(),
      })),
      catalog: { size: registry.catalog.size, sources: registry.catalog.sources() },
      sessions: sessions.size,
      policyCache: policies.status(),
    }),
    mcpServers: () => [...supervisors.values()].map((supervisor) => mcpServerHandle(supervisor)),
    updateEmbeddings: () => registry.catalog.updateEmbeddings(),
    async openSession(sessionOptions) {
      if (closed) throw new GatewayAdapterError('session_closed', 'The tool-search host is closed: no session can be opened');
      const session = await openToolSearchSession(core, sessionOptions, { onClose: (closing) => sessions.delete(closing) });
      sessions.add(session);
      return session;
    },
    async close() {
      if (closed) return;
      closed = true;
      unobserve();
      await Promise.all([...sessions].map((session) => session.close()));
      await Promise.all([...supervisors.values()].map((server) => server.close()));
      await core.closeRunner();
      log.info({ servers: supervisors.size }, 'tool-search host closed');
    },
  };
}

/** What sessions read from the host: the registry, the servers, the runtime probe and the shared runner. */
function createHostCore(parts: {
  options: CreateToolSearchHostOptions;
  rootLogger: Logger;
  registry: HostRegistry;
  policies: PolicyCache;
  supervisors: ReadonlyMap<string, McpServerSupervisor>;
  serverLogs: ServerLogRouter;
  /** Tool ids the server configs pin (`visible`). */
  pins: string[];
  runLimits: { maxConcurrent: number; maxConcurrentPerSession: number; maxQueued: number };
}): HostCore & { closeRunner(): Promise<void> } {
  const { runLimits } = parts;
  const runSlots = createRunSlots({ limit: runLimits.maxConcurrent, maxQueued: runLimits.maxQueued, what: 'this server' });
  const { options, registry, supervisors, serverLogs } = parts;
  const startupTimeoutMs = options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  const allStarted = Promise.all([...supervisors.values()].map((server) => server.firstAttempt));
  let startupPending = supervisors.size > 0;
  const startupOver = () => {
    startupPending = false;
  };
  void allStarted.then(startupOver, startupOver);
  let startupWait: Promise<void> | undefined;
  let probe: Promise<ProbeResult> | undefined;
  let ownRunner: Runner | undefined;
  const surfaces = new WeakMap<object, Map<string, { version: number; surface: Surface }>>();
  return {
    rootLogger: parts.rootLogger,
    semantic: options.embedder !== undefined,
    openTelemetry: options.openTelemetry ?? {},
    env: options.env ?? {},
    validator: createArgsValidator(),
    version: () => registry.version(),
    view: (policy, context, limits) => registry.view(policy, context, limits),
    policyByContent: (config) => parts.policies.resolve(config),
    contentView: (policy, context, limits) => parts.policies.view(policy, context, limits),
    route: (id) => registry.route(id),
    surfaceMemo: (view) => {
      let memo = surfaces.get(view);
      if (memo === undefined) surfaces.set(view, (memo = new Map()));
      return memo;
    },
    policyTool: (descriptor) => registry.policyTool(descriptor),
    gone: (id) => registry.gone(id),
    toolsOfDownServer: (server) => registry.toolsOfDownServer(server),
    subscribe: (listener) => registry.subscribe(listener),
    serverDown: (server) => {
      const supervisor = supervisors.get(server);
      return supervisor === undefined || supervisor.state === 'ready' ? undefined : `MCP server "${server}" is ${supervisor.state}: ${supervisor.reason ?? 'not ready yet'}`;
    },
    unavailableServers: () => [...supervisors.values()].filter((server) => server.state !== 'ready').map((server) => server.name),
    startingServer: (server) => {
      const supervisor = supervisors.get(server);
      return supervisor?.state === 'starting' ? supervisor.firstAttempt : undefined;
    },
    startingWaitMs: options.startingWaitMs ?? DEFAULT_STARTING_WAIT_MS,
    callMcp: async (server, toolName, args, { onServerLog, ...callOptions }) => {
      const supervisor = supervisors.get(server);
      if (supervisor === undefined) return { ok: false, code: 'unavailable', message: `No MCP server "${server}" is configured` };
      const release = onServerLog === undefined ? undefined : serverLogs.listen(server, onServerLog);
      try {
        return await supervisor.callTool(toolName, args, callOptions);
      } finally {
        release?.();
      }
    },
    pinnedByServers: () => [...parts.pins, ...registry.alwaysLoadedIds()],
    readResource: async (server, uri, readOptions) => {
      const live = supervisors.get(server)?.live();
      if (live === undefined) return { ok: false, code: 'unavailable', message: `MCP server "${server}" is unavailable: ${supervisors.get(server)?.reason ?? 'not ready'}` };
      return live.readResource(uri, readOptions);
    },
    decideMode: (config, measureDirect) =>
      decideToolSearchMode(config, {
        probe: () => (probe ??= (options.probe ?? (() => probeRuntime()))()),
        measureDirect,
      }),
    runner: (decision: ToolSearchModeDecision) => {
      if (decision.mode !== 'code') return undefined;
      if (options.runner) return options.runner;
      // The engine the probe found: a Node child (with the binary it probed) or QuickJS-WASM in a worker.
      const runtime = decision.runtime;
      ownRunner ??= createRunner({
        logger: parts.rootLogger,
        pool: { size: options.sandboxPoolSize ?? DEFAULT_SANDBOX_POOL_SIZE },
        ...(runtime === undefined ? {} : { engine: runtime.engine, ...(runtime.engine === 'node' ? { nodePath: runtime.nodePath } : {}) }),
      });
      return ownRunner;
    },
    startupWait: () => (startupWait ??= raceTimeout(allStarted, startupTimeoutMs).then(startupOver)),
    startupPending: () => startupPending,
    runSlots: () => [
      createRunSlots({ limit: runLimits.maxConcurrentPerSession, maxQueued: runLimits.maxConcurrentPerSession * 2, what: 'this session' }),
      runSlots,
    ],
    closeRunner: async () => ownRunner?.close(),
  };
}

/** A server's pass-through methods, answering `unavailable` while it is not ready. */
function mcpServerHandle(supervisor: McpServerSupervisor): HostMcpServer {
  const down = () => ({ ok: false as const, code: 'unavailable' as const, message: `MCP server "${supervisor.name}" is ${supervisor.state}: ${supervisor.reason ?? 'not ready'}` });
  const live = () => supervisor.live();
  return {
    name: supervisor.name,
    get state() {
      return supervisor.state;
    },
    get instructions() {
      return live()?.instructions;
    },
    listResources: async () => (await live()?.listResources()) ?? down(),
    listResourceTemplates: async () => (await live()?.listResourceTemplates()) ?? down(),
    readResource: async (uri, readOptions) => (await live()?.readResource(uri, readOptions)) ?? down(),
    listPrompts: async () => (await live()?.listPrompts()) ?? down(),
    getPrompt: async (name, args, promptOptions) => (await live()?.getPrompt(name, args, promptOptions)) ?? down(),
    complete: async (ref, argument, context) => (await live()?.complete(ref, argument, context)) ?? down(),
  };
}

/** Hands each server log entry to the host log, and to whoever listens for that server now. */
class ServerLogRouter {
  private readonly listeners = new Map<string, Set<(entry: McpLogEntry) => void>>();
  constructor(private readonly log: Logger) {}

  listen(server: string, listener: (entry: McpLogEntry) => void): () => void {
    const set = this.listeners.get(server) ?? new Set();
    this.listeners.set(server, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  deliver(entry: McpLogEntry): void {
    const level = entry.level === 'debug' ? 'debug' : entry.level === 'info' || entry.level === 'notice' ? 'info' : 'warn';
    this.log[level]({ server: entry.server, serverLevel: entry.level, logger: entry.logger, message: entry.message.slice(0, 500) }, 'mcp server log');
    for (const listener of this.listeners.get(entry.server) ?? []) listener(entry);
  }
}

/** Validates the MCP server configs (strict, with the path of the first problem) and their unique names. */
function parseMcpConfigs(configs: readonly unknown[]): McpServerConfig[] {
  const seen = new Set<string>();
  return configs.map((server, index) => {
    const parsed = mcpServerConfigSchema.safeParse(server);
    if (!parsed.success) {
      const { message, path } = formatZodError(parsed.error, `sources.mcp[${index}]`);
      throw new GatewayAdapterError('invalid_options', `Invalid MCP server config: ${message}`, { path });
    }
    if (seen.has(parsed.data.name)) {
      throw new GatewayAdapterError('invalid_options', `Duplicate MCP server name "${parsed.data.name}"`, { path: `sources.mcp[${index}].name` });
    }
    seen.add(parsed.data.name);
    return parsed.data;
  });
}

/** OpenClaw and plugin tools as catalog entries, each with where it came from. */
function collectLocalTools(openclaw: readonly ExecutableTool[], plugins: Awaited<ReturnType<typeof loadPluginTools>>): LocalTool[] {
  const local = (tool: ExecutableTool, source: 'openclaw' | 'plugin', owner: string, where: string): LocalTool => {
    const input: LocalTool['input'] = { name: tool.name, source, owner: tool.owner ?? owner };
    if (tool.description !== undefined) input.description = tool.description;
    if (tool.inputSchema !== undefined) input.inputSchema = tool.inputSchema;
    if (tool.outputSchema !== undefined) input.outputSchema = tool.outputSchema;
    if (tool.tags !== undefined) input.tags = tool.tags;
    return { input, ownerOnly: tool.ownerOnly === true, tool, where };
  };
  return [
    ...openclaw.map((tool, index) => local(tool, 'openclaw', 'core', `sources.openclaw[${index}]`)),
    ...plugins.flatMap((plugin, pluginIndex) => plugin.tools.map((tool, index) => local(tool, 'plugin', plugin.name, `sources.plugins[${pluginIndex}].tools[${index}]`))),
  ];
}

/** Resolves when `promise` settles or after `ms`, whichever is first (never rejects). */
function raceTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  if (!Number.isFinite(ms)) return promise.then(() => undefined, () => undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    promise.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}
