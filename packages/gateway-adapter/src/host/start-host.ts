// Starts the long-lived part of a host: loads plugins and starts MCP servers once, keeps one catalog, restarts
// what dies. Nothing here knows a session: sessions read the host through the `HostCore` it returns.
import { wordnetThesaurus } from '@tool-search/catalog/wordnet';
import type { EmbeddingUpdate } from '@tool-search/catalog';
import pino, { type Logger } from 'pino';
import { GatewayAdapterError } from '../errors.js';
import { DEFAULT_MAX_CONCURRENT_STARTS, McpServerSupervisor } from '../mcp-client/index.js';
import { gatewayInstruments, observeHost } from '../otel/gateway-instruments.js';
import { pickDefined as pick } from '../pick-defined.js';
import type { McpServerConfig } from '../schemas.js';
import { createRunSlots } from '../shared/index.js';
import { collectLocalTools } from './collect-local-tools.js';
import { createHostCore } from './create-host-core.js';
import type { HostCore } from './host-core.js';
import type { CreateToolSearchHostOptions } from './host-options.js';
import { HostRegistry } from './host-registry.js';
import type { HostMcpServer, HostStatus } from './host-status.js';
import { loadPluginTools } from './load-plugin-tools.js';
import { mcpServerHandle } from './mcp-server-handle.js';
import { parseMcpConfigs } from './parse-mcp-configs.js';
import { DEFAULT_POLICY_CACHE_SIZE, PolicyCache } from './policy-cache.js';
import { resolveCodeRunLimits, type ResolvedCodeRunLimits } from './resolve-code-run-limits.js';
import { ServerLogRouter } from './server-log-router.js';

/** A started host: what its sessions read, and what its owner asks of it. */
export interface StartedHost {
  readonly core: HostCore;
  /** The host's status, with the number of sessions its owner has open. */
  status(sessions: number): HostStatus;
  mcpServers(): HostMcpServer[];
  updateEmbeddings(): Promise<EmbeddingUpdate>;
  /** Stops the MCP servers and the runner the host created. */
  close(): Promise<void>;
}

/** The host's options, checked before anything is loaded or started. */
interface CheckedHostOptions {
  mcpConfigs: McpServerConfig[];
  policyCacheSize: number;
  maxConcurrentStarts: number;
  runLimits: ResolvedCodeRunLimits;
}

/**
 * Starts a host: loads the plugins (a plugin that cannot be loaded throws `plugin_load_failed`), catalogues the
 * local tools, and starts every MCP server in parallel without waiting for them. A server that becomes ready
 * later joins the catalog; one that dies is restarted with backoff, its tools unavailable meanwhile.
 */
export async function startHost(options: CreateToolSearchHostOptions): Promise<StartedHost> {
  const checked = checkHostOptions(options);
  const rootLogger = options.logger ?? pino({ level: 'silent' });
  const log = rootLogger.child({ pkg: 'gateway-adapter', component: 'host' });
  const plugins = await loadPluginTools(options.sources?.plugins ?? [], options.cwd === undefined ? {} : { cwd: options.cwd });
  const thesaurus = options.thesaurus === false ? undefined : (options.thesaurus ?? wordnetThesaurus());
  const registry = new HostRegistry({ logger: log, catalogLogger: rootLogger, embedder: options.embedder, embeddingCache: options.embeddingCache, thesaurus });
  registry.addLocal(collectLocalTools(options.sources?.openclaw ?? [], plugins));
  const serverLogs = new ServerLogRouter(log);
  const supervisors = startSupervisors(checked, options, { log, registry, serverLogs });
  const pins = checked.mcpConfigs.flatMap((config) => (config.visible ?? []).map((name) => `mcp:${config.name}:${name}`));
  const policies = new PolicyCache({
    capacity: checked.policyCacheSize,
    logger: rootLogger,
    buildView: (policy, context, limits) => registry.buildView(policy, context, limits),
  });
  const core = createHostCore({ options, rootLogger, registry, policies, supervisors, serverLogs, pins, runLimits: checked.runLimits });
  const unobserve = observeHost({
    catalogSizes: () => registry.catalog.sources(),
    upstreams: () => [...supervisors.values()].map((server) => ({ server: server.name, up: server.state === 'ready' })),
  });
  return {
    core,
    status: (sessions) => ({
      servers: [...supervisors.values()].map((server) => ({
        name: server.name,
        state: server.state,
        tools: registry.serverToolCount(server.name),
        ...(server.reason === undefined || server.state === 'ready' ? {} : { reason: server.reason }),
        restarts: server.restarts,
        withheld: server.withheld(),
      })),
      catalog: { size: registry.catalog.size, sources: registry.catalog.sources() },
      sessions,
      policyCache: policies.status(),
    }),
    mcpServers: () => [...supervisors.values()].map((supervisor) => mcpServerHandle(supervisor)),
    updateEmbeddings: () => registry.catalog.updateEmbeddings(),
    async close() {
      unobserve();
      await Promise.all([...supervisors.values()].map((server) => server.close()));
      await core.closeRunner();
      log.info({ servers: supervisors.size }, 'tool-search host closed');
    },
  };
}

/** Validates every option with a rule (MCP configs, cache size, start and run limits), each naming its path. */
function checkHostOptions(options: CreateToolSearchHostOptions): CheckedHostOptions {
  const mcpConfigs = parseMcpConfigs(options.sources?.mcp ?? []);
  const policyCacheSize = options.policyCacheSize ?? DEFAULT_POLICY_CACHE_SIZE;
  if (!Number.isSafeInteger(policyCacheSize) || policyCacheSize < 0) {
    throw new GatewayAdapterError('invalid_options', `Invalid policyCacheSize: expected a whole number 0 or more, received ${String(policyCacheSize)}`, { path: 'policyCacheSize' });
  }
  const maxConcurrentStarts = options.maxConcurrentStarts ?? DEFAULT_MAX_CONCURRENT_STARTS;
  if (!Number.isSafeInteger(maxConcurrentStarts) || maxConcurrentStarts < 1) {
    throw new GatewayAdapterError('invalid_options', `Invalid maxConcurrentStarts: expected a whole number 1 or more, received ${String(maxConcurrentStarts)}`, { path: 'maxConcurrentStarts' });
  }
  return { mcpConfigs, policyCacheSize, maxConcurrentStarts, runLimits: resolveCodeRunLimits(options.codeRuns) };
}

/** One supervisor per configured server, started at once; a server's events feed the registry and the log. */
function startSupervisors(
  checked: CheckedHostOptions,
  options: CreateToolSearchHostOptions,
  to: { log: Logger; registry: HostRegistry; serverLogs: ServerLogRouter },
): Map<string, McpServerSupervisor> {
  const { log, registry, serverLogs } = to;
  const supervisors = new Map<string, McpServerSupervisor>();
  const startSlots = createRunSlots({ limit: checked.maxConcurrentStarts, maxQueued: checked.mcpConfigs.length, scope: 'server' });
  for (const config of checked.mcpConfigs) {
    const server = config.name;
    const supervisor = new McpServerSupervisor(config, {
      logger: log,
      firstTransport: options.spawnedAhead?.take(config),
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
  return supervisors;
}
