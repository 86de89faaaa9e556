// What sessions read from the host, assembled from the host's parts: the registry, the servers, the start-up
// wait, the runtime probe and the shared runner. Each group is built by its own step below.
import { renderErrorText, type Surface } from '@tool-search/modes';
import { createRunner, probeRuntime, type ProbeResult, type Runner } from '@tool-search/sandbox-runner';
import type { Logger } from 'pino';
import { decideToolSearchMode, type ToolSearchModeDecision } from '../decide-tool-search-mode.js';
import type { McpServerSupervisor } from '../mcp-client/index.js';
import { createRunSlots } from '../shared/index.js';
import { createArgsValidator } from './create-args-validator.js';
import type { HostCore } from './host-core.js';
import type { CreateToolSearchHostOptions } from './host-options.js';
import type { HostRegistry } from './host-registry.js';
import type { PolicyCache } from './policy-cache.js';
import type { ResolvedCodeRunLimits } from './resolve-code-run-limits.js';
import type { ServerLogRouter } from './server-log-router.js';

const DEFAULT_STARTUP_TIMEOUT_MS = 5_000;
const DEFAULT_STARTING_WAIT_MS = 3_000;
/** Sandbox children kept warm for the host's code-mode sessions. */
const DEFAULT_SANDBOX_POOL_SIZE = 2;

/** The parts of a started host that its sessions read. */
export interface HostCoreParts {
  options: CreateToolSearchHostOptions;
  rootLogger: Logger;
  registry: HostRegistry;
  policies: PolicyCache;
  supervisors: ReadonlyMap<string, McpServerSupervisor>;
  serverLogs: ServerLogRouter;
  /** Tool ids the server configs pin (`visible`). */
  pins: string[];
  runLimits: ResolvedCodeRunLimits;
}

/** What sessions read from the host: the registry, the servers, the runtime probe and the shared runner. */
export function createHostCore(parts: HostCoreParts): HostCore & { closeRunner(): Promise<void> } {
  const { options, registry } = parts;
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
    pinnedByServers: () => [...parts.pins, ...registry.alwaysLoadedIds()],
    ...serverAccess(parts.supervisors, parts.serverLogs, options.startingWaitMs ?? DEFAULT_STARTING_WAIT_MS),
    ...startupTracking(parts.supervisors, options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS),
    ...codeRuns(options, parts.rootLogger, parts.runLimits),
  };
}

/** The configured MCP servers as sessions reach them: their state, their first start, their tools and resources. */
function serverAccess(
  supervisors: ReadonlyMap<string, McpServerSupervisor>,
  serverLogs: ServerLogRouter,
  startingWaitMs: number,
): Pick<HostCore, 'serverDown' | 'unavailableServers' | 'startingServer' | 'startingWaitMs' | 'callMcp' | 'readResource'> {
  return {
    serverDown: (server) => {
      const supervisor = supervisors.get(server);
      return supervisor === undefined || supervisor.state === 'ready' ? undefined : { state: supervisor.state, reason: supervisor.reason ?? 'not ready yet' };
    },
    unavailableServers: () => [...supervisors.values()].filter((server) => server.state !== 'ready').map((server) => server.name),
    startingServer: (server) => {
      const supervisor = supervisors.get(server);
      return supervisor?.state === 'starting' ? supervisor.firstAttempt : undefined;
    },
    startingWaitMs,
    callMcp: async (server, toolName, args, { onServerLog, ...callOptions }) => {
      const supervisor = supervisors.get(server);
      if (supervisor === undefined) return { ok: false, code: 'unavailable', message: renderErrorText({ kind: 'server_not_configured', server }) };
      const release = onServerLog === undefined ? undefined : serverLogs.listen(server, onServerLog);
      try {
        return await supervisor.callTool(toolName, args, callOptions);
      } finally {
        release?.();
      }
    },
    readResource: async (server, uri, readOptions) => {
      const live = supervisors.get(server)?.live();
      if (live === undefined) return { ok: false, code: 'unavailable', message: renderErrorText({ kind: 'server_not_ready', server, state: 'unavailable', reason: supervisors.get(server)?.reason ?? 'not ready' }) };
      return live.readResource(uri, readOptions);
    },
  };
}

/** The first start of the servers: the first session waits for it (bounded), and surfaces say while it lasts. */
function startupTracking(supervisors: ReadonlyMap<string, McpServerSupervisor>, startupTimeoutMs: number): Pick<HostCore, 'startupWait' | 'startupPending'> {
  const allStarted = Promise.all([...supervisors.values()].map((server) => server.firstAttempt));
  let startupPending = supervisors.size > 0;
  const startupOver = () => {
    startupPending = false;
  };
  void allStarted.then(startupOver, startupOver);
  let startupWait: Promise<void> | undefined;
  return {
    startupWait: () => (startupWait ??= raceTimeout(allStarted, startupTimeoutMs).then(startupOver)),
    startupPending: () => startupPending,
  };
}

/** Code mode: the runtime probe (once per host), the shared runner (created on first use) and the run slots. */
function codeRuns(
  options: CreateToolSearchHostOptions,
  rootLogger: Logger,
  runLimits: ResolvedCodeRunLimits,
): Pick<HostCore, 'decideMode' | 'runner' | 'runSlots'> & { closeRunner(): Promise<void> } {
  const runSlots = createRunSlots({ limit: runLimits.maxConcurrent, maxQueued: runLimits.maxQueued, scope: 'server' });
  let probe: Promise<ProbeResult> | undefined;
  let ownRunner: Runner | undefined;
  return {
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
        logger: rootLogger,
        pool: { size: options.sandboxPoolSize ?? DEFAULT_SANDBOX_POOL_SIZE },
        ...(runtime === undefined ? {} : { engine: runtime.engine, ...(runtime.engine === 'node' ? { nodePath: runtime.nodePath } : {}) }),
      });
      return ownRunner;
    },
    runSlots: () => [
      createRunSlots({ limit: runLimits.maxConcurrentPerSession, maxQueued: runLimits.maxConcurrentPerSession * 2, scope: 'session' }),
      runSlots,
    ],
    closeRunner: async () => ownRunner?.close(),
  };
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
