// The MCP 2026-07-28 front: stateless, one SDK v2 server per request (createMcpHandler, legacy traffic refused
// here: the HTTP handler routes 2025-era requests to its sessionful front first, with the SDK's isLegacyRequest).
// Nothing is kept per connection: each request opens a tool-search session on the shared host (the compiled policy
// and its view are cached by the host, so this is cheap), answers, and closes it. What a 2025 session kept across
// requests is not needed on this path: tool_call takes the id tool_search returned, and every call goes through
// policy, approvals and hooks again.
import { randomUUID } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, createMcpHandler, Server, type CallToolResult, type McpHttpHandler, type ServerEventBus, type Tool } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, toWebRequest, type NodeIncomingMessageLike, type NodeServerResponseLike } from '@modelcontextprotocol/node';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { createSessionLog, type SessionLog, type ToolSearchSession } from '@tool-search/gateway-adapter';
import { createPolicy, isPolicy } from '@tool-search/policy';
import type { Logger } from 'pino';
import type { CreateToolSearchMcpServerOptions } from '../create-tool-search-mcp-server.js';
import type { RelayCall } from '../create-mcp-client-relay.js';
import { completeUpstream } from './complete-upstream.js';
import { createListChangeFeed, type ListChangeFeed } from './create-list-change-feed.js';
import { createSessionUpstream, upstreamAdmission } from './create-session-upstream.js';
import { trackUpstreamCalls } from './track-upstream-calls.js';
import { createModernInputCalls, type InputCallState } from './modern-input-calls.js';
import { createPendingCallLimits, type PendingCallLimitOptions } from './create-pending-call-limits.js';
import { createShutdownCut, type ShutdownCut } from './create-shutdown-cut.js';
import { currentClient, runAsClient } from './request-client-scope.js';
import { outcomeToCallResult } from './outcome-to-call-result.js';
import { toMcpTools } from './to-mcp-tools.js';
import { traceServerRequest } from './trace-server-request.js';
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

/** How long the answers cut at close may take to leave before the handler closes. */
const CUT_FLUSH_MS = 1_000;

export function createModernFront(options: ModernFrontOptions, log: Logger): ModernFront {
  const { eventBus, pendingCalls, ...sessionOptions } = options;
  const { factory, changes, shutdown, declinePending } = createModernServerFactory(sessionOptions, log, pendingCalls);
  const handler = createMcpHandler(factory, { legacy: 'reject', ...(eventBus === undefined ? {} : { bus: eventBus }), onerror: (error) => log.warn({ err: error.message.slice(0, 300) }, 'modern mcp request failed') });
  // The changes this process sees go onto the bus; its listen streams (and, on a shared bus, other processes') deliver them.
  const publish: Record<ListKind, () => void> = { tools: () => handler.notify.toolsChanged(), resources: () => handler.notify.resourcesChanged(), prompts: () => handler.notify.promptsChanged() };
  const stopPublishing = changes.subscribe((kind) => publish[kind]());
  const node = toNodeHandler(handler);
  // HTTP requests being answered, listen streams aside: what a drain waits for.
  let answering = 0;
  const waitFor = async (done: () => boolean, deadline: number) => {
    while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  return {
    handler,
    // Node's own request and response types differ from the adapter's structural ones only in optional fields.
    node: (request, response, body) => {
      const listening = typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'subscriptions/listen';
      if (!listening) {
        answering += 1;
        response.once('close', () => (answering -= 1));
      }
      // Each request runs as its client's (its remote address), for the bounds kept per client.
      return runAsClient(request.socket.remoteAddress ?? 'unknown', () => node(request as unknown as NodeIncomingMessageLike, response as unknown as NodeServerResponseLike, body));
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
  // One log for every modern request's session (a log target would otherwise get a file per request).
  const sessionLog: SessionLog | undefined = options.sessionLog === undefined ? undefined : 'write' in options.sessionLog ? options.sessionLog : createSessionLog(options.sessionLog, { sessionId: 'modern' });
  // Calls whose upstream asked the client something, between their rounds (see modern-input-calls.ts).
  const inputCalls = createModernInputCalls({ stateSecret: options.requestStateSecret, rendezvous: options.inputCallRendezvous, limits: createPendingCallLimits(pendingCalls) });
  /** Opens a session for one request, runs `answer` with it, closes it whatever happens. */
  const openSession = (sessionId: string, onCatalogChange?: () => void) =>
    options.host.openSession({
      sessionId,
      config: options.config,
      policy,
      context,
      visible: options.visible,
      hooks: options.hooks,
      approvals: options.approvals,
      callTimeoutMs: options.callTimeoutMs,
      logger: options.logger ?? log,
      sessionLog,
      waitForStartup: false,
      ...(onCatalogChange === undefined ? {} : { onCatalogChange }),
    });
  const withSession = async <T>(requestId: string, answer: (session: ToolSearchSession) => Promise<T>): Promise<T> => {
    inFlight += 1;
    let session: ToolSearchSession | undefined;
    try {
      session = await openSession(`modern-${requestId}-${randomUUID()}`);
      return await answer(session);
    } finally {
      inFlight -= 1;
      await session?.close();
    }
  };

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
      /** The upstream servers' resources and prompts as this request's session may use them, after their start-up. */
      const upstream = <T>(requestId: string, answer: (parts: ReturnType<typeof createSessionUpstream>) => Promise<T>) =>
        withSession(requestId, async (session) => {
          await session.whenStarted();
          return answer(createSessionUpstream({ host: options.host, session, policy, context, log }));
        });
      /** A handler inside its MCP server span (over HTTP when the request came with one, else over stdio). */
      const traced =
        <Q extends { method: string; params?: unknown }, C extends { mcpReq: { id: string | number }; http?: unknown }, R>(handler: (request: Q, ctx: C) => Promise<R>) =>
        (request: Q, ctx: C): Promise<R> =>
          // A drain that runs out answers the request with its -32000 error (see create-shutdown-cut.ts).
          shutdown.race(traceServerRequest({ method: request.method, params: request.params, requestId: ctx.mcpReq.id, protocolVersion: MODERN_PROTOCOL_VERSION, transport: ctx.http === undefined ? 'pipe' : 'tcp' }, () => handler(request, ctx)));
      server.setRequestHandler('tools/list', traced(async (_request, ctx) =>
        withSession(String(ctx.mcpReq.id), async (session) => {
          const tools = toMcpTools(session.modelSurface(), (id) => session.tool(id)) as unknown as Tool[];
          return { tools, ttlMs: stableSurface(session) ? STABLE_TOOLS_TTL_MS : 0, cacheScope: 'private' as const };
        }),
      ));
      server.setRequestHandler('tools/call', traced(async (request, ctx) => {
        // A retry with the client's answers continues the call its (verified) state names.
        const state = ctx.mcpReq.requestState<InputCallState>();
        if (typeof state === 'object' && state !== null) return (await inputCalls.resume(state, ctx.mcpReq.inputResponses)) as CallToolResult;
        const capabilities = () => (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? (ctx.mcpReq.envelope as { clientCapabilities?: unknown } | undefined)?.clientCapabilities;
        // The call may outlive this request (when it asks the client something): only a cancellation while this
        // request is open stops it.
        const stop = new AbortController();
        const cancel = () => stop.abort(ctx.mcpReq.signal.reason);
        ctx.mcpReq.signal.addEventListener('abort', cancel, { once: true });
        try {
          return (await inputCalls.start((ask) =>
            withSession(String(ctx.mcpReq.id), async (session) => {
              const upstream = trackUpstreamCalls(session, { onAbandoned: (name) => options.relay?.abandoned(name) });
              const relayCall: RelayCall = { session: session.sessionId, capabilities: capabilities as never, talksTo: upstream.talksTo, admits: upstream.admits, sendRequest: (asked, schema, sent) => ask(asked, schema, sent?.inputKey) };
              const release = options.relay?.enter(relayCall);
              try {
                const progressToken = request.params._meta?.progressToken;
                const execute = () =>
                  session.execute(
                    { name: request.params.name, args: request.params.arguments ?? {}, toolCallId: `mcp-${String(ctx.mcpReq.id)}` },
                    progressToken === undefined
                      ? { signal: stop.signal, onUpstreamCall: upstream.onUpstreamCall, progressExtendsTimeout: false }
                      : { signal: stop.signal, onUpstreamCall: upstream.onUpstreamCall, onProgress: (progress) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...progress } }).catch(() => undefined) },
                  );
                // Within the relay's scope: a question asked within this call goes to this client.
                const outcome = await (options.relay === undefined ? execute() : options.relay.within(relayCall, execute));
                return outcomeToCallResult(outcome) as unknown as CallToolResult;
              } finally {
                release?.();
              }
            }),
            // Whose call it is: the bounds of calls waiting between rounds are kept per client.
            currentClient(),
          )) as CallToolResult;
        } finally {
          ctx.mcpReq.signal.removeEventListener('abort', cancel);
        }
      }));
      // The upstream helpers answer in the 2025 shapes, which the 2026 result types take as they are.
      server.setRequestHandler('resources/list', traced(async (_request, ctx) => upstream(String(ctx.mcpReq.id), async ({ resources }) => ({ resources: (await resources.list()) as never }))));
      server.setRequestHandler('resources/templates/list', traced(async (_request, ctx) => upstream(String(ctx.mcpReq.id), async ({ resources }) => ({ resourceTemplates: (await resources.templates()) as never }))));
      server.setRequestHandler('resources/read', traced(async (request, ctx) => upstream(String(ctx.mcpReq.id), async ({ resources }) => (await resources.read(request.params.uri, ctx.mcpReq.signal)) as never)));
      server.setRequestHandler('prompts/list', traced(async (_request, ctx) => upstream(String(ctx.mcpReq.id), async ({ prompts }) => ({ prompts: (await prompts.list()) as never }))));
      server.setRequestHandler('prompts/get', traced(async (request, ctx) => upstream(String(ctx.mcpReq.id), async ({ prompts }) => (await prompts.get(request.params.name, request.params.arguments, ctx.mcpReq.signal)) as never)));
      server.setRequestHandler('completion/complete', traced(async (request, ctx) => upstream(String(ctx.mcpReq.id), async (parts) => completeUpstream(request.params as never, parts.prompts, parts.resources))));
      return server;
    },
  };
}

/** A surface of control tools only (code, tools, directory without pins) lists the same tools whatever the servers do. */
function stableSurface(session: ToolSearchSession): boolean {
  return session.modelSurface().tools.every((tool) => tool.id === undefined);
}

/** True for a request of the 2026-07-28 revision (its `_meta` envelope claims a version), by the SDK's own test. */
export async function isModernRequest(request: IncomingMessage, body: unknown): Promise<boolean> {
  return !(await isLegacyRequest(await toWebRequest(request as unknown as NodeIncomingMessageLike, body), body));
}
