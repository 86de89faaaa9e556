// Relays what upstream MCP servers ask of their client (sampling, elicitation) to the MCP client whose tool call
// caused it, and only when that client may hear the asking server. A question goes to a call in flight that is
// talking to the asking server (a call to one of its tools in flight) and whose session's policy admits that server:
// - asked within a call's own async context and marked so (`withinCall`: a 2026-07-28 upstream's `input_required`,
//   which the gateway answers in the caller's context), it goes to that call or to nobody, also once it has ended;
// - otherwise (a 2025-era upstream's own request arrives on the shared connection, outside every call) to the one
//   session whose calls in flight talk to the asking server; to nobody when none or several do, nor for a while after
//   a call to that server was abandoned (cancelled, timed out): the server may still be serving it, and a question
//   of that call must not reach whoever calls the server next.
// An approval the gateway asks (`onApproval`) goes to the call in whose scope it is asked, or to nobody. Only to a
// client that declared the capability; otherwise the question is declined (elicitation) or refused (sampling),
// logged, with a reason the upstream tool can report. Fails closed: a server's question never reaches a user who did
// not cause it, nor one whose policy refuses that server.
import { AsyncLocalStorage } from 'node:async_hooks';
import { ProtocolError, ProtocolErrorCode, specTypeSchemas, type ClientCapabilities, type StandardSchemaV1Sync } from '@modelcontextprotocol/server';
import type { McpElicitationHandler, McpSamplingHandler } from '@tool-search/gateway-adapter';
import pino, { type Logger } from 'pino';

/** One tool call of an MCP session, in flight: how to ask its client, and what the client can answer. */
export interface RelayCall {
  /** The MCP session it belongs to. */
  session: string;
  /** The client's capabilities from its `initialize`. */
  capabilities: () => ClientCapabilities | undefined;
  /** Whether the call is talking to upstream server `server` now: a call to one of its tools is in flight. */
  talksTo: (server: string) => boolean;
  /** Whether the session's policy admits upstream server `server` now (its policy view holds the tool being called). */
  admits: (server: string) => boolean;
  /**
   * Sends a request to the client, related to the call (the SDK handler's `extra.sendRequest`). `inputKey` is the
   * upstream server's own key for the question (a 2026-07-28 upstream's), which a 2026-07-28 front asks under.
   */
  sendRequest: <T>(request: { method: string; params?: Record<string, unknown> }, schema: { parse(value: unknown): T }, options?: { signal?: AbortSignal; inputKey?: string | undefined }) => Promise<T>;
}

/** Sampling and elicitation handlers for the host, fed by the MCP sessions' calls in flight. */
export interface McpClientRelay {
  /** Pass as `createToolSearchHost({ mcpClient: { onSampling } })`. */
  readonly onSampling: McpSamplingHandler;
  /** Pass as `createToolSearchHost({ mcpClient: { onElicitation } })`. */
  readonly onElicitation: McpElicitationHandler;
  /**
   * Asks the client of the call in whose scope (`within`) it is called, and no other: for a question the gateway
   * itself asks about that call (an approval). Declined without such a call in flight. `context.server` names the
   * asker in logs only.
   */
  readonly onApproval: McpElicitationHandler;
  /** Marks a tool call in flight (used by `createToolSearchMcpServer`); call the returned function when it ends. */
  enter(call: RelayCall): () => void;
  /** Runs `run` (the call's execution) so that a question asked within it goes to `call` (entered) and no other. */
  within<T>(call: RelayCall, run: () => Promise<T>): Promise<T>;
  /**
   * Says a call to upstream `server` was abandoned (cancelled, timed out) while the server may still be serving it
   * (used by `createToolSearchMcpServer`): the server's questions asked outside a call are refused for a while.
   */
  abandoned(server: string): void;
}

/** How long after a call to a server was abandoned its questions asked outside a call are refused, by default. */
export const ABANDONED_QUIET_MS = 30_000;

/**
 * Creates a relay; hand its handlers to the host and the relay itself to each `createToolSearchMcpServer`.
 * `abandonedQuietMs` (default `ABANDONED_QUIET_MS`) is how long a server's out-of-call questions are refused after a
 * call to it was abandoned.
 */
export function createMcpClientRelay(options: { logger?: Logger; abandonedQuietMs?: number } = {}): McpClientRelay {
  const log = (options.logger ?? pino({ level: 'silent' })).child({ pkg: 'mcp-server', component: 'relay' });
  const quietMs = options.abandonedQuietMs ?? ABANDONED_QUIET_MS;
  const inFlight: RelayCall[] = [];
  const scope = new AsyncLocalStorage<RelayCall>();
  /** Servers with an abandoned call, until when their out-of-call questions are refused. */
  const quietUntil = new Map<string, number>();

  const { target, approver } = createRelayRouting(inFlight, scope, quietUntil);

  const elicit = (call: RelayCall, request: Parameters<McpElicitationHandler>[0], context: Parameters<McpElicitationHandler>[1]) =>
    call.sendRequest({ method: 'elicitation/create', params: request as Record<string, unknown> }, parser<Awaited<ReturnType<McpElicitationHandler>>>(specTypeSchemas.ElicitResult), { signal: context.signal, inputKey: context.inputKey });

  return {
    async onSampling(request, context) {
      const call = target(context.server, 'sampling', context.withinCall);
      if (typeof call === 'string') {
        log.info({ server: context.server, reason: call }, 'sampling request refused');
        throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Sampling is not available: ${call}`);
      }
      // The host's handler type is the plain result: a result with tool use is passed through as the client gave it.
      const schema = request.tools === undefined ? parser<Awaited<ReturnType<McpSamplingHandler>>>(specTypeSchemas.CreateMessageResult) : parser<Awaited<ReturnType<McpSamplingHandler>>>(specTypeSchemas.CreateMessageResultWithTools);
      return (await call.sendRequest({ method: 'sampling/createMessage', params: request as Record<string, unknown> }, schema, { signal: context.signal, inputKey: context.inputKey })) as Awaited<ReturnType<McpSamplingHandler>>;
    },
    async onElicitation(request, context) {
      const call = target(context.server, 'elicitation', context.withinCall);
      if (typeof call === 'string') {
        log.info({ server: context.server, reason: call }, 'elicitation request declined');
        return { action: 'decline' };
      }
      return elicit(call, request, context);
    },
    async onApproval(request, context) {
      const call = approver();
      if (typeof call === 'string') {
        log.info({ asker: context.server, reason: call }, 'approval request declined');
        return { action: 'decline' };
      }
      return elicit(call, request, context);
    },
    within(call, run) {
      return scope.run(call, run);
    },
    abandoned(server) {
      quietUntil.set(server, Date.now() + quietMs);
      log.info({ server, quietMs }, 'call to upstream abandoned: its questions outside a call are refused for a while');
    },
    enter(call) {
      inFlight.push(call);
      return () => {
        const index = inFlight.indexOf(call);
        if (index !== -1) inFlight.splice(index, 1);
      };
    },
  };
}

/** Where a question goes: `target` for an upstream server's, `approver` for the gateway's own; each a call, or why none. */
function createRelayRouting(inFlight: RelayCall[], scope: AsyncLocalStorage<RelayCall>, quietUntil: Map<string, number>) {
  /** The call a question of `server` may go to, or why there is none. */
  const target = (server: string, capability: 'sampling' | 'elicitation', withinCall: boolean | undefined): RelayCall | string => {
    // Only a question the gateway says it asks within its call's context is routed by that context: a 2025 server's
    // own request is dispatched from the connection's context, which may be one a call started it in.
    const own = withinCall === true ? scope.getStore() : undefined;
    if (own !== undefined) {
      // Whose call asked is known: that client or nobody (never the next caller once this call has ended).
      if (!inFlight.includes(own)) return `the tool call that MCP server "${server}" asked within has ended`;
      return may(own, server, capability);
    }
    const quiet = quietUntil.get(server);
    if (quiet !== undefined && quiet > Date.now()) return `a call to MCP server "${server}" was abandoned (cancelled or timed out) moments ago: the question may be that call's`;
    if (quiet !== undefined) quietUntil.delete(server);
    const talking = inFlight.filter((call) => call.talksTo(server));
    const sessions = new Set(talking.map((call) => call.session));
    if (sessions.size === 0) return `no MCP client has a tool call in flight to MCP server "${server}"`;
    if (sessions.size > 1) return `${sessions.size} MCP clients have tool calls in flight to MCP server "${server}", so it is not known whose call it is serving`;
    return may(talking[talking.length - 1]!, server, capability);
  };

  /** `call` when its client may hear `server` now, or why not. */
  const may = (call: RelayCall, server: string, capability: 'sampling' | 'elicitation'): RelayCall | string => {
    if (!call.talksTo(server)) return `the tool call is not talking to MCP server "${server}"`;
    if (!call.admits(server)) return `the MCP client's policy does not admit MCP server "${server}"`;
    if (call.capabilities()?.[capability] === undefined) return `the MCP client did not declare the ${capability} capability`;
    return call;
  };

  /** The call in whose scope an approval is asked, or why there is none. */
  const approver = (): RelayCall | string => {
    const own = scope.getStore();
    if (own === undefined) return 'it was not asked within a tool call';
    if (!inFlight.includes(own)) return 'the tool call it was asked within has ended';
    if (own.capabilities()?.elicitation === undefined) return 'the MCP client did not declare the elicitation capability';
    return own;
  };
  return { target, approver };
}

/** A spec schema as the `{ parse }` a relayed answer is checked with: an answer of the wrong shape is refused. */
function parser<T>(schema: StandardSchemaV1Sync<unknown>): { parse(value: unknown): T } {
  return {
    parse(value) {
      const checked = schema['~standard'].validate(value);
      if (checked.issues !== undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The client's answer is not valid: ${checked.issues.map((issue) => issue.message).join('; ').slice(0, 300)}`);
      return checked.value as T;
    },
  };
}
