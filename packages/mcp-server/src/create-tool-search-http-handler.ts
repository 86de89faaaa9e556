// Streamable HTTP in front of a tool-search host: one MCP session (and one tool-search session) per
// `mcp-session-id`, created by an `initialize` and closed by DELETE, by the client going idle, or with the
// handler. Every request first passes DNS-rebinding protection and, when set, the bearer token.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, type ServerEventBus } from '@modelcontextprotocol/server';
import pino, { type Logger } from 'pino';
import { createToolSearchMcpServer, type CreateToolSearchMcpServerOptions, type ToolSearchMcpServer } from './create-tool-search-mcp-server.js';
import { McpServerError } from './errors.js';
import { checkHttpRequest } from './internal/check-http-request.js';
import { checkMessageBounds } from './internal/check-message-bounds.js';
import { createBoundedEventStore } from './internal/create-bounded-event-store.js';
import { createRequestLedger, type RequestLedger } from './internal/create-request-ledger.js';
import { pickDefined } from '@tool-search/gateway-adapter';
import type { ModernFront } from './internal/create-modern-front.js';
import { checkStateSecret } from './internal/check-state-secret.js';

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
   * on any of them hears a change; each replica publishes what it sees, so a change may be told once per replica.
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

interface Entry {
  id: string;
  /** Who opened it (the remote address), for the per-client cap. */
  client: string;
  front: ToolSearchMcpServer;
  transport: NodeStreamableHTTPServerTransport;
  lastSeen: number;
  /** HTTP requests of this session still open (a POST being answered, a GET stream). */
  active: number;
  /** True once the transport accepted the `initialize`: only then does the session exist. */
  registered: boolean;
  /** HTTP POSTs of this session still being answered. */
  posts: number;
  /** The client's requests not answered yet. */
  ledger: RequestLedger;
}

const DEFAULTS = { path: '/mcp', maxSessions: 100, idleTimeoutMs: 30 * 60_000, maxRequestBytes: 4 * 1024 * 1024 } as const;
/** How long answers cut at close may take to reach their clients before the streams close. */
const ANSWER_FLUSH_MS = 1_000;
/** How often idle sessions are looked for, at most. */
const MAX_SWEEP_INTERVAL_MS = 60_000;

/** Creates the handler. Throws `McpServerError('invalid_options')` without allowed hosts or with a short `requestStateSecret`. */
export function createToolSearchHttpHandler(options: CreateToolSearchHttpHandlerOptions): ToolSearchHttpHandler {
  const { allowedHosts, allowedOrigins, token, path: _path, maxSessions: _max, maxSessionsPerClient: _perClient, idleTimeoutMs: _idle, maxRequestBytes: _bytes, metrics: _metrics, metricsToken, eventBus, maxPendingInputCalls, maxPendingInputCallsPerClient, ...sessionOptions } = options;
  if (!Array.isArray(allowedHosts) || allowedHosts.length === 0) {
    throw new McpServerError('invalid_options', 'createToolSearchHttpHandler needs allowedHosts (the hostnames clients reach this server by), for DNS-rebinding protection', { path: 'allowedHosts' });
  }
  checkStateSecret(options.requestStateSecret);
  if (metricsToken !== undefined && metricsToken === token) {
    throw new McpServerError('invalid_options', 'createToolSearchHttpHandler: metricsToken equals token; /metrics needs a token of its own, never the MCP clients\'', { path: 'metricsToken' });
  }
  const settings = { ...DEFAULTS, ...pickDefined(options, ['path', 'maxSessions', 'idleTimeoutMs', 'maxRequestBytes']) };
  const maxPerClient = options.maxSessionsPerClient ?? Math.max(1, Math.ceil(settings.maxSessions / 2));
  const log = (options.logger ?? pino({ level: 'silent' })).child({ pkg: 'mcp-server', component: 'http' });
  const rules = { allowedHosts, allowedOrigins, token };
  const metricsRules = { allowedHosts, allowedOrigins, token: metricsToken };
  const sessions = new Map<string, Entry>();
  let closed = false;
  // The 2026-07-28 front, made with the first modern request (a 2025-only client never loads SDK v2's server).
  let modern: Promise<ModernFront> | undefined;
  const modernFront = () => (modern ??= import('./internal/create-modern-front.js').then(({ createModernFront }) => createModernFront({ ...sessionOptions, eventBus, pendingCalls: { perClient: maxPendingInputCallsPerClient, perProcess: maxPendingInputCalls } }, log)));
  /** A request (not an initialize) of the 2026-07-28 revision (see isModernRequest). */
  const isModern = async (request: IncomingMessage, body: unknown): Promise<boolean> => (await import('./internal/create-modern-front.js')).isModernRequest(request, body);

  /** Handshakes being opened now: they hold a slot while they are, so the limit holds under concurrency. */
  let opening = 0;
  const openingBy = new Map<string, number>();
  const heldBy = (client: string) => (openingBy.get(client) ?? 0) + [...sessions.values()].filter((entry) => entry.client === client).length;
  /** Evicts the least recently used idle session that `eligible` admits; false when there is none. */
  const evictIdle = (eligible: (entry: Entry) => boolean): boolean => {
    let oldest: Entry | undefined;
    for (const entry of sessions.values()) {
      if (entry.active === 0 && entry.ledger.inFlight.size === 0 && eligible(entry) && (oldest === undefined || entry.lastSeen < oldest.lastSeen)) oldest = entry;
    }
    if (oldest === undefined) return false;
    void closeSession(oldest.id, 'evicted: least recently used idle session, to make room');
    return true;
  };

  const closeSession = async (id: string, why: string) => {
    const entry = sessions.get(id);
    if (entry === undefined) return;
    sessions.delete(id);
    log.info({ sessionId: id, why }, 'http session closed');
    await entry.front.close();
  };
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, entry] of sessions) if (entry.active === 0 && now - entry.lastSeen > settings.idleTimeoutMs) void closeSession(id, 'idle');
  }, Math.min(MAX_SWEEP_INTERVAL_MS, Math.max(10, Math.floor(settings.idleTimeoutMs / 4))));
  sweep.unref();

  /**
   * Opens a front and its transport for one `initialize`. The session is registered only once the transport has
   * accepted the handshake (`onsessioninitialized`); the caller closes it when the transport refused instead.
   */
  async function open(client: string, release: () => void): Promise<Entry> {
    const id = randomUUID();
    // Loaded with the first session: a process serving stdio never loads the HTTP transport (and hono under it).
    const [front, { NodeStreamableHTTPServerTransport: HttpTransport }] = await Promise.all([createToolSearchMcpServer({ ...sessionOptions, sessionId: id }), import('@modelcontextprotocol/node')]);
    const entry: Entry = { id, client, front, transport: undefined as unknown as NodeStreamableHTTPServerTransport, lastSeen: Date.now(), active: 0, posts: 0, registered: false, ledger: undefined as unknown as RequestLedger };
    entry.transport = new HttpTransport({
      sessionIdGenerator: () => id,
      eventStore: createBoundedEventStore(),
      retryInterval: 1_000,
      maxRequestBodySize: settings.maxRequestBytes,
      onsessioninitialized: () => {
        release();
        if (closed) return;
        entry.registered = true;
        sessions.set(id, entry);
        log.info({ sessionId: id, client, sessions: sessions.size }, 'http session opened');
      },
      onsessionclosed: (closing) => void closeSession(closing, 'deleted'),
    });
    entry.transport.onclose = () => void closeSession(id, 'transport closed');
    await front.server.connect(entry.transport);
    entry.ledger = attachLedger(entry.transport);
    return entry;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (closed) return answer(response, 503, -32000, 'Service unavailable: the server is shutting down');
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    const metrics = pathname === METRICS_PATH ? options.metrics : undefined;
    if (pathname !== settings.path && metrics === undefined) return answer(response, 404, -32000, `Not found: the MCP endpoint is ${settings.path}`);
    const refused = checkHttpRequest(request, metrics === undefined ? rules : metricsRules);
    if (refused !== undefined) {
      log.warn({ status: refused.status, host: request.headers.host?.slice(0, 200), origin: request.headers.origin?.slice(0, 200) }, 'http request refused');
      if (refused.status === 401) response.setHeader('WWW-Authenticate', 'Bearer');
      const message = metrics !== undefined && refused.status === 401 ? `Unauthorized: ${METRICS_PATH} needs "Authorization: Bearer <the metrics token>", not the MCP clients' token` : refused.message;
      return answer(response, refused.status, -32000, message);
    }
    if (metrics !== undefined && metricsToken === undefined && token !== undefined) {
      return answer(response, 403, -32000, `Forbidden: ${METRICS_PATH} takes a token of its own (metricsToken), never the MCP clients' token, and none is set`);
    }
    if (metrics !== undefined) {
      if (request.method === 'GET') return metrics(request, response);
      response.setHeader('Allow', 'GET');
      return answer(response, 405, -32000, `Method not allowed: ${String(request.method).slice(0, 20)}; ${METRICS_PATH} takes GET`);
    }
    if (request.method !== 'GET' && request.method !== 'POST' && request.method !== 'DELETE') {
      response.setHeader('Allow', 'GET, POST, DELETE');
      return answer(response, 405, -32000, `Method not allowed: ${String(request.method).slice(0, 20)}; the MCP endpoint takes GET, POST and DELETE`);
    }
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const body = request.method === 'POST' ? await readJsonBody(request, settings.maxRequestBytes, log) : { ok: true as const, value: undefined };
    if (!body.ok) return answer(response, body.status, body.code, body.message);
    // No session on the 2026-07-28 revision: its requests are answered one by one by the modern front.
    // Validated once: whether the body is an initialize decides both the era and the handshake below.
    const initializing = request.method === 'POST' && isInitializeRequest(body.value);
    if (sessionId === undefined && request.method === 'POST' && !initializing && (await isModern(request, body.value))) {
      const front = await modernFront();
      if (closed) return answer(response, 503, -32000, 'Service unavailable: the server is shutting down');
      return front.node(request, response, body.value);
    }
    let entry: Entry;
    if (sessionId !== undefined) {
      const found = sessions.get(sessionId);
      if (found === undefined) return answer(response, 404, -32001, 'Session not found: it ended or never existed; send initialize without mcp-session-id to start one');
      entry = found;
    } else {
      if (!initializing) {
        return answer(response, 400, -32600, 'Bad Request: no mcp-session-id header; a session starts with an initialize request (POST)');
      }
      const refused = refuseInitialize(request);
      if (refused !== undefined) return answer(response, refused.status, -32000, refused.message);
      const client = clientOf(request);
      // At a limit, an idle session (the client's own first) makes room before anyone is refused.
      if (heldBy(client) >= maxPerClient && !evictIdle((held) => held.client === client)) {
        return answer(response, 503, -32000, `Service unavailable: this client holds ${maxPerClient} MCP sessions (the per-client limit), none of them idle; end one with DELETE`);
      }
      if (sessions.size + opening >= settings.maxSessions && !evictIdle(() => true)) {
        return answer(response, 503, -32000, `Service unavailable: ${settings.maxSessions} MCP sessions are open (the limit), none of them idle`);
      }
      // Taken before the first await, so concurrent initializes cannot all pass the check.
      // The slot is held until the handshake is decided: registered (it becomes a session) or refused.
      opening += 1;
      openingBy.set(client, (openingBy.get(client) ?? 0) + 1);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        opening -= 1;
        const left = (openingBy.get(client) ?? 1) - 1;
        if (left === 0) openingBy.delete(client);
        else openingBy.set(client, left);
      };
      try {
        entry = await open(client, release);
      } catch (error) {
        release();
        log.error({ error: error instanceof Error ? error.message.slice(0, 500) : String(error) }, 'opening an mcp session failed');
        return answer(response, 500, -32603, `Internal error: the session could not be opened: ${error instanceof Error ? error.message.slice(0, 300) : 'unknown'}`);
      }
      const opened = entry;
      // A handshake the transport refuses (or one answered after close began) leaves nothing behind.
      response.once('close', () => {
        release();
        if (!opened.registered) void opened.front.close();
      });
      if (closed) return answer(response, 503, -32000, 'Service unavailable: the server is shutting down');
    }
    entry.active += 1;
    const post = request.method === 'POST';
    if (post) entry.posts += 1;
    entry.lastSeen = Date.now();
    response.once('close', () => {
      entry.active -= 1;
      if (post) entry.posts -= 1;
      entry.lastSeen = Date.now();
    });
    try {
      await entry.transport.handleRequest(request, response, body.value);
    } catch (error) {
      log.error({ error: error instanceof Error ? error.message.slice(0, 500) : String(error) }, 'http request failed');
      if (!response.headersSent) answer(response, 500, -32603, 'Internal error');
    }
  }

  return {
    handle: (request, response) => handle(request, response).catch((error: unknown) => {
      log.error({ error: error instanceof Error ? error.message.slice(0, 500) : String(error) }, 'http handler failed');
      if (!response.headersSent) answer(response, 500, -32603, 'Internal error');
    }),
    sessions: () => sessions.size,
    async close(closeOptions = {}) {
      closed = true;
      clearInterval(sweep);
      // One budget for all: the modern requests and every 2025 session drain at once, to the same deadline.
      const drainTimeoutMs = closeOptions.drainTimeoutMs ?? 0;
      const deadline = Date.now() + drainTimeoutMs;
      const open = [...sessions.values()];
      const [, drained] = await Promise.all([modern?.then((front) => front.close({ deadline, drainTimeoutMs })), Promise.all(open.map((entry) => entry.ledger.drain(drainTimeoutMs)))]);
      const cut = drained.reduce((sum, one) => sum + one.cut, 0);
      log.info({ sessions: open.length, finished: drained.reduce((sum, one) => sum + one.finished, 0), cut }, 'http sessions drained');
      // The answers just sent reach their clients before the streams close (bounded: a client may not be reading).
      for (const deadline = Date.now() + ANSWER_FLUSH_MS; open.some((entry) => entry.posts > 0) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 10));
      await Promise.all(open.map((entry) => closeSession(entry.id, 'server closed')));
    },
  };
}

/**
 * The header checks the transport makes on a POST, made before a session is opened for an `initialize` (the
 * transport's own refusal would come after it): a refused handshake costs nothing and holds no slot.
 */
function refuseInitialize(request: IncomingMessage): { status: 406 | 415; message: string } | undefined {
  const accept = request.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return { status: 406, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' };
  }
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return { status: 415, message: 'Unsupported Media Type: Content-Type must be application/json' };
  return undefined;
}

/** Puts the ledger between the transport and the server (after `connect`, which sets `onmessage`). */
function attachLedger(transport: NodeStreamableHTTPServerTransport): RequestLedger {
  const send = transport.send.bind(transport);
  const ledger = createRequestLedger((id, error) => void send({ jsonrpc: '2.0', id, error }, { relatedRequestId: id }).catch(() => undefined));
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (ledger.received(message)) deliver?.(message, extra);
  };
  transport.send = (message, sendOptions) => (ledger.sending(message) ? send(message, sendOptions) : Promise.resolve());
  return ledger;
}

/** The client a request comes from, for the per-client cap: its remote address. */
function clientOf(request: IncomingMessage): string {
  return request.socket.remoteAddress ?? 'unknown';
}

function answer(response: ServerResponse, status: number, code: number, message: string): void {
  if (response.headersSent) return;
  // A body too large is not read to its end: the connection cannot be reused.
  response.writeHead(status, { 'Content-Type': 'application/json', ...(status === 413 ? { Connection: 'close' } : {}) }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The request body as JSON, at most `limit` bytes (past it the rest is drained, not kept). Its text is bounded
 * (`checkMessageBounds`) before it is parsed: neither the parse nor the SDK's schemas meet a wide or deep body.
 */
function readJsonBody(request: IncomingMessage, limit: number, log: Logger): Promise<{ ok: true; value: unknown } | { ok: false; status: 400 | 413; code: number; message: string }> {
  const tooLarge = { ok: false as const, status: 413 as const, code: -32600, message: `Request too large: the limit is ${limit} bytes` };
  if (Number(request.headers['content-length'] ?? '0') > limit) {
    request.resume();
    return Promise.resolve(tooLarge);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      over = true;
      chunks.length = 0;
      resolve(tooLarge);
    });
    request.on('error', () => resolve({ ok: false, status: 400, code: -32600, message: 'Bad Request: the body could not be read' }));
    request.on('end', () => {
      if (over) return;
      const text = Buffer.concat(chunks).toString('utf8');
      const outOfBounds = checkMessageBounds(text);
      if (outOfBounds !== undefined) {
        log.warn({ why: outOfBounds, bytes: size }, 'http request refused: out of bounds');
        return resolve({ ok: false, status: 400, code: -32600, message: `Invalid Request: ${outOfBounds}` });
      }
      try {
        resolve({ ok: true, value: JSON.parse(text) });
      } catch (error) {
        resolve({ ok: false, status: 400, code: -32700, message: `Parse error: the body is not JSON (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'})` });
      }
    });
  });
}
