// The request handlers of a tool-search MCP session: one table, served to both protocol eras. The 2025 front
// registers it on the SDK server of each MCP session, whose requests all share that session's tool-search session;
// the 2026-07-28 front registers it on the server of each request, which opens a tool-search session for that
// request and closes it after. What differs between the two is a `SessionEra` (session-era.ts): where a request's
// session comes from, how a tool call reaches its client for what an upstream server asks mid-call, what a tool
// list adds, and the era's facts of the request's server span. A handler served to one era only is a bug: the
// table is the only place a session handler is written (see register-session-handlers.test.ts).
import type { HandlerResultTypeMap, RequestTypeMap, Server, ServerContext } from '@modelcontextprotocol/server';
import { callSessionTool } from './call-session-tool.js';
import { completeUpstream } from './complete-upstream.js';
import type { SessionUpstream } from './create-session-upstream.js';
import type { SessionEra } from './session-era.js';
import { toMcpTools } from './to-sdk-results.js';
import { traceServerRequest, type ServerRequestFacts } from './trace-server-request.js';

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
