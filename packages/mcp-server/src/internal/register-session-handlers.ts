// The request handlers of a tool-search MCP session: one table, served to both protocol eras. The 2025 front
// registers it on the SDK server of each MCP session, whose requests all share that session's tool-search session;
// the 2026-07-28 front registers it on the server of each request, which opens a tool-search session for that
// request and closes it after. What differs between the two is a `SessionEra`: where a request's session comes
// from, how a tool call reaches its client for what an upstream server asks mid-call, what a tool list adds, and
// the era's facts of the request's server span. A handler served to one era only is a bug: the table is the
// only place a session handler is written (see register-session-handlers.test.ts).
import type { CallToolResult, ClientCapabilities, HandlerResultTypeMap, ListToolsResult, RequestTypeMap, Server, ServerContext, Tool } from '@modelcontextprotocol/server';
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import type { McpClientRelay, RelayCall } from '../create-mcp-client-relay.js';
import { callSessionTool } from './call-session-tool.js';
import { completeUpstream } from './complete-upstream.js';
import type { SessionUpstream } from './create-session-upstream.js';
import { toMcpTools } from './to-sdk-results.js';
import { traceServerRequest, type ServerRequestFacts } from './trace-server-request.js';

/** What a request is answered with: its tool-search session, and the upstream servers' resources and prompts as that session may use them. */
export interface SessionScope {
  readonly session: ToolSearchSession;
  readonly upstream: SessionUpstream;
}

/** How one tool call reaches its client: what cancels it, what the client declared, how to ask it what an upstream server asks. */
export interface CallChannel {
  readonly signal: AbortSignal;
  readonly capabilities: () => ClientCapabilities | undefined;
  readonly sendRequest: RelayCall['sendRequest'];
}

/** What differs between the protocol eras; everything else about a session's requests is the table's. */
export interface SessionEra {
  /** Runs `answer` with this request's session: the MCP session's (2025), or one opened for this request and closed after it (2026-07-28). */
  withSession<T>(ctx: ServerContext, answer: (scope: SessionScope) => Promise<T>): Promise<T>;
  /**
   * Runs a tool call with its channel to the client: the request's own (2025), or rounds of `input_required` answers
   * (2026-07-28, where a retry with the client's answers continues a call without running `call` again).
   */
  withCallChannel(ctx: ServerContext, call: (channel: CallChannel) => Promise<CallToolResult>): Promise<HandlerResultTypeMap['tools/call']>;
  /** What a `tools/list` answer carries besides the tools (2026-07-28: cache hints); 2025 notes the list for its change watch. */
  listed(tools: Tool[], session: ToolSearchSession): Omit<ListToolsResult, 'tools'>;
  /** This request's facts for its server span that depend on the era. */
  span(ctx: ServerContext): Pick<ServerRequestFacts, 'sessionId' | 'protocolVersion' | 'transport'>;
  /** Wraps each answer (2026-07-28: a drain that runs out cuts it with its `-32000` error). Default: none. */
  guard?: (<T>(answer: Promise<T>) => Promise<T>) | undefined;
  /** Relays upstream sampling and elicitation to the client of the call that caused it. */
  readonly relay?: McpClientRelay | undefined;
}

/** The methods of the table, in the order they are registered. */
export const SESSION_METHODS = ['tools/list', 'tools/call', 'resources/list', 'resources/templates/list', 'resources/read', 'prompts/list', 'prompts/get', 'completion/complete'] as const;

export type SessionMethod = (typeof SESSION_METHODS)[number];

/** One handler of the table: the request, its SDK context, and the era serving it. */
export type SessionHandler<M extends SessionMethod> = (request: RequestTypeMap[M], ctx: ServerContext, era: SessionEra) => Promise<HandlerResultTypeMap[M]>;

/** Everything that reads the upstream servers waits for their start-up (bounded by the host's), so no answer misses a server still starting; tool calls wait inside the session. */
const afterStart = <T>(era: SessionEra, ctx: ServerContext, answer: (upstream: SessionUpstream) => Promise<T>): Promise<T> =>
  era.withSession(ctx, async ({ session, upstream }) => {
    await session.whenStarted();
    return answer(upstream);
  });

/** The table: each session method's one handler. */
export const SESSION_HANDLERS: { readonly [M in SessionMethod]: SessionHandler<M> } = {
  // The session's surface, byte-stable while it does not change.
  'tools/list': (_request, ctx, era) =>
    era.withSession(ctx, async ({ session }) => {
      const tools = toMcpTools(session.modelSurface(), (id) => session.tool(id));
      return { tools, ...era.listed(tools, session) };
    }),
  'tools/call': (request, ctx, era) => era.withCallChannel(ctx, (channel) => era.withSession(ctx, (scope) => callSessionTool(scope, { params: request.params, ctx, channel, relay: era.relay }))),
  'resources/list': (_request, ctx, era) => afterStart(era, ctx, async ({ resources }) => ({ resources: await resources.list() })),
  'resources/templates/list': (_request, ctx, era) => afterStart(era, ctx, async ({ resources }) => ({ resourceTemplates: await resources.templates() })),
  'resources/read': (request, ctx, era) => afterStart(era, ctx, ({ resources }) => resources.read(request.params.uri, ctx.mcpReq.signal)),
  'prompts/list': (_request, ctx, era) => afterStart(era, ctx, async ({ prompts }) => ({ prompts: await prompts.list() })),
  'prompts/get': (request, ctx, era) => afterStart(era, ctx, ({ prompts }) => prompts.get(request.params.name, request.params.arguments, ctx.mcpReq.signal)),
  'completion/complete': (request, ctx, era) => afterStart(era, ctx, ({ prompts, resources }) => completeUpstream(request.params, prompts, resources)),
};

/** Serves every handler of the table on `server`, each inside its MCP server span, for `era`. */
export function registerSessionHandlers(server: Server, era: SessionEra): void {
  for (const method of SESSION_METHODS) register(server, method, era);
}

function register<M extends SessionMethod>(server: Server, method: M, era: SessionEra): void {
  const handler: SessionHandler<M> = SESSION_HANDLERS[method];
  server.setRequestHandler(method, (request, ctx) => {
    const facts: ServerRequestFacts = { method: request.method, params: request.params, requestId: ctx.mcpReq.id, ...era.span(ctx) };
    const answer = traceServerRequest(facts, () => handler(request, ctx, era));
    return era.guard === undefined ? answer : era.guard(answer);
  });
}
