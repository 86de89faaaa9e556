// The MCP 2026-07-28 front: stateless, one SDK v2 server per request (createMcpHandler, legacy traffic refused
// here: the HTTP handler routes 2025-era requests to its sessionful front first, with the SDK's isLegacyRequest).
// Nothing is kept per connection: each request opens a tool-search session on the shared host (the compiled policy
// and its view are cached by the host, so this is cheap), answers, and closes it. What a 2025 session kept across
// requests is not needed on this path: tool_call takes the id tool_search returned, and every call goes through
// policy, approvals and hooks again.
import { randomUUID } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, createMcpHandler, Server, specTypeSchemas, type ClientCapabilities, type McpHttpHandler, type ServerContext, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, toWebRequest, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { createSessionLog, type SessionLog, type ToolSearchSession } from '@tool-search/gateway-adapter';
import { createPolicy, isPolicy, type Policy, type PolicyContext } from '@tool-search/policy';
import type { Logger } from 'pino';
import type { CreateToolSearchMcpServerOptions } from '../create-tool-search-mcp-server.js';
import { createListChangeFeed, type ListChangeFeed } from './create-list-change-feed.js';
import { createSessionUpstream, upstreamAdmission } from './create-session-upstream.js';
import { createModernInputCalls, type InputCallState, type ModernInputCalls } from './modern-input-calls.js';
import { createPendingCallLimits, type PendingCallLimitOptions } from './create-pending-call-limits.js';
import { createShutdownCut, type ShutdownCut } from './create-shutdown-cut.js';
import { currentClient, runAsClient } from './request-client-scope.js';
import { registerSessionHandlers } from './register-session-handlers.js';
import type { SessionEra } from './session-era.js';
import type { ListKind } from './watch-list-changes.js';

/** The revision this front speaks (its server spans' `mcp.protocol.version`). */
const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** How long a modern client may reuse a `tools/list` that cannot change (control tools only, nothing pinned). */
export const STABLE_TOOLS_TTL_MS = 5 * 60_000;

/** The 2026-07-28 front of one HTTP endpoint. */
export interface ModernFront {
  readonly handler: McpHttpHandler;
  /** Serves one Node request whose JSON body was already read. */
  node(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void>;
  /** Modern requests being answered now (a call waiting between rounds, or a listen stream, is not one). */
  inFlight(): number;
  /**
   * Withdraws the calls waiting between rounds at once, lets the requests being answered finish until `deadline`
   * (a `Date.now()` time; default now), answers each one left with `-32000` (server shutting down), then closes.
   */
  close(options?: { deadline?: number; drainTimeoutMs?: number }): Promise<void>;
}

/** The 2026-07-28 server of one request (HTTP) or one connection (stdio), the requests it is answering, and the list changes its clients may see. */
export interface ModernServerFactory {
  factory: () => Server;
  inFlight(): number;
  readonly changes: ListChangeFeed;
  /** Cuts the requests being answered, each with its `-32000` error. */
  readonly shutdown: ShutdownCut;
  /** Withdraws the questions of every call waiting between rounds (its upstream is told why) and refuses new ones. */
  declinePending(reason: string): void;
}

/** Options of the modern front: the sessions' options, the bus its `subscriptions/listen` streams follow, the bounds of calls waiting between rounds. */
export type ModernFrontOptions = Omit<CreateToolSearchMcpServerOptions, 'sessionId'> & { eventBus?: ServerEventBus | undefined; pendingCalls?: PendingCallLimitOptions | undefined };

/** The bus event of each list's change (the `handler.notify` methods' own). */
const LIST_EVENT_KINDS = { tools: 'tools_list_changed', resources: 'resources_list_changed', prompts: 'prompts_list_changed' } as const;

/** How long the answers cut at close may take to leave before the handler closes. */
const CUT_FLUSH_MS = 1_000;

export function createModernFront(options: ModernFrontOptions, log: Logger): ModernFront {
  const { eventBus, pendingCalls, ...sessionOptions } = options;
  const { factory, changes, shutdown, declinePending } = createModernServerFactory(sessionOptions, log, pendingCalls);
  const handler = createMcpHandler(factory, { legacy: 'reject', ...(eventBus === undefined ? {} : { bus: eventBus }), onerror: (error) => log.warn({ err: error.message.slice(0, 300) }, 'modern mcp request failed') });
  // The changes this process sees go onto the bus; its listen streams (and, on a shared bus, other processes') deliver them.
  // A shared bus gets each change's id (the same on every replica that sees it), so it tells a change once; the SDK's
  // own in-process bus has no use for it.
  const publish: Record<ListKind, () => void> = { tools: () => handler.notify.toolsChanged(), resources: () => handler.notify.resourcesChanged(), prompts: () => handler.notify.promptsChanged() };
  const stopPublishing = changes.subscribe((kind, changeId) => {
    if (eventBus === undefined) publish[kind]();
    else eventBus.publish({ kind: LIST_EVENT_KINDS[kind], changeId: changeId() } as ServerEvent);
  });
  const node = toNodeHandler(handler);
  // HTTP requests being answered, listen streams aside: what a drain waits for.
  let answering = 0;
  const waitFor = async (done: () => boolean, deadline: number) => {
    while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  return {
    handler,
    node: (request, response, body) => {
      const listening = typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'subscriptions/listen';
      if (!listening) {
        answering += 1;
        response.once('close', () => (answering -= 1));
      }
      // Each request runs as its client's (its remote address), for the bounds kept per client.
      return runAsClient(request.socket.remoteAddress ?? 'unknown', () => node(asRequestLike(request), response, body));
    },
    inFlight: () => answering,
    async close(closeOptions = {}) {
      // Nobody will retry a call waiting between rounds now: its upstream hears so at once, not at the drain's end.
      declinePending('Server shutting down: the call was declined');
      await waitFor(() => answering === 0, closeOptions.deadline ?? Date.now());
      if (answering > 0) {
        shutdown.cut(closeOptions.drainTimeoutMs ?? 0);
        await waitFor(() => answering === 0, Date.now() + CUT_FLUSH_MS);
      }
      stopPublishing();
      await changes.close();
      await handler.close();
    },
  };
}

export function createModernServerFactory(options: Omit<CreateToolSearchMcpServerOptions, 'sessionId'>, log: Logger, pendingCalls?: PendingCallLimitOptions): ModernServerFactory {
  let inFlight = 0;
  const shutdown = createShutdownCut();
  // Compiled once: every request's session then shares the host's view of it.
  const policy = options.policy === undefined || isPolicy(options.policy) ? options.policy : createPolicy(options.policy, { logger: log });
  const context = options.context ?? {};
  const openSession = openRequestSessions(options, { policy, context, log });
  // Calls whose upstream asked the client something, between their rounds (see modern-input-calls.ts).
  const inputCalls = createModernInputCalls({ stateSecret: options.requestStateSecret, rendezvous: options.inputCallRendezvous, limits: createPendingCallLimits(pendingCalls) });
  /** Opens a session for one request, answers with it (and the upstream servers as it may use them), closes it whatever happens. */
  const era = modernSessionEra({ inputCalls, shutdown, relay: options.relay }, async (ctx, answer) => {
    inFlight += 1;
    let session: ToolSearchSession | undefined;
    try {
      session = await openSession(`modern-${String(ctx.mcpReq.id)}-${randomUUID()}`);
      return await answer({ session, upstream: createSessionUpstream({ host: options.host, session, policy, context, log }) });
    } finally {
      inFlight -= 1;
      await session?.close();
    }
  });
  return {
    inFlight: () => inFlight,
    shutdown,
    declinePending: (reason) => inputCalls.withdrawAll(reason),
    // The session the feed keeps open is the requests' own, with the same policy: it sees what they would list.
    changes: createListChangeFeed(options.host, (onCatalogChange) => openSession(`modern-lists-${randomUUID()}`, onCatalogChange), log, (session) => upstreamAdmission({ session, policy, context })),
    factory: () => {
      const server = new Server(options.serverInfo ?? { name: 'tool-search', version: '0.0.0' }, {
        capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true }, completions: {} },
        requestState: { verify: inputCalls.codec.verify },
      });
      registerSessionHandlers(server, era);
      return server;
    },
  };
}

/** Opens the sessions of the front's requests (and of its list change feed): one policy, one context, one log for all. */
function openRequestSessions(options: Omit<CreateToolSearchMcpServerOptions, 'sessionId'>, shared: { policy: Policy | undefined; context: PolicyContext; log: Logger }) {
  // One log for every modern request's session (a log target would otherwise get a file per request).
  const sessionLog: SessionLog | undefined = options.sessionLog === undefined ? undefined : 'write' in options.sessionLog ? options.sessionLog : createSessionLog(options.sessionLog, { sessionId: 'modern' });
  return (sessionId: string, onCatalogChange?: () => void): Promise<ToolSearchSession> =>
    options.host.openSession({
      sessionId,
      config: options.config,
      policy: shared.policy,
      context: shared.context,
      visible: options.visible,
      hooks: options.hooks,
      approvals: options.approvals,
      callTimeoutMs: options.callTimeoutMs,
      logger: options.logger ?? shared.log,
      sessionLog,
      waitForStartup: false,
      ...(onCatalogChange === undefined ? {} : { onCatalogChange }),
    });
}

/**
 * The 2026-07-28 era: each request opens its own session (`withSession`); a call that asks its client something
 * answers `input_required` and continues when the client retries with its answers; a tools/list says how long it
 * may be reused; a drain that runs out cuts the request.
 */
function modernSessionEra(parts: { inputCalls: ModernInputCalls; shutdown: ShutdownCut; relay: SessionEra['relay'] }, withSession: SessionEra['withSession']): SessionEra {
  const { inputCalls, shutdown } = parts;
  return {
    relay: parts.relay,
    withSession,
    async withCallChannel(ctx, call) {
      // A retry with the client's answers continues the call its (verified) state names.
      const state = ctx.mcpReq.requestState<InputCallState>();
      if (typeof state === 'object' && state !== null) return inputCalls.resume(state, ctx.mcpReq.inputResponses);
      // The call may outlive this request (when it asks the client something): only a cancellation while this
      // request is open stops it.
      const stop = new AbortController();
      const cancel = () => stop.abort(ctx.mcpReq.signal.reason);
      ctx.mcpReq.signal.addEventListener('abort', cancel, { once: true });
      try {
        const capabilities = () => envelopeCapabilities(ctx);
        // Whose call it is: the bounds of calls waiting between rounds are kept per client.
        return await inputCalls.start((ask) => call({ signal: stop.signal, capabilities, sendRequest: (asked, schema, sent) => ask(asked, schema, sent?.inputKey) }), currentClient());
      } finally {
        ctx.mcpReq.signal.removeEventListener('abort', cancel);
      }
    },
    listed: (_tools, session) => ({ ttlMs: stableSurface(session) ? STABLE_TOOLS_TTL_MS : 0, cacheScope: 'private' }),
    // Over HTTP when the request came with one, else over stdio.
    span: (ctx) => ({ protocolVersion: MODERN_PROTOCOL_VERSION, transport: ctx.http === undefined ? 'pipe' : 'tcp' }),
    // A drain that runs out answers the request with its -32000 error (see create-shutdown-cut.ts).
    guard: (answer) => shutdown.race(answer),
  };
}

/** The capabilities the request's envelope declares (a 2026-07-28 request carries them on each request), as the spec shapes them. */
function envelopeCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  const envelope: Record<string, unknown> | undefined = ctx.mcpReq.envelope;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? envelope?.['clientCapabilities'];
  const checked = specTypeSchemas.ClientCapabilities['~standard'].validate(declared);
  return checked.issues === undefined ? checked.value : undefined;
}

/** A surface of control tools only (code, tools, directory without pins) lists the same tools whatever the servers do. */
function stableSurface(session: ToolSearchSession): boolean {
  return session.modelSurface().tools.every((tool) => tool.id === undefined);
}

/** True for a request of the 2026-07-28 revision (its `_meta` envelope claims a version), by the SDK's own test. */
export async function isModernRequest(request: IncomingMessage, body: unknown): Promise<boolean> {
  return !(await isLegacyRequest(await toWebRequest(asRequestLike(request), body), body));
}

/**
 * Node's request as the adapter's structural type. They differ only in how an optional field is typed: Node's
 * `method` and `url` may be `undefined`, which the adapter's optional fields leave out under exactOptionalPropertyTypes.
 */
function asRequestLike(request: IncomingMessage): NodeIncomingMessageLike {
  return request as NodeIncomingMessageLike;
}
