// One MCP session in front of a tool-search host (the 2025 protocol era): an SDK `Server` whose tools are the
// session's surface (control tools and pins, or every allowed tool in direct mode), whose calls run through the
// session (policy, validation, progress, cancellation), and which passes the upstream servers' resources, prompts,
// completions and log messages through under the same policy. One tool-search session per MCP session, closed with
// it. Its request handlers are the table both eras serve (register-session-handlers.ts); this file says only what
// is this era's: the session the MCP session keeps, the list changes told on its stream, the log forwarding.
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, Server, type ServerContext } from '@modelcontextprotocol/server';
import type { ApprovalProvider, BeforeToolCallHook, Policy, PolicyConfig, PolicyContext } from '@tool-search/policy';
import { createPolicy, isPolicy } from '@tool-search/policy';
import type { ToolSearchHost, ToolSearchSession, SessionLog, SessionLogTarget } from '@tool-search/gateway-adapter';
import { createSessionLog, pickDefined as pick } from '@tool-search/gateway-adapter';
import pino, { type Logger } from 'pino';
import type { McpClientRelay, RelayCall } from './create-mcp-client-relay.js';
import { createLogForwarder, type LogForwarder } from './internal/create-log-forwarder.js';
import { createSessionUpstream } from './internal/create-session-upstream.js';
import { registerSessionHandlers } from './internal/register-session-handlers.js';
import type { SessionEra, SessionScope } from './internal/session-era.js';
import { watchListChanges, type ListChangeWatch } from './internal/watch-list-changes.js';
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
  let onCatalogChange = () => undefined as void;
  const session = await openMcpSession(options, { policy, context, log, forwarder, onCatalogChange: () => onCatalogChange() });
  log.info({ sessionId: session.sessionId, mode: session.decision.mode }, 'mcp session opened');

  const server = new Server(options.serverInfo ?? { name: 'tool-search', version: '0.0.0' }, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true }, logging: {}, completions: {} },
    ...(session.modelSurface().instructions === '' ? {} : { instructions: session.modelSurface().instructions }),
  });
  forwarder.attach(server);
  const { resources, prompts, admission } = createSessionUpstream({ host: options.host, session, policy, context, log });
  // The lists the client sees, told on this session's stream when they change (tools only as the policy shows them).
  const send = { tools: () => server.sendToolListChanged(), resources: () => server.sendResourceListChanged(), prompts: () => server.sendPromptListChanged() };
  const lists = watchListChanges(options.host, session, (kind) => void send[kind]().catch(() => undefined), admission);
  onCatalogChange = () => lists.check();

  registerSessionHandlers(server, legacySessionEra({ server, scope: { session, upstream: { resources, prompts } }, lists, forwarder, relay: options.relay }));
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

/** Opens the MCP session's tool-search session; its log feeds the forwarder, its catalog changes the list watch. */
function openMcpSession(
  options: CreateToolSearchMcpServerOptions,
  opened: { policy: Policy | undefined; context: PolicyContext; log: Logger; forwarder: LogForwarder; onCatalogChange: () => void },
): Promise<ToolSearchSession> {
  const sessionId = options.sessionId ?? randomUUID();
  const fileLog = options.sessionLog === undefined ? undefined : 'write' in options.sessionLog ? options.sessionLog : createSessionLog(options.sessionLog, { sessionId });
  return options.host.openSession({
    sessionId,
    config: options.config,
    policy: opened.policy,
    context: opened.context,
    ...pick(options, ['visible', 'hooks', 'approvals', 'callTimeoutMs']),
    logger: options.logger ?? opened.log,
    sessionLog: {
      write: (event, fields) => {
        fileLog?.write(event, fields);
        if (event === 'mcp.log') opened.forwarder.deliver(fields);
      },
      flush: () => fileLog?.flush(),
    },
    onCatalogChange: opened.onCatalogChange,
    // Code and tools mode with nothing pinned list the control tools whatever the servers bring: such a session
    // opens (and this front answers `initialize` and `tools/list`) at once; every other one waits, as the list does.
    waitForStartup: false,
  });
}

/**
 * The 2025 era: every request of the MCP session is answered with its one session; a call asks its client on its
 * own request's stream, and its upstream log messages go there too; a tools/list is noted for the change watch.
 */
function legacySessionEra(parts: { server: Server; scope: SessionScope; lists: ListChangeWatch; forwarder: LogForwarder; relay: McpClientRelay | undefined }): SessionEra {
  const { server, scope, lists, forwarder } = parts;
  return {
    relay: parts.relay,
    withSession: (_ctx, answer) => answer(scope),
    async withCallChannel(ctx, call) {
      const leave = forwarder.enter(ctx);
      try {
        return await call({ signal: ctx.mcpReq.signal, capabilities: () => server.getClientCapabilities(), sendRequest: relayedRequest(ctx) });
      } finally {
        leave();
      }
    },
    listed(tools) {
      lists.listed(tools);
      return {};
    },
    // A request with a session id came over HTTP, one without over stdio.
    span: (ctx) => ({ sessionId: ctx.sessionId, protocolVersion: server.getNegotiatedProtocolVersion(), transport: ctx.sessionId === undefined ? 'pipe' : 'tcp' }),
  };
}

/** The methods an upstream server may ask its client, which the relay passes on. */
const RELAYED_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;

function isRelayedMethod(method: string): method is (typeof RELAYED_METHODS)[number] {
  return RELAYED_METHODS.some((relayed) => relayed === method);
}

/** The relay's view of the request's `send` (requests go out related to the call, on its stream). */
function relayedRequest(ctx: ServerContext): RelayCall['sendRequest'] {
  return async (request, schema, requestOptions) => {
    const { method } = request;
    if (!isRelayedMethod(method)) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `An upstream server asked ${method.slice(0, 60)}, which cannot be relayed to the client`);
    // The SDK checks a spec method's answer itself; `schema` then gives it the caller's type.
    return schema.parse(await ctx.mcpReq.send({ method, ...(request.params === undefined ? {} : { params: request.params }) }, requestOptions));
  };
}
