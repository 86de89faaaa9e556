// What differs between the protocol eras for the session handler table (register-session-handlers.ts): where a
// request's tool-search session comes from, how a tool call reaches its client, what a tool list adds, and the era's
// facts of a request's server span. Everything else about a session's requests is the table's.
import type { CallToolResult, ClientCapabilities, HandlerResultTypeMap, ListToolsResult, ServerContext, Tool } from '@modelcontextprotocol/server';
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import type { McpClientRelay, RelayCall } from '../create-mcp-client-relay.js';
import type { SessionUpstream } from './create-session-upstream.js';
import type { ServerRequestFacts } from './trace-server-request.js';

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

/** One protocol era, as the session handler table is served to it. */
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
