// `tool-search serve`: tool search in front of the configured MCP servers, as an MCP server on stdio (one client)
// or Streamable HTTP (one session per client), until the client goes away or the process is told to stop.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { createToolSearchMcpServer } from '@tool-search/mcp-server';
import { isGatewayAdapterError, resolveToolSearchConfig, spawnStdioServersAhead } from '@tool-search/gateway-adapter/startup';
import { CliError } from '../cli-error.js';
import { modeFlag, type CommandRun, type CommandContext } from '../command.js';
import { withMode } from '../load-config.js';
import type { StartedHost } from '../start-host.js';
import type { RedisStore } from '@tool-search/redis-store';

const DEFAULT_DRAIN_TIMEOUT_MS = 5_000;
/** The variable holding the secret that signs modern `requestState`, shared by replicas. */
const STATE_SECRET_ENV = 'TOOL_SEARCH_STATE_SECRET';
/** The secret's shortest length (the SDK's codec key is at least 32 bytes). */
const MIN_STATE_SECRET_BYTES = 32;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** `tool-search serve` (see its summary in `run-cli.ts`). */
export const runServe: CommandRun = async (context) => {
    // The command line first: a usage error does not wait for the config.
    const mode = modeFlag(context);
    const http = context.flags.http === undefined ? undefined : parseListen(context.flags.http);
    const requestStateSecret = stateSecret(context);
    const config = context.config();
    const toolSearch = withMode(config.toolSearch, mode);
    // A mode the gateway does not know fails here, before any server starts.
    if (mode !== undefined) checkMode(toolSearch, mode);
    // Traces go to an OTLP endpoint when the standard OTEL_* variables name one (a bad protocol fails here, before
    // any server starts); over HTTP the metrics are served at /metrics. Both are registered before the host starts.
    const tracing = await (await import('../start-otlp-tracing.js')).startOtlpTracing(context.io.env, context.version);
    if (tracing !== undefined) context.output.progress(`tool-search: traces to ${tracing.endpoint} (OTLP ${tracing.protocol})`);
    const prometheus = http === undefined ? undefined : (await import('../start-prometheus-metrics.js')).startPrometheusMetrics(context.version);
    try {
      await serveWithHost(context, { config, toolSearch, http, metrics: prometheus?.handle, requestStateSecret });
    } finally {
      await prometheus?.close();
      await tracing?.close();
    }
    return 0;
};

/** Starts the host (its stdio servers spawned ahead) and serves it until the client goes or serve is stopped. */
async function serveWithHost(
  context: CommandContext,
  options: { config: ReturnType<CommandContext['config']>; toolSearch: unknown; http: { host: string; port: number } | undefined; metrics: MetricsHandler | undefined; requestStateSecret: string | undefined },
): Promise<void> {
  // The shared store first: an unreachable Redis stops serve before any server starts.
  const store = context.flags.store === undefined ? undefined : await connectStore(context, context.flags.store, options.requestStateSecret);
  try {
    await serveWithStore(context, options, store);
  } finally {
    await store?.close();
  }
}

/**
 * Connects `serve --store URL` (Redis), signing what it puts there with the state secret; a bad URL or an unreachable
 * Redis is a config error naming it.
 */
async function connectStore(context: CommandContext, url: string, secret: string | undefined) {
  const { connectRedisStore, isRedisStoreError } = await import('@tool-search/redis-store');
  try {
    const store = await connectRedisStore(url, { secret: secret ?? '', logger: context.logger });
    context.output.progress(`tool-search: shared state in Redis at ${new URL(url).host}`);
    return store;
  } catch (error) {
    if (isRedisStoreError(error)) throw new CliError('config', `--store: ${error.message}`, { cause: error });
    throw error;
  }
}

/** The signing secret of the modern front's `requestState`, from TOOL_SEARCH_STATE_SECRET (replicas share it). */
function stateSecret(context: CommandContext): string | undefined {
  const secret = context.io.env[STATE_SECRET_ENV];
  if (secret === undefined || secret === '') {
    // Replicas sign what they pass through Redis with it: without it, anyone who can write to Redis could answer a call.
    if (context.flags.store !== undefined) {
      throw new CliError('usage', `--store needs ${STATE_SECRET_ENV}, the secret every replica shares: it signs the 2026-07-28 requestState and every message the replicas pass through Redis (at least ${MIN_STATE_SECRET_BYTES} bytes, for example: openssl rand -base64 32)`);
    }
    return undefined;
  }
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_STATE_SECRET_BYTES) {
    throw new CliError('usage', `${STATE_SECRET_ENV} is ${bytes} bytes long; it must be at least ${MIN_STATE_SECRET_BYTES} (for example: openssl rand -base64 32)`);
  }
  return secret;
}

async function serveWithStore(
  context: CommandContext,
  options: { config: ReturnType<CommandContext['config']>; toolSearch: unknown; http: { host: string; port: number } | undefined; metrics: MetricsHandler | undefined; requestStateSecret: string | undefined },
  store: RedisStore | undefined,
): Promise<void> {
  const tokenStore = store?.tokenStore;
  const { config, toolSearch, http } = options;
  // The stdio servers start now, while the rest of the gateway (the MCP client, the catalog's search, the
  // sandbox runner) and the MCP server side load: their start-up overlaps serve's own instead of following it.
  const spawnedAhead = spawnStdioServersAhead(config.servers);
  let started: StartedHost;
  try {
    const { startHost } = await import('../start-host.js');
    started = await startHost(config, { logger: context.logger, output: context.output, interactiveOAuth: true, spawnedAhead, tokenStore });
  } finally {
    // Those the host did not take (none, unless it failed to start) are stopped.
    await spawnedAhead.close();
  }
  // Loaded while the servers start (see startHost).
  const mcpServer = await import('@tool-search/mcp-server');
  const sessionOptions = {
    host: started.host,
    config: toolSearch,
    policy: config.policy,
    context: config.context,
    visible: config.visible,
    relay: started.relay,
    logger: context.logger,
    serverInfo: { name: 'tool-search', version: context.version },
    callTimeoutMs: config.callTimeoutMs,
    requestStateSecret: options.requestStateSecret,
    inputCallRendezvous: store?.rendezvous,
    approvals: config.approvals === 'client' ? (await import('../create-client-approvals.js')).createClientApprovals(started.relay) : undefined,
  };
  try {
    if (http === undefined) await serveStdio(context, sessionOptions, mcpServer);
    else await serveHttp(context, http, { ...sessionOptions, metrics: options.metrics, eventBus: store?.eventBus }, mcpServer);
  } finally {
    await started.close();
  }
}

/** Answers `GET /metrics`. */
type MetricsHandler = (request: IncomingMessage, response: ServerResponse) => void;

function checkMode(toolSearch: unknown, mode: string): void {
  try {
    resolveToolSearchConfig(toolSearch);
  } catch (error) {
    if (!isGatewayAdapterError(error)) throw error;
    throw new CliError('config', `--mode ${mode}: ${error.message}`);
  }
}

type SessionOptions = Parameters<typeof createToolSearchMcpServer>[0];
type McpServerModule = typeof import('@tool-search/mcp-server');

async function serveStdio(context: CommandContext, options: SessionOptions, { createToolSearchMcpServer, createGuardedStdioTransport, serveStdioByEra }: McpServerModule): Promise<void> {
  const front = await createToolSearchMcpServer(options);
  const ended = stopSignal(context, () => context.io.stdin);
  const transport = createGuardedStdioTransport({ stdin: context.io.stdin, stdout: context.io.stdout, logger: context.logger });
  // A 2025 client is served by this front; a client whose first message is a 2026-07-28 one, statelessly.
  const served = await serveStdioByEra({ front, transport, modern: options, logger: context.logger });
  context.output.progress(`tool-search: serving MCP on stdio (${describeDecision(front.session.decision)})`);
  const why = await ended;
  // Told to stop, the client is still there: its calls in flight finish (up to the drain timeout) or are answered.
  if (why !== 'stdin ended') context.logger.info(await transport.drain(drainTimeoutMs(context)), 'stdio drained');
  await served.close();
}

/** How long in-flight calls may take to finish once serve is told to stop. Default 5,000 ms. */
function drainTimeoutMs(context: CommandContext): number {
  return context.config().drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
}

async function serveHttp(
  context: CommandContext,
  listen: { host: string; port: number },
  options: SessionOptions & { metrics: MetricsHandler | undefined; eventBus: RedisStore['eventBus'] | undefined },
  { createToolSearchHttpHandler }: McpServerModule,
): Promise<void> {
  const config = context.config();
  const hostname = listen.host.startsWith('[') ? listen.host : listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  const extraHosts = [...(context.flags['allowed-host'] ?? []), ...(config.http.allowedHosts ?? [])];
  if (!LOOPBACK.has(listen.host) && extraHosts.length === 0) {
    throw new CliError('usage', `serve --http ${listen.host}:${listen.port} listens beyond this machine: name the hostnames clients use with --allowed-host (and set a token with --token-env)`);
  }
  const tokenEnv = context.flags['token-env'] ?? (context.io.env['TOOL_SEARCH_TOKEN'] === undefined ? undefined : 'TOOL_SEARCH_TOKEN');
  const token = tokenEnv === undefined ? undefined : context.io.env[tokenEnv];
  if (tokenEnv !== undefined && (token === undefined || token === '')) throw new CliError('usage', `--token-env ${tokenEnv}: the environment variable ${tokenEnv} is not set`);
  const allowedHosts = [...new Set([...(LOOPBACK.has(listen.host) ? ['localhost', '127.0.0.1', '[::1]'] : [hostname]), ...extraHosts])];
  const server = createServer();
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new CliError('io', `cannot listen on ${listen.host}:${listen.port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}`)),
    );
    server.listen(listen.port, listen.host === 'localhost' ? '127.0.0.1' : listen.host.replace(/^\[|\]$/g, ''), () => resolve((server.address() as AddressInfo).port));
  });
  const origins = [...(context.flags['allowed-origin'] ?? []), ...(config.http.allowedOrigins ?? [])];
  const handler = createToolSearchHttpHandler({
    ...options,
    allowedHosts,
    allowedOrigins: [...allowedHosts.flatMap((name) => [`http://${name}:${port}`, `https://${name}:${port}`]), ...origins],
    token,
    maxSessions: config.http.maxSessions,
    maxSessionsPerClient: config.http.maxSessionsPerClient,
    idleTimeoutMs: config.http.idleTimeoutMs,
  });
  server.on('request', (request, response) => void handler.handle(request, response));
  const url = `http://${hostname}:${port}/mcp`;
  context.output.progress(`tool-search: serving MCP on ${url}${token === undefined ? '' : ' (bearer token required)'}; Prometheus metrics on /metrics`);
  context.output.result({ url, port });
  await stopSignal(context, undefined);
  // Requests are answered 503 (not refused at the socket: a client reads why) while the calls in flight drain.
  await handler.close({ drainTimeoutMs: drainTimeoutMs(context) });
  const stopped = new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  await stopped;
}

/** The mode a session renders, and why when it is not the one asked for (auto's choice, code mode's fallback). */
function describeDecision(decision: { mode: string; requestedMode: string; fallbackReason?: string; autoReason?: string }): string {
  if (decision.autoReason !== undefined) return `mode ${decision.mode}, chosen by auto: ${decision.autoReason}`;
  if (decision.fallbackReason !== undefined) return `mode ${decision.mode}, ${decision.requestedMode} unavailable: ${decision.fallbackReason}`;
  return `mode ${decision.mode}`;
}

/** `[HOST:]PORT` (an IPv6 host in brackets). */
function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(value);
  const port = match === null ? Number.NaN : Number(match[2]);
  if (match === null || port > 65_535) throw new CliError('usage', `--http ${value}: expected [HOST:]PORT, for example 127.0.0.1:8765 or 8765`);
  return { host: match[1] ?? '127.0.0.1', port };
}

/** Resolves on SIGINT or SIGTERM, or when `stdin()` ends (the stdio client went away), with which. */
function stopSignal(context: CommandContext, stdin: (() => NodeJS.ReadableStream) | undefined): Promise<'SIGINT' | 'SIGTERM' | 'stdin ended'> {
  return new Promise((resolve) => {
    const stop = (why: 'SIGINT' | 'SIGTERM' | 'stdin ended') => {
      context.logger.info({ why }, 'stopping');
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onTerminate);
      resolve(why);
    };
    const onInterrupt = () => stop('SIGINT');
    const onTerminate = () => stop('SIGTERM');
    process.once('SIGINT', onInterrupt);
    process.once('SIGTERM', onTerminate);
    stdin?.().once('end', () => stop('stdin ended'));
  });
}
