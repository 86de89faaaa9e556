// One MCP session in front of a tool-search host: an SDK `Server` whose tools are the session's surface
// (control tools and pins, or every allowed tool in direct mode), whose calls run through the session (policy,
// validation, progress, cancellation), and which passes the upstream servers' resources, prompts, completions
// and log messages through under the same policy. One tool-search session per MCP session, closed with it.
import { randomUUID } from 'node:crypto';
import { Server, type CallToolResult, type LoggingLevel, type ServerContext } from '@modelcontextprotocol/server';
import type { ApprovalProvider, BeforeToolCallHook, Policy, PolicyConfig, PolicyContext } from '@tool-search/policy';
import { createPolicy, isPolicy } from '@tool-search/policy';
import { parseToolId } from '@tool-search/catalog';
import type { ToolSearchHost, ToolSearchSession, SessionLog, SessionLogTarget, ToolCallOutcome } from '@tool-search/gateway-adapter';
import { createSessionLog, MCP_LOG_LEVELS, pickDefined as pick } from '@tool-search/gateway-adapter';
import pino, { type Logger } from 'pino';
import type { McpClientRelay, RelayCall } from './create-mcp-client-relay.js';
import { outcomeToCallResult } from './internal/outcome-to-call-result.js';
import { toMcpTools, type McpListedTool } from './internal/to-mcp-tools.js';
import { createSessionUpstream } from './internal/create-session-upstream.js';
import { completeUpstream } from './internal/complete-upstream.js';
import { traceServerRequest } from './internal/trace-server-request.js';
import { watchListChanges } from './internal/watch-list-changes.js';
import { trackUpstreamCalls } from './internal/track-upstream-calls.js';
import type { InputCallRendezvous } from './input-call-rendezvous.js';

/** Options of `createToolSearchMcpServer`. */
export interface CreateToolSearchMcpServerOptions {
  /** The host whose catalog this MCP session sees (one host serves every MCP session). */
  host: ToolSearchHost;
  /** The `tools.toolSearch` setting (`{ mode: 'tools' }`, `true` for code mode, `false` for direct). */
  config: unknown;
  /** A compiled policy (reuse one for every MCP session: views are cached per policy), or a config. */
  policy?: Policy | PolicyConfig | undefined;
  context?: PolicyContext | undefined;
  /** Ids (or unique names) of allowed tools to list directly in every mode. */
  visible?: string[] | undefined;
  hooks?: readonly BeforeToolCallHook[] | undefined;
  approvals?: ApprovalProvider | undefined;
  /** Timeout of one tool execution. Default: the session's (30,000 ms; MCP calls use their server's idle timeout). */
  callTimeoutMs?: number | undefined;
  /** The tool-search session id (default: a random UUID); an HTTP front passes the `mcp-session-id`. */
  sessionId?: string | undefined;
  /** Where the session log goes (it also feeds the log messages this front forwards). */
  sessionLog?: SessionLogTarget | SessionLog | undefined;
  /** Relays upstream sampling and elicitation to this MCP client (see `createMcpClientRelay`). */
  relay?: McpClientRelay | undefined;
  logger?: Logger | undefined;
  /** What `initialize` reports. Default `{ name: 'tool-search', version: '0.0.0' }`. */
  serverInfo?: { name: string; version: string } | undefined;
  /**
   * The secret that signs the 2026-07-28 front's `requestState` (at least 32 bytes). Replicas behind one load
   * balancer share it, so a state minted by one verifies on the others. Default: a random key of this process.
   */
  requestStateSecret?: string | undefined;
  /**
   * Where replicas pass a client's answers to the replica whose 2026-07-28 call asked for them (with a shared
   * `requestStateSecret`). Default: none, a retry reaching another replica is told to call again.
   */
  inputCallRendezvous?: InputCallRendezvous | undefined;
}

/** One MCP session's server, with the tool-search session behind it. */
export interface ToolSearchMcpServer {
  /** The SDK server: `await front.server.connect(transport)` with any server transport. */
  readonly server: Server;
  readonly session: ToolSearchSession;
  /** Closes the transport and the session (also done when the transport closes); idempotent. */
  close(): Promise<void>;
}

const LEVELS: readonly LoggingLevel[] = MCP_LOG_LEVELS;
type Extra = ServerContext;

/**
 * Opens a tool-search session on `host` and returns the SDK server for one MCP session in front of it. In code and
 * tools mode with nothing pinned it resolves at once, even while the host's servers are starting (the list is the
 * control tools either way); otherwise it waits for them (the host's first session only, up to its startup
 * timeout). Tool calls, resources, prompts and completions wait for the start-up. `tools/list` is the session's
 * surface, byte-stable while it does not change; `notifications/tools/list_changed` is sent only when it does.
 */
export async function createToolSearchMcpServer(options: CreateToolSearchMcpServerOptions): Promise<ToolSearchMcpServer> {
  const log = (options.logger ?? pino({ level: 'silent' })).child({ pkg: 'mcp-server' });
  const policy = options.policy === undefined || isPolicy(options.policy) ? options.policy : createPolicy(options.policy, { logger: log });
  const context = options.context ?? {};
  const forwarder = createLogForwarder();
  const sessionId = options.sessionId ?? randomUUID();
  const fileLog = options.sessionLog === undefined ? undefined : 'write' in options.sessionLog ? options.sessionLog : createSessionLog(options.sessionLog, { sessionId });
  let onCatalogChange = () => undefined as void;
  const session = await options.host.openSession({
    sessionId,
    config: options.config,
    policy,
    context,
    ...pick(options, ['visible', 'hooks', 'approvals', 'callTimeoutMs']),
    logger: options.logger ?? log,
    sessionLog: {
      write: (event, fields) => {
        fileLog?.write(event, fields);
        if (event === 'mcp.log') forwarder.deliver(fields);
      },
      flush: () => fileLog?.flush(),
    },
    onCatalogChange: () => onCatalogChange(),
    // Code and tools mode with nothing pinned list the control tools whatever the servers bring: such a session
    // opens (and this front answers `initialize` and `tools/list`) at once; every other one waits, as the list does.
    waitForStartup: false,
  });
  log.info({ sessionId: session.sessionId, mode: session.decision.mode }, 'mcp session opened');

  const tools = () => toMcpTools(session.modelSurface(), (id) => session.tool(id));
  const server = new Server(options.serverInfo ?? { name: 'tool-search', version: '0.0.0' }, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true }, logging: {}, completions: {} },
    ...(session.modelSurface().instructions === '' ? {} : { instructions: session.modelSurface().instructions }),
  });
  forwarder.attach(server);

  const { resources, prompts, admission } = createSessionUpstream({ host: options.host, session, policy, context, log });
  // Everything that reads the upstream servers waits for their start-up (bounded by the host's startup timeout),
  // so no answer misses a server that was still starting; tool calls wait inside the session.
  const afterStart =
    <A extends unknown[], R>(answer: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await session.whenStarted();
      return answer(...args);
    };
  // The lists the client sees, told on this session's stream when they change (tools only as the policy shows them).
  const send = { tools: () => server.sendToolListChanged(), resources: () => server.sendResourceListChanged(), prompts: () => server.sendPromptListChanged() };
  const lists = watchListChanges(options.host, session, (kind) => void send[kind]().catch(() => undefined), admission);
  onCatalogChange = () => lists.check();

  /** A handler inside its MCP server span (a request with a session id came over HTTP, one without over stdio). */
  const traced =
    <Q extends { method: string; params?: unknown }, R>(handler: (request: Q, extra: Extra) => R | Promise<R>) =>
    (request: Q, extra: Extra): Promise<R> => {
      const version = server.getNegotiatedProtocolVersion();
      const facts = { method: request.method, params: request.params, requestId: extra.mcpReq.id, sessionId: extra.sessionId, transport: extra.sessionId === undefined ? ('pipe' as const) : ('tcp' as const) };
      return traceServerRequest(version === undefined ? facts : { ...facts, protocolVersion: version }, () => handler(request, extra));
    };

  server.setRequestHandler('tools/list', traced(() => {
    const current: McpListedTool[] = tools();
    lists.listed(current);
    return { tools: current as never };
  }));
  server.setRequestHandler('tools/call', traced(async (request: { method: 'tools/call'; params: { name: string; arguments?: Record<string, unknown> | undefined } }, extra) => {
    // The relay asks this client only questions of the upstream servers this call is talking to and its policy admits.
    const upstream = trackUpstreamCalls(session, { onAbandoned: (name) => options.relay?.abandoned(name) });
    const relayCall: RelayCall = { session: session.sessionId, capabilities: () => server.getClientCapabilities(), talksTo: upstream.talksTo, admits: upstream.admits, sendRequest: relayedRequest(extra) };
    const release = [forwarder.enter(extra), options.relay?.enter(relayCall)];
    const execute = () =>
      session.execute(
        { name: request.params.name, args: request.params.arguments ?? {}, toolCallId: `mcp-${String(extra.mcpReq.id)}` },
        // A client that sent no progress token follows no progress: its call ends within the call timeout.
        { signal: extra.mcpReq.signal, onUpstreamCall: upstream.onUpstreamCall, ...progressFor(extra), ...(extra.mcpReq._meta?.progressToken === undefined ? { progressExtendsTimeout: false } : {}) },
      );
    try {
      // Within the relay's scope: a question asked within this call goes to this client.
      const outcome = await (options.relay === undefined ? execute() : options.relay.within(relayCall, execute));
      noteResultUris(outcome, resources);
      return outcomeToCallResult(outcome) as unknown as CallToolResult;
    } finally {
      for (const done of release) done?.();
    }
  }));
  server.setRequestHandler('resources/list', traced(afterStart(async () => ({ resources: (await resources.list()) as never }))));
  server.setRequestHandler('resources/templates/list', traced(afterStart(async () => ({ resourceTemplates: (await resources.templates()) as never }))));
  server.setRequestHandler('resources/read', traced(afterStart(async (request: { method: 'resources/read'; params: { uri: string } }, extra: Extra) => (await resources.read(request.params.uri, extra.mcpReq.signal)) as never)));
  server.setRequestHandler('prompts/list', traced(afterStart(async () => ({ prompts: (await prompts.list()) as never }))));
  server.setRequestHandler('prompts/get', traced(afterStart(async (request: { method: 'prompts/get'; params: { name: string; arguments?: Record<string, string> | undefined } }, extra: Extra) => (await prompts.get(request.params.name, request.params.arguments, extra.mcpReq.signal)) as never)));
  server.setRequestHandler('completion/complete', traced(afterStart(async (request: { method: 'completion/complete'; params: unknown }) => completeUpstream(request.params as never, prompts, resources))));
  server.setRequestHandler('logging/setLevel', (request) => {
    forwarder.setLevel(request.params.level);
    return {};
  });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await server.close().catch(() => undefined);
      await session.close();
      log.info({ sessionId: session.sessionId }, 'mcp session closed');
    })());
  server.onclose = () => void close();
  return { server, session, close };
}

/** Progress of the call, to the client's progress token when it gave one. */
function progressFor(extra: Extra): { onProgress?: (progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void } {
  const progressToken = extra.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return {};
  return {
    onProgress: (progress) => {
      void extra.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...progress } }).catch(() => undefined);
    },
  };
}

/** The relay's view of `extra.sendRequest` (requests go out related to the call, on its stream). */
function relayedRequest(extra: Extra) {
  return <T>(request: { method: string; params?: Record<string, unknown> }, schema: { parse(value: unknown): T }, requestOptions?: { signal?: AbortSignal }) =>
    // The SDK checks a spec method's answer itself; `schema` then gives it the caller's type.
    extra.mcpReq.send(request as never, requestOptions).then((answer) => schema.parse(answer));
}

/** Resource links and embedded resources a tool of a server returned are read from that server. */
function noteResultUris(outcome: ToolCallOutcome, resources: { noteResultParts(server: string, parts: NonNullable<Extract<ToolCallOutcome, { status: 'ok' }>['parts']>): void }): void {
  if (outcome.status !== 'ok' || outcome.parts === undefined || outcome.tool === undefined) return;
  const parsed = parseToolId(outcome.tool.id);
  if (parsed?.source === 'mcp') resources.noteResultParts(parsed.owner, outcome.parts);
}

/**
 * Upstream log messages (the session log's `mcp.log` events, which arrive while a call to that server is in
 * flight) as `notifications/message` to the client, at or above the level it set, on the call's stream.
 */
function createLogForwarder() {
  let server: Server | undefined;
  let level: LoggingLevel | undefined;
  const calls: Extra[] = [];
  return {
    attach(attached: Server) {
      server = attached;
    },
    setLevel(next: LoggingLevel) {
      level = next;
    },
    enter(extra: Extra) {
      calls.push(extra);
      return () => {
        const index = calls.indexOf(extra);
        if (index !== -1) calls.splice(index, 1);
      };
    },
    deliver(fields: Record<string, unknown>) {
      const entryLevel = fields['level'] as LoggingLevel;
      if (!LEVELS.includes(entryLevel) || (level !== undefined && LEVELS.indexOf(entryLevel) < LEVELS.indexOf(level))) return;
      const params = { level: entryLevel, logger: typeof fields['logger'] === 'string' ? fields['logger'] : String(fields['server']), data: fields['message'] };
      const call = calls[calls.length - 1];
      const sent = call !== undefined ? call.mcpReq.notify({ method: 'notifications/message', params }) : server?.notification({ method: 'notifications/message', params });
      void sent?.catch(() => undefined);
    },
  };
}
