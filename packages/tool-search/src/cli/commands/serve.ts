// `tool-search serve`: tool search in front of the configured MCP servers, as an MCP server on stdio (one client)
// or Streamable HTTP (one session per client), until the client goes away or the process is told to stop.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { createToolSearchMcpServer } from '@tool-search/mcp-server';
import { isGatewayAdapterError, resolveToolSearchConfig, spawnStdioServersAhead } from '@tool-search/gateway-adapter/startup';
import { CliError } from '../cli-error.js';
import { modeFlag, type CommandRun, type CommandContext } from '../command.js';
import { withMode } from '../load-config.js';
import { limitHeapGrowth } from '../limit-heap-growth.js';
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
    if (http === undefined) refuseHttpOnlyFlags(context);
    const requestStateSecret = stateSecret(context);
    const config = context.config();
    const toolSearch = withMode(config.toolSearch, mode);
    // A mode the gateway does not know fails here, before any server starts.
    if (mode !== undefined) checkMode(toolSearch, mode);
    // Who may call and who may scrape, then the port itself: a missing token, a host beyond loopback without
    // --allowed-host, a busy port or an address this machine does not have all fail here, before any server starts.
    const access = http === undefined ? undefined : httpAccess(context, http);
    const listening = http === undefined || access === undefined ? undefined : await listenEarly(http);
    let sessionLog: ReturnType<typeof openSessionLog>;
    try {
      sessionLog = openSessionLog(context);
      if (access !== undefined && listening !== undefined) warnAboutAccess(context, access, listening.url);
      // Traces go to an OTLP endpoint when the standard OTEL_* variables name one (a bad protocol fails here, before
      // any server starts); over HTTP the metrics are served at /metrics. Both are registered before the host starts.
      const tracing = await (await import('../start-otlp-tracing.js')).startOtlpTracing(context.io.env, context.version);
      if (tracing !== undefined) context.output.progress(`tool-search: traces to ${tracing.endpoint} (OTLP ${tracing.protocol})`);
      const prometheus = http === undefined ? undefined : (await import('../start-prometheus-metrics.js')).startPrometheusMetrics(context.version);
      try {
        const served = listening === undefined || access === undefined ? undefined : { ...listening, access };
        await serveWithHost(context, { config, toolSearch, http: served, metrics: prometheus?.handle, requestStateSecret, sessionLog: sessionLog?.target });
      } finally {
        await prometheus?.close();
        await tracing?.close();
      }
    } finally {
      await listening?.close();
      sessionLog?.close();
    }
    return 0;
};

/** What `serveWithHost` serves with: the config, and over HTTP the socket already listening and its access rules. */
interface ServeOptions {
  config: ReturnType<CommandContext['config']>;
  toolSearch: unknown;
  http: (ListeningHttp & { access: HttpAccess }) | undefined;
  metrics: MetricsHandler | undefined;
  requestStateSecret: string | undefined;
  sessionLog: { destination: { write(line: string): void } } | undefined;
}

/** Starts the host (its stdio servers spawned ahead) and serves it until the client goes or serve is stopped. */
async function serveWithHost(context: CommandContext, options: ServeOptions): Promise<void> {
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

async function serveWithStore(context: CommandContext, options: ServeOptions, store: RedisStore | undefined): Promise<void> {
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
    sessionLog: options.sessionLog,
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
  // One client's large calls and answers pass through: keep their dead copies from piling up (limit-heap-growth.ts).
  limitHeapGrowth();
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
  listening: ListeningHttp & { access: HttpAccess },
  options: SessionOptions & { metrics: MetricsHandler | undefined; eventBus: RedisStore['eventBus'] | undefined },
  { createToolSearchHttpHandler }: McpServerModule,
): Promise<void> {
  const config = context.config();
  const { access, port, url } = listening;
  const { metrics, ...sessionOptions } = options;
  const origins = [...(context.flags['allowed-origin'] ?? []), ...(config.http.allowedOrigins ?? [])];
  const allowedOrigins = [...access.allowedHosts.flatMap((name) => [`http://${name}:${port}`, `https://${name}:${port}`]), ...origins];
  // /metrics takes its own token, never the clients' (the handler's rule); without one it answers only where
  // nobody needs a token at all (loopback, no client token), else 403 naming the flag.
  const handler = createToolSearchHttpHandler({
    ...sessionOptions,
    allowedHosts: access.allowedHosts,
    allowedOrigins,
    token: access.token,
    metrics: metrics === undefined ? undefined : access.metricsToken !== undefined || access.metricsOpen ? metrics : refuseMetrics,
    metricsToken: access.metricsToken,
    maxSessions: config.http.maxSessions,
    maxSessionsPerClient: config.http.maxSessionsPerClient,
    idleTimeoutMs: config.http.idleTimeoutMs,
    maxPendingInputCalls: config.http.maxPendingInputCalls,
    maxPendingInputCallsPerClient: config.http.maxPendingInputCallsPerClient,
  });
  listening.serve((request, response) => void handler.handle(request, response));
  const scraping = metrics === undefined ? '' : access.metricsToken !== undefined ? '; Prometheus metrics on /metrics (their own bearer token)' : access.metricsOpen ? '; Prometheus metrics on /metrics' : '';
  context.output.progress(`tool-search: serving MCP on ${url}${access.token === undefined ? '' : ' (bearer token required)'}${scraping}`);
  context.output.result({ url, port });
  await stopSignal(context, undefined);
  // No new connection from now on: a balancer's is refused, so it tries another replica (a POST too: nothing ran
  // here). A request on a connection already open is answered 503 while the calls in flight drain.
  listening.stopAccepting();
  await handler.close({ drainTimeoutMs: drainTimeoutMs(context) });
}

/** `/metrics` where it has no token and clients would need none: beyond loopback with --no-auth. */
const refuseMetrics: MetricsHandler = (_request, response) => {
  response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Forbidden: /metrics has no token of its own; start serve with --metrics-token-env NAME to scrape it\n');
};

/** Who may reach `serve --http`: the hostnames it answers to, the clients' token, the metrics token. */
interface HttpAccess {
  allowedHosts: string[];
  /** The MCP clients' bearer token; undefined: none (loopback, or beyond it with --no-auth). */
  token: string | undefined;
  /** `/metrics`'s own bearer token. */
  metricsToken: string | undefined;
  /** /metrics answers without a token: loopback, where no client needs a token either. */
  metricsOpen: boolean;
  loopback: boolean;
  noAuth: boolean;
}

/** The variable read for the clients' token when --token-env is not given, and for the metrics token. */
const TOKEN_ENV = 'TOOL_SEARCH_TOKEN';
const METRICS_TOKEN_ENV = 'TOOL_SEARCH_METRICS_TOKEN';

/** Checks who may call `serve --http HOST:PORT` before anything starts; every refusal names the flag to use. */
function httpAccess(context: CommandContext, listen: { host: string; port: number }): HttpAccess {
  const config = context.config();
  const where = `serve --http ${listen.host}:${listen.port}`;
  const loopback = LOOPBACK.has(listen.host);
  const extraHosts = [...(context.flags['allowed-host'] ?? []), ...(config.http.allowedHosts ?? [])];
  if (!loopback && extraHosts.length === 0) {
    throw new CliError('usage', `${where} listens beyond this machine: name the hostnames clients use with --allowed-host (and set a token with --token-env)`);
  }
  const token = tokenFrom(context, '--token-env', context.flags['token-env'], TOKEN_ENV);
  const metricsToken = tokenFrom(context, '--metrics-token-env', context.flags['metrics-token-env'], METRICS_TOKEN_ENV);
  const noAuth = context.flags['no-auth'] === true;
  if (noAuth && token !== undefined) {
    throw new CliError('usage', `${where}: --no-auth and a client token (${context.flags['token-env'] ?? TOKEN_ENV}) contradict each other; drop one`);
  }
  if (!loopback && token === undefined && !noAuth) {
    throw new CliError(
      'usage',
      `${where} listens beyond this machine without a token: anyone who reaches it could call every tool with your servers' credentials. Set one with --token-env NAME (or ${TOKEN_ENV}), or pass --no-auth to serve without one`,
    );
  }
  if (metricsToken !== undefined && metricsToken === token) {
    throw new CliError('usage', `${where}: --metrics-token-env holds the MCP clients' token; /metrics needs a token of its own`);
  }
  const hostname = bracketed(listen.host);
  const allowedHosts = [...new Set([...(loopback ? ['localhost', '127.0.0.1', '[::1]'] : [hostname]), ...extraHosts])];
  return { allowedHosts, token, metricsToken, metricsOpen: loopback && token === undefined, loopback, noAuth };
}

/** The token in the variable `--flag NAME` names, or in `fallback` when that is set; a named variable that is unset is a usage error. */
function tokenFrom(context: CommandContext, flag: string, named: string | undefined, fallback: string): string | undefined {
  const name = named ?? (context.io.env[fallback] === undefined ? undefined : fallback);
  if (name === undefined) return undefined;
  const value = context.io.env[name];
  if (value === undefined || value === '') throw new CliError('usage', `${flag} ${name}: the environment variable ${name} is not set`);
  return value;
}

/** Says once on stderr (even with --quiet) who can call every tool when no token guards the endpoint. */
function warnAboutAccess(context: CommandContext, access: HttpAccess, url: string): void {
  if (access.token !== undefined) return;
  const who = access.loopback ? 'any local user' : `anyone who can reach ${url}`;
  const because = access.noAuth ? ' (--no-auth)' : '';
  context.io.stderr.write(`tool-search: warning: no token on ${url}${because}: ${who} can call every tool with your servers' credentials; set one with --token-env NAME\n`);
}

/** --no-auth and --metrics-token-env mean nothing on stdio: saying them there is a mistake worth naming. */
function refuseHttpOnlyFlags(context: CommandContext): void {
  for (const flag of ['no-auth', 'metrics-token-env'] as const) {
    if (context.flags[flag] !== undefined) throw new CliError('usage', `serve --${flag} applies to --http only (serve without --http speaks stdio to one client)`);
  }
}

/** A socket listening for `serve --http`, bound before any server starts; requests wait until `serve` is called. */
interface ListeningHttp {
  port: number;
  url: string;
  serve(route: (request: IncomingMessage, response: ServerResponse) => void): void;
  /** Refuses new connections from now on (those open stay, until `close`). */
  stopAccepting(): void;
  close(): Promise<void>;
}

/** Binds HOST:PORT now: a busy port or an address this machine does not have fails before any server starts. */
async function listenEarly(listen: { host: string; port: number }): Promise<ListeningHttp> {
  const server: Server = createServer();
  let route: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const waiting: Array<[IncomingMessage, ServerResponse]> = [];
  // A request that comes while the servers start waits for them (as a 2025 client's initialize would anyway).
  server.on('request', (request: IncomingMessage, response: ServerResponse) => (route === undefined ? waiting.push([request, response]) : route(request, response)));
  const port = await new Promise<number>((resolvePort, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new CliError('io', `cannot listen on ${listen.host}:${listen.port}: ${listenFailure(error)}`)));
    server.listen(listen.port, listen.host === 'localhost' ? '127.0.0.1' : listen.host.replace(/^\[|\]$/g, ''), () => resolvePort((server.address() as AddressInfo).port));
  });
  let closed: Promise<void> | undefined;
  return {
    port,
    url: `http://${bracketed(listen.host)}:${port}/mcp`,
    serve(next) {
      route = next;
      for (const [request, response] of waiting.splice(0)) next(request, response);
    },
    stopAccepting() {
      if (server.listening) server.close();
    },
    close() {
      closed ??= new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** Why a listen failed, in words that say what to do. */
function listenFailure(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return 'the port is in use (choose another with --http HOST:PORT, or 0 for any free port)';
    case 'EADDRNOTAVAIL':
      return 'this machine has no such address (give one of its own addresses, or 127.0.0.1, with --http HOST:PORT)';
    case 'EACCES':
      return 'permission denied (ports below 1024 need privileges; choose a higher one with --http HOST:PORT)';
    default:
      return error.message;
  }
}

/** A host as it stands in a URL: an IPv6 address in brackets. */
function bracketed(host: string): string {
  return host.startsWith('[') ? host : host.includes(':') ? `[${host}]` : host;
}

/** The session logs `serve --session-log DIR` (or the config's `sessionLogDir`) writes: one file per run, created now. */
function openSessionLog(context: CommandContext): { target: { destination: { write(line: string): void } }; close(): void } | undefined {
  const given = context.flags['session-log'];
  if (given !== undefined && given.length > 1) throw new CliError('usage', `serve --session-log takes one folder; received ${given.length}`);
  const folder = given?.[0] === undefined ? context.config().sessionLogDir : resolve(context.io.cwd, given[0]);
  if (folder === undefined) return undefined;
  const path = join(folder, `serve-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.jsonl`);
  let fd: number;
  try {
    mkdirSync(folder, { recursive: true });
    fd = openSync(path, 'a', 0o600);
  } catch (error) {
    throw new CliError('io', `--session-log ${folder}: cannot write ${path}: ${(error as Error).message}`, { cause: error });
  }
  context.output.progress(`tool-search: session log ${path}`);
  // One file for every session of this run (each line carries its sessionId); lines are written whole, at once.
  return {
    target: { destination: { write: (line: string) => void writeSync(fd, line) } },
    close: () => closeSync(fd),
  };
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
