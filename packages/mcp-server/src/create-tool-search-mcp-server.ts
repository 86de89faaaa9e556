// One MCP session in front of a tool-search host: an SDK `Server` whose tools are the session's surface
// (control tools and pins, or every allowed tool in direct mode), whose calls run through the session (policy,
// validation, progress, cancellation), and which passes the upstream servers' resources, prompts, completions
// and log messages through under the same policy. One tool-search session per MCP session, closed with it.
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  type LoggingLevel,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ApprovalProvider, BeforeToolCallHook, Policy, PolicyConfig, PolicyContext } from '@tool-search/policy';
import { createPolicy, isPolicy } from '@tool-search/policy';
import { parseToolId } from '@tool-search/catalog';
import type { ToolSearchHost, ToolSearchSession, SessionLog, SessionLogTarget, ToolCallOutcome } from '@tool-search/gateway-adapter';
import { createSessionLog, MCP_LOG_LEVELS } from '@tool-search/gateway-adapter';
import pino, { type Logger } from 'pino';
import type { McpClientRelay } from './create-mcp-client-relay.js';
import { outcomeToCallResult } from './internal/outcome-to-call-result.js';
import { pickDefined as pick } from './internal/pick-defined.js';
import { toMcpTools, type McpListedTool } from './internal/to-mcp-tools.js';
import { createSessionUpstream } from './internal/create-session-upstream.js';
import { completeUpstream } from './internal/complete-upstream.js';
import { traceServerRequest } from './internal/trace-server-request.js';
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
type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

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
  let listed = JSON.stringify(tools());
  const server = new Server(options.serverInfo ?? { name: 'tool-search', version: '0.0.0' }, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true }, logging: {}, completions: {} },
    ...(session.modelSurface().instructions === '' ? {} : { instructions: session.modelSurface().instructions }),
  });
  forwarder.attach(server);

  const { resources, prompts } = createSessionUpstream({ host: options.host, session, policy, context, log });
  let readyServers = readySignature(options.host);
  // Everything that reads the upstream servers waits for their start-up (bounded by the host's startup timeout),
  // so no answer misses a server that was still starting; tool calls wait inside the session.
  const afterStart =
    <A extends unknown[], R>(answer: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await session.whenStarted();
      return answer(...args);
    };
  void session.whenStarted().then(() => {
    readyServers = readySignature(options.host);
  });

  onCatalogChange = () => {
    const now = JSON.stringify(tools());
    if (now !== listed) {
      listed = now;
      void server.sendToolListChanged().catch(() => undefined);
    }
    const ready = readySignature(options.host);
    if (ready !== readyServers) {
      readyServers = ready;
      void server.sendResourceListChanged().catch(() => undefined);
      void server.sendPromptListChanged().catch(() => undefined);
    }
  };

  /** A handler inside its MCP server span (a request with a session id came over HTTP, one without over stdio). */
  // Over HTTP the client names its protocol version in a header on every request after initialize.
  const traced =
    <Q extends { method: string; params?: unknown }, X extends { requestId: string | number; sessionId?: string | undefined; requestInfo?: { headers?: Record<string, string | string[] | undefined> } | undefined }, R>(
      handler: (request: Q, extra: X) => R | Promise<R>,
    ) =>
    (request: Q, extra: X): Promise<R> => {
      const version = extra.requestInfo?.headers?.['mcp-protocol-version'];
      const facts = { method: request.method, params: request.params, requestId: extra.requestId, sessionId: extra.sessionId, transport: extra.sessionId === undefined ? ('pipe' as const) : ('tcp' as const) };
      return traceServerRequest(typeof version === 'string' ? { ...facts, protocolVersion: version } : facts, () => handler(request, extra));
    };

  server.setRequestHandler(ListToolsRequestSchema, traced(() => {
    const current: McpListedTool[] = tools();
    listed = JSON.stringify(current);
    return { tools: current };
  }));
  server.setRequestHandler(CallToolRequestSchema, traced(async (request, extra) => {
    const release = [forwarder.enter(extra), options.relay?.enter({ session: session.sessionId, capabilities: () => server.getClientCapabilities(), sendRequest: relayedRequest(extra) })];
    try {
      const outcome = await session.execute(
        { name: request.params.name, args: request.params.arguments ?? {}, toolCallId: `mcp-${String(extra.requestId)}` },
        // A client that sent no progress token follows no progress: its call ends within the call timeout.
        { signal: extra.signal, ...progressFor(extra), ...(extra._meta?.progressToken === undefined ? { progressExtendsTimeout: false } : {}) },
      );
      noteResultUris(outcome, resources);
      return outcomeToCallResult(outcome);
    } finally {
      for (const done of release) done?.();
    }
  }));
  server.setRequestHandler(ListResourcesRequestSchema, traced(afterStart(async () => ({ resources: await resources.list() }))));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, traced(afterStart(async () => ({ resourceTemplates: await resources.templates() }))));
  server.setRequestHandler(ReadResourceRequestSchema, traced(afterStart(async (request, extra) => resources.read(request.params.uri, extra.signal))));
  server.setRequestHandler(ListPromptsRequestSchema, traced(afterStart(async () => ({ prompts: await prompts.list() }))));
  server.setRequestHandler(GetPromptRequestSchema, traced(afterStart(async (request, extra) => prompts.get(request.params.name, request.params.arguments, extra.signal))));
  server.setRequestHandler(CompleteRequestSchema, traced(afterStart(async (request) => completeUpstream(request.params, prompts, resources))));
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
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

/** Which upstream servers are ready: resources and prompts can change only when this does. */
function readySignature(host: ToolSearchHost): string {
  return host
    .mcpServers()
    .filter((server) => server.state === 'ready')
    .map((server) => server.name)
    .join('\n');
}

/** Progress of the call, to the client's progress token when it gave one. */
function progressFor(extra: Extra): { onProgress?: (progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void } {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return {};
  return {
    onProgress: (progress) => {
      void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...progress } }).catch(() => undefined);
    },
  };
}

/** The relay's view of `extra.sendRequest` (requests go out related to the call, on its stream). */
function relayedRequest(extra: Extra) {
  return <T>(request: { method: string; params?: Record<string, unknown> }, schema: { parse(value: unknown): T }, requestOptions?: { signal?: AbortSignal }) =>
    extra.sendRequest(request as ServerRequest, schema as never, requestOptions) as Promise<T>;
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
      const sent = call !== undefined ? call.sendNotification({ method: 'notifications/message', params }) : server?.notification({ method: 'notifications/message', params });
      void sent?.catch(() => undefined);
    },
  };
}
