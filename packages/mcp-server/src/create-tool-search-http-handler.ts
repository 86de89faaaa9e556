// Streamable HTTP in front of a tool-search host, both protocol eras on one endpoint. A 2025-era client gets one
// MCP session (and one tool-search session) per `mcp-session-id`, created by an `initialize` and closed by DELETE,
// by the client going idle, or with the handler (the session table: internal/create-http-session-table.ts); a
// 2026-07-28 request is answered on its own by the modern front. Every request first passes DNS-rebinding
// protection and, when set, the bearer token. A request goes through named steps, each answering or passing on:
// checkTarget (path, Host, Origin, token, /metrics), checkMethod, the body, serveModern, findSession or
// openSession, then serveSession.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest, type ServerEventBus } from '@modelcontextprotocol/server';
import pino, { type Logger } from 'pino';
import type { CreateToolSearchMcpServerOptions } from './create-tool-search-mcp-server.js';
import { McpServerError } from './errors.js';
import { checkHttpRequest, type HttpRequestRules } from './internal/check-http-request.js';
import { createHttpSessionTable, type HttpSession, type HttpSessionTable } from './internal/create-http-session-table.js';
import { pickDefined } from '@tool-search/gateway-adapter';
import type { ModernFront } from './internal/create-modern-front.js';
import { checkStateSecret } from './internal/check-state-secret.js';
import { answerHttpError, readJsonBody } from './internal/read-json-body.js';

/** Options of `createToolSearchHttpHandler`: those of every MCP session, plus the HTTP ones. */
export interface CreateToolSearchHttpHandlerOptions extends Omit<CreateToolSearchMcpServerOptions, 'sessionId'> {
  /** Hostnames accepted in `Host` (any port). Required: `['localhost', '127.0.0.1', '[::1]']` on loopback. */
  allowedHosts: string[];
  /** Origins accepted in `Origin` when a browser sends one. Default: any origin whose hostname is allowed. */
  allowedOrigins?: string[] | undefined;
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** The endpoint's path. Default `/mcp`. */
  path?: string | undefined;
  /**
   * MCP sessions open at once. At the limit an `initialize` first evicts the least recently used idle session (no
   * request in flight, no stream open); with none idle it is answered 503. Default 100.
   */
  maxSessions?: number | undefined;
  /**
   * MCP sessions one client (one remote address) holds at once; past it the client's own least recently used idle
   * session is evicted, else 503. Default half of `maxSessions` (rounded up), so one client cannot take every slot.
   */
  maxSessionsPerClient?: number | undefined;
  /** A session without requests for this long is closed. Default 30 minutes. */
  idleTimeoutMs?: number | undefined;
  /** Largest request body; a larger one is answered 413. Default 4 MiB. */
  maxRequestBytes?: number | undefined;
  /**
   * Serves `GET /metrics` (Prometheus text, for example `PrometheusExporter.getMetricsRequestHandler`) behind the
   * same Host and Origin checks as the MCP endpoint and `metricsToken`, never `token`. Default: no `/metrics`.
   */
  metrics?: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  /**
   * `/metrics`'s own bearer token. The clients' `token` never opens `/metrics` (the metrics name every server and
   * count every tool, whatever a client's policy admits): with a `token` and no `metricsToken`, `/metrics` answers
   * 403. Without either, it answers whoever passes the Host and Origin checks. Must differ from `token`.
   */
  metricsToken?: string | undefined;
  /**
   * Where the 2026-07-28 front publishes the list changes its clients may see, and what its `subscriptions/listen`
   * streams follow. Default: in this process only. Replicas share one (for example over Redis) so that a listener
   * on any of them hears a change. Each list change is published with a `changeId` field beside `kind` (a digest of
   * the new list, the same on every replica that sees it), so a shared bus can tell a change once, as
   * `@tool-search/redis-store`'s does; a bus that ignores it may tell a change once per replica.
   */
  eventBus?: ServerEventBus | undefined;
  /**
   * 2026-07-28 tool calls that may wait between rounds (for the client's answers to an upstream server's questions)
   * at once in this process; past it a call that asks something is refused with a `-32000` error naming the limit.
   * Default 1,000.
   */
  maxPendingInputCalls?: number | undefined;
  /** The same, for one client (one remote address). Default 64. */
  maxPendingInputCallsPerClient?: number | undefined;
}

/** Where `metrics` is served. */
const METRICS_PATH = '/metrics';

/** A Node request listener for the MCP endpoint, with its sessions. */
export interface ToolSearchHttpHandler {
  /** Pass to `http.createServer`. Never throws: every failure is an HTTP answer. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** MCP sessions open now. */
  sessions(): number;
  /**
   * Stops taking requests (new ones are answered 503), declines at once the 2026-07-28 calls waiting for a
   * client's answers, lets the requests in flight (of both revisions, one budget for all) finish for up to
   * `drainTimeoutMs` (default 0), answers each one left with a JSON-RPC error (`-32000`, server shutting down),
   * then closes every MCP session (and its tool-search session).
   */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
}

const DEFAULTS = { path: '/mcp', maxSessions: 100, idleTimeoutMs: 30 * 60_000, maxRequestBytes: 4 * 1024 * 1024 } as const;
const SHUTTING_DOWN = 'Service unavailable: the server is shutting down';

/** What the steps of a request share: the endpoint's settings and rules, its 2025 sessions and its 2026-07-28 front. */
interface Endpoint {
  readonly options: CreateToolSearchHttpHandlerOptions;
  readonly path: string;
  readonly maxRequestBytes: number;
  readonly rules: HttpRequestRules;
  readonly metricsRules: HttpRequestRules;
  readonly log: Logger;
  readonly table: HttpSessionTable;
  readonly modern: ModernLoader;
  closed: boolean;
}

/** Creates the handler. Throws `McpServerError('invalid_options')` without allowed hosts or with a short `requestStateSecret`. */
export function createToolSearchHttpHandler(options: CreateToolSearchHttpHandlerOptions): ToolSearchHttpHandler {
  checkHandlerOptions(options);
  const { allowedHosts, allowedOrigins, token, path: _path, maxSessions: _max, maxSessionsPerClient: _perClient, idleTimeoutMs: _idle, maxRequestBytes: _bytes, metrics: _metrics, metricsToken, eventBus, maxPendingInputCalls, maxPendingInputCallsPerClient, ...sessionOptions } = options;
  const settings = { ...DEFAULTS, ...pickDefined(options, ['path', 'maxSessions', 'idleTimeoutMs', 'maxRequestBytes']) };
  const maxSessionsPerClient = options.maxSessionsPerClient ?? Math.max(1, Math.ceil(settings.maxSessions / 2));
  const log = (options.logger ?? pino({ level: 'silent' })).child({ pkg: 'mcp-server', component: 'http' });
  const endpoint: Endpoint = {
    options,
    path: settings.path,
    maxRequestBytes: settings.maxRequestBytes,
    rules: { allowedHosts, allowedOrigins, token },
    metricsRules: { allowedHosts, allowedOrigins, token: metricsToken },
    log,
    table: createHttpSessionTable(sessionOptions, { ...settings, maxSessionsPerClient }, log, () => endpoint.closed),
    modern: createModernLoader({ ...sessionOptions, eventBus, pendingCalls: { perClient: maxPendingInputCallsPerClient, perProcess: maxPendingInputCalls } }, log),
    closed: false,
  };
  return {
    handle: (request, response) =>
      handleRequest(endpoint, request, response).catch((error: unknown) => {
        log.error({ error: error instanceof Error ? error.message.slice(0, 500) : String(error) }, 'http handler failed');
        if (!response.headersSent) answerHttpError(response, 500, -32603, 'Internal error');
      }),
    sessions: () => endpoint.table.size(),
    close: (closeOptions = {}) => closeEndpoint(endpoint, closeOptions.drainTimeoutMs ?? 0),
  };
}

function checkHandlerOptions(options: CreateToolSearchHttpHandlerOptions): void {
  if (!Array.isArray(options.allowedHosts) || options.allowedHosts.length === 0) {
    throw new McpServerError('invalid_options', 'createToolSearchHttpHandler needs allowedHosts (the hostnames clients reach this server by), for DNS-rebinding protection', { path: 'allowedHosts' });
  }
  checkStateSecret(options.requestStateSecret);
  if (options.metricsToken !== undefined && options.metricsToken === options.token) {
    throw new McpServerError('invalid_options', 'createToolSearchHttpHandler: metricsToken equals token; /metrics needs a token of its own, never the MCP clients\'', { path: 'metricsToken' });
  }
}

/** The 2026-07-28 front, made with the first modern request (a 2025-only client never loads SDK v2's server). */
interface ModernLoader {
  front(): Promise<ModernFront>;
  /** The front when one was made. */
  loaded(): Promise<ModernFront> | undefined;
  /** A request (not an initialize) of the 2026-07-28 revision (see isModernRequest). */
  isModern(request: IncomingMessage, body: unknown): Promise<boolean>;
}

function createModernLoader(options: Parameters<typeof import('./internal/create-modern-front.js').createModernFront>[0], log: Logger): ModernLoader {
  let modern: Promise<ModernFront> | undefined;
  return {
    front: () => (modern ??= import('./internal/create-modern-front.js').then(({ createModernFront }) => createModernFront(options, log))),
    loaded: () => modern,
    isModern: async (request, body) => (await import('./internal/create-modern-front.js')).isModernRequest(request, body),
  };
}

async function handleRequest(endpoint: Endpoint, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (endpoint.closed) return answerHttpError(response, 503, -32000, SHUTTING_DOWN);
  const target = checkTarget(endpoint, request, response);
  if (target === 'answered') return;
  if (target === 'metrics') return serveMetrics(endpoint, request, response);
  if (!checkMethod(request, response)) return;
  const header = request.headers['mcp-session-id'];
  const sessionId = Array.isArray(header) ? header[0] : header;
  const body = request.method === 'POST' ? await readJsonBody(request, endpoint.maxRequestBytes, endpoint.log) : { ok: true as const, value: undefined };
  if (!body.ok) return answerHttpError(response, body.status, body.code, body.message);
  // No session on the 2026-07-28 revision: its requests are answered one by one by the modern front.
  // Validated once: whether the body is an initialize decides both the era and the handshake below.
  const initializing = request.method === 'POST' && isInitializeRequest(body.value);
  if (sessionId === undefined && request.method === 'POST' && !initializing && (await endpoint.modern.isModern(request, body.value))) {
    return serveModern(endpoint, request, response, body.value);
  }
  const session = sessionId !== undefined ? findSession(endpoint, sessionId, response) : await openSession(endpoint, request, response, initializing);
  if (session === undefined) return;
  return serveSession(endpoint, session, { request, response, body: body.value });
}

/**
 * The endpoint a request is for (the MCP one, or `/metrics` when served) and whether it passes its Host, Origin and
 * token checks; answers it when it does not.
 */
function checkTarget(endpoint: Endpoint, request: IncomingMessage, response: ServerResponse): 'mcp' | 'metrics' | 'answered' {
  const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
  const metrics = pathname === METRICS_PATH && endpoint.options.metrics !== undefined;
  if (pathname !== endpoint.path && !metrics) {
    answerHttpError(response, 404, -32000, `Not found: the MCP endpoint is ${endpoint.path}`);
    return 'answered';
  }
  const refused = checkHttpRequest(request, metrics ? endpoint.metricsRules : endpoint.rules);
  if (refused !== undefined) {
    endpoint.log.warn({ status: refused.status, host: request.headers.host?.slice(0, 200), origin: request.headers.origin?.slice(0, 200) }, 'http request refused');
    if (refused.status === 401) response.setHeader('WWW-Authenticate', 'Bearer');
    const message = metrics && refused.status === 401 ? `Unauthorized: ${METRICS_PATH} needs "Authorization: Bearer <the metrics token>", not the MCP clients' token` : refused.message;
    answerHttpError(response, refused.status, -32000, message);
    return 'answered';
  }
  if (metrics && endpoint.options.metricsToken === undefined && endpoint.options.token !== undefined) {
    answerHttpError(response, 403, -32000, `Forbidden: ${METRICS_PATH} takes a token of its own (metricsToken), never the MCP clients' token, and none is set`);
    return 'answered';
  }
  return metrics ? 'metrics' : 'mcp';
}

function serveMetrics(endpoint: Endpoint, request: IncomingMessage, response: ServerResponse): void {
  if (request.method === 'GET') return endpoint.options.metrics?.(request, response);
  response.setHeader('Allow', 'GET');
  return answerHttpError(response, 405, -32000, `Method not allowed: ${String(request.method).slice(0, 20)}; ${METRICS_PATH} takes GET`);
}

/** True for the methods the MCP endpoint takes; answers any other with 405 and `Allow`. */
function checkMethod(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.method === 'GET' || request.method === 'POST' || request.method === 'DELETE') return true;
  response.setHeader('Allow', 'GET, POST, DELETE');
  answerHttpError(response, 405, -32000, `Method not allowed: ${String(request.method).slice(0, 20)}; the MCP endpoint takes GET, POST and DELETE`);
  return false;
}

async function serveModern(endpoint: Endpoint, request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
  const front = await endpoint.modern.front();
  if (endpoint.closed) return answerHttpError(response, 503, -32000, SHUTTING_DOWN);
  return front.node(request, response, body);
}

function findSession(endpoint: Endpoint, sessionId: string, response: ServerResponse): HttpSession | undefined {
  const found = endpoint.table.get(sessionId);
  if (found === undefined) answerHttpError(response, 404, -32001, 'Session not found: it ended or never existed; send initialize without mcp-session-id to start one');
  return found;
}

/** Opens a session for an `initialize` within the limits; a handshake the transport refuses (or one answered after close began) leaves nothing behind. */
async function openSession(endpoint: Endpoint, request: IncomingMessage, response: ServerResponse, initializing: boolean): Promise<HttpSession | undefined> {
  const refused = !initializing ? { status: 400, code: -32600, message: 'Bad Request: no mcp-session-id header; a session starts with an initialize request (POST)' } : refuseInitialize(request);
  if (refused !== undefined) return void answerHttpError(response, refused.status, refused.code, refused.message);
  const client = clientOf(request);
  const slot = endpoint.table.admit(client);
  if (!slot.ok) return void answerHttpError(response, 503, -32000, slot.message);
  // The slot is held until the handshake is decided: registered (it becomes a session) or refused.
  let opened: HttpSession;
  try {
    opened = await endpoint.table.open(client, slot.release);
  } catch (error) {
    slot.release();
    endpoint.log.error({ error: error instanceof Error ? error.message.slice(0, 500) : String(error) }, 'opening an mcp session failed');
    return void answerHttpError(response, 500, -32603, `Internal error: the session could not be opened: ${error instanceof Error ? error.message.slice(0, 300) : 'unknown'}`);
  }
  response.once('close', () => {
    slot.release();
    if (!opened.registered) void opened.front.close();
  });
  if (endpoint.closed) return void answerHttpError(response, 503, -32000, SHUTTING_DOWN);
  return opened;
}

async function serveSession(endpoint: Endpoint, session: HttpSession, exchange: { request: IncomingMessage; response: ServerResponse; body: unknown }): Promise<void> {
  const { request, response, body } = exchange;
  endpoint.table.track(session, request, response);
  try {
    await session.transport.handleRequest(request, response, body);
  } catch (error) {
    endpoint.log.error({ error: error instanceof Error ? error.message.slice(0, 500) : String(error) }, 'http request failed');
    if (!response.headersSent) answerHttpError(response, 500, -32603, 'Internal error');
  }
}

/** One budget for all: the modern requests and every 2025 session drain at once, to the same deadline. */
async function closeEndpoint(endpoint: Endpoint, drainTimeoutMs: number): Promise<void> {
  endpoint.closed = true;
  const deadline = Date.now() + drainTimeoutMs;
  const [, drained] = await Promise.all([endpoint.modern.loaded()?.then((front) => front.close({ deadline, drainTimeoutMs })), endpoint.table.drain(drainTimeoutMs)]);
  endpoint.log.info({ sessions: drained.sessions.length, finished: drained.finished, cut: drained.cut }, 'http sessions drained');
  // The answers just sent reach their clients before the streams close.
  await endpoint.table.closeAll(drained.sessions);
}

/**
 * The header checks the transport makes on a POST, made before a session is opened for an `initialize` (the
 * transport's own refusal would come after it): a refused handshake costs nothing and holds no slot.
 */
function refuseInitialize(request: IncomingMessage): { status: 406 | 415; code: number; message: string } | undefined {
  const accept = request.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return { status: 406, code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' };
  }
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return { status: 415, code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' };
  return undefined;
}

/** The client a request comes from, for the per-client cap: its remote address. */
function clientOf(request: IncomingMessage): string {
  return request.socket.remoteAddress ?? 'unknown';
}

