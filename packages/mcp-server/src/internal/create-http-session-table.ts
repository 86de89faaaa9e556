// The 2025-era sessions of one HTTP endpoint: one MCP session (a front and its Streamable HTTP transport) per
// `mcp-session-id`, opened by an `initialize`, with the limits that keep a client from taking every slot (evicting
// the least recently used idle session first), the sweep that closes idle sessions, and each session's ledger of
// requests in flight, which says when it is idle and cuts what is left when the endpoint drains.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { Logger } from 'pino';
import { createToolSearchMcpServer, type CreateToolSearchMcpServerOptions, type ToolSearchMcpServer } from '../create-tool-search-mcp-server.js';
import { createBoundedEventStore } from './create-bounded-event-store.js';
import { createRequestLedger, type RequestLedger } from './create-request-ledger.js';

/** One MCP session of the endpoint. */
export interface HttpSession {
  readonly id: string;
  /** Who opened it (the remote address), for the per-client cap. */
  readonly client: string;
  readonly front: ToolSearchMcpServer;
  readonly transport: NodeStreamableHTTPServerTransport;
  /** The client's requests not answered yet. */
  readonly ledger: RequestLedger;
  lastSeen: number;
  /** HTTP requests of this session still open (a POST being answered, a GET stream). */
  active: number;
  /** True once the transport accepted the `initialize`: only then does the session exist. */
  registered: boolean;
  /** HTTP POSTs of this session still being answered. */
  posts: number;
}

/** The bounds of the table. */
export interface HttpSessionLimits {
  maxSessions: number;
  maxSessionsPerClient: number;
  idleTimeoutMs: number;
  maxRequestBytes: number;
}

/** See `createHttpSessionTable`. */
export interface HttpSessionTable {
  get(id: string): HttpSession | undefined;
  size(): number;
  /**
   * Takes a slot for an `initialize` of `client` (an idle session, the client's own first, makes room at a limit);
   * `release` gives it back once the handshake is decided. Refused with the limit's message when none is idle.
   */
  admit(client: string): { ok: true; release: () => void } | { ok: false; message: string };
  /**
   * Opens a front and its transport for one `initialize`. The session is registered only once the transport has
   * accepted the handshake; `release` is called then. The caller closes it when the transport refused instead.
   */
  open(client: string, release: () => void): Promise<HttpSession>;
  /** Counts `request` as the session's until its response closes (what makes a session busy, and not idle). */
  track(session: HttpSession, request: IncomingMessage, response: ServerResponse): void;
  /** Stops the sweep, refuses new requests on every session, cuts what is left after `drainTimeoutMs`. */
  drain(drainTimeoutMs: number): Promise<{ sessions: HttpSession[]; finished: number; cut: number }>;
  /** Lets the answers just sent reach their clients (bounded: a client may not be reading), then closes every session. */
  closeAll(sessions: HttpSession[]): Promise<void>;
}

/** How often idle sessions are looked for, at most. */
const MAX_SWEEP_INTERVAL_MS = 60_000;
/** How long answers cut at close may take to reach their clients before the streams close. */
const ANSWER_FLUSH_MS = 1_000;

/** `closed` says whether the endpoint is closing (a handshake accepted after that is not registered). */
export function createHttpSessionTable(sessionOptions: Omit<CreateToolSearchMcpServerOptions, 'sessionId'>, limits: HttpSessionLimits, log: Logger, closed: () => boolean): HttpSessionTable {
  const sessions = new Map<string, HttpSession>();
  const slots = createOpeningSlots();
  const heldBy = (client: string) => slots.openingBy(client) + [...sessions.values()].filter((entry) => entry.client === client).length;
  const close = async (id: string, why: string) => {
    const entry = sessions.get(id);
    if (entry === undefined) return;
    sessions.delete(id);
    log.info({ sessionId: id, why }, 'http session closed');
    await entry.front.close();
  };
  /** Evicts the least recently used idle session that `eligible` admits; false when there is none. */
  const evictIdle = (eligible: (entry: HttpSession) => boolean): boolean => {
    let oldest: HttpSession | undefined;
    for (const entry of sessions.values()) {
      if (entry.active === 0 && entry.ledger.inFlight.size === 0 && eligible(entry) && (oldest === undefined || entry.lastSeen < oldest.lastSeen)) oldest = entry;
    }
    if (oldest === undefined) return false;
    void close(oldest.id, 'evicted: least recently used idle session, to make room');
    return true;
  };
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, entry] of sessions) if (entry.active === 0 && now - entry.lastSeen > limits.idleTimeoutMs) void close(id, 'idle');
  }, Math.min(MAX_SWEEP_INTERVAL_MS, Math.max(10, Math.floor(limits.idleTimeoutMs / 4))));
  sweep.unref();
  const register = (entry: HttpSession) => {
    sessions.set(entry.id, entry);
    log.info({ sessionId: entry.id, client: entry.client, sessions: sessions.size }, 'http session opened');
  };

  return {
    get: (id) => sessions.get(id),
    size: () => sessions.size,
    admit(client) {
      // At a limit, an idle session (the client's own first) makes room before anyone is refused.
      if (heldBy(client) >= limits.maxSessionsPerClient && !evictIdle((held) => held.client === client)) {
        return { ok: false, message: `Service unavailable: this client holds ${limits.maxSessionsPerClient} MCP sessions (the per-client limit), none of them idle; end one with DELETE` };
      }
      if (sessions.size + slots.opening() >= limits.maxSessions && !evictIdle(() => true)) {
        return { ok: false, message: `Service unavailable: ${limits.maxSessions} MCP sessions are open (the limit), none of them idle` };
      }
      // Taken before the first await, so concurrent initializes cannot all pass the check.
      return { ok: true, release: slots.take(client) };
    },
    open: (client, release) => openHttpSession({ sessionOptions, maxRequestBytes: limits.maxRequestBytes, client, release, closed, register, close }),
    track(entry, request, response) {
      entry.active += 1;
      const post = request.method === 'POST';
      if (post) entry.posts += 1;
      entry.lastSeen = Date.now();
      response.once('close', () => {
        entry.active -= 1;
        if (post) entry.posts -= 1;
        entry.lastSeen = Date.now();
      });
    },
    async drain(drainTimeoutMs) {
      clearInterval(sweep);
      const open = [...sessions.values()];
      const drained = await Promise.all(open.map((entry) => entry.ledger.drain(drainTimeoutMs)));
      return { sessions: open, finished: drained.reduce((sum, one) => sum + one.finished, 0), cut: drained.reduce((sum, one) => sum + one.cut, 0) };
    },
    async closeAll(open) {
      for (const deadline = Date.now() + ANSWER_FLUSH_MS; open.some((entry) => entry.posts > 0) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 10));
      await Promise.all(open.map((entry) => close(entry.id, 'server closed')));
    },
  };
}

/** Handshakes being opened now: each holds a slot until it is decided (registered or refused), so the limits hold under concurrency. */
function createOpeningSlots() {
  let opening = 0;
  const openingBy = new Map<string, number>();
  return {
    opening: () => opening,
    openingBy: (client: string) => openingBy.get(client) ?? 0,
    /** Takes a slot of `client`; the returned function gives it back, once. */
    take(client: string): () => void {
      opening += 1;
      openingBy.set(client, (openingBy.get(client) ?? 0) + 1);
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        opening -= 1;
        const left = (openingBy.get(client) ?? 1) - 1;
        if (left === 0) openingBy.delete(client);
        else openingBy.set(client, left);
      };
    },
  };
}

/** Opens the front and transport of one session; `register` adds it to the table once the transport accepts the handshake. */
async function openHttpSession(parts: {
  sessionOptions: Omit<CreateToolSearchMcpServerOptions, 'sessionId'>;
  maxRequestBytes: number;
  client: string;
  release: () => void;
  closed: () => boolean;
  register: (entry: HttpSession) => void;
  close: (id: string, why: string) => Promise<void>;
}): Promise<HttpSession> {
  const { client, release, close } = parts;
  const id = randomUUID();
  // Loaded with the first session: a process serving stdio never loads the HTTP transport (and hono under it).
  const [front, { NodeStreamableHTTPServerTransport: HttpTransport }] = await Promise.all([createToolSearchMcpServer({ ...parts.sessionOptions, sessionId: id }), import('@modelcontextprotocol/node')]);
  const transport = new HttpTransport({
    sessionIdGenerator: () => id,
    eventStore: createBoundedEventStore(),
    retryInterval: 1_000,
    maxRequestBodySize: parts.maxRequestBytes,
    onsessioninitialized: () => {
      release();
      if (parts.closed()) return;
      entry.registered = true;
      parts.register(entry);
    },
    onsessionclosed: (closing) => void close(closing, 'deleted'),
  });
  transport.onclose = () => void close(id, 'transport closed');
  await front.server.connect(transport);
  // The transport accepts the handshake only once it is handed its first request, after this returns.
  const entry: HttpSession = { id, client, front, transport, ledger: attachLedger(transport), lastSeen: Date.now(), active: 0, posts: 0, registered: false };
  return entry;
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
