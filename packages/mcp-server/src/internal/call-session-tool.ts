// One `tools/call` of a session, the same in both protocol eras: the call runs through the session (policy,
// validation, approvals, hooks), within the relay's scope so that what an upstream server asks mid-call goes to
// this call's client only, with progress to the client's token when it gave one; its outcome becomes the SDK's
// result, and the resources it returned are remembered so that a link to one reads from its server.
import type { CallToolRequest, CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { parseToolId } from '@tool-search/catalog';
import type { ExecuteOptions, ToolCallOutcome } from '@tool-search/gateway-adapter';
import type { McpClientRelay, RelayCall } from '../create-mcp-client-relay.js';
import type { CallChannel, SessionScope } from './session-era.js';
import { outcomeToCallResult } from './to-sdk-results.js';
import { trackUpstreamCalls } from './track-upstream-calls.js';
import type { UpstreamResources } from './upstream-resources.js';

/** What one call is: its params, its SDK context, its channel to the client, and the relay (when upstream questions are relayed). */
export interface SessionToolCall {
  params: CallToolRequest['params'];
  ctx: ServerContext;
  channel: CallChannel;
  relay: McpClientRelay | undefined;
}

export async function callSessionTool(scope: SessionScope, call: SessionToolCall): Promise<CallToolResult> {
  const { session, upstream } = scope;
  const { params, ctx, channel, relay } = call;
  // The relay asks this client only questions of the upstream servers this call is talking to and its policy admits.
  const calls = trackUpstreamCalls(session, { onAbandoned: (name) => relay?.abandoned(name) });
  const relayCall: RelayCall = { session: session.sessionId, capabilities: channel.capabilities, talksTo: calls.talksTo, admits: calls.admits, sendRequest: channel.sendRequest };
  const leave = relay?.enter(relayCall);
  try {
    const execute = () =>
      session.execute({ name: params.name, args: params.arguments ?? {}, toolCallId: `mcp-${String(ctx.mcpReq.id)}` }, { signal: channel.signal, onUpstreamCall: calls.onUpstreamCall, ...progressOf(params, ctx) });
    // Within the relay's scope: a question asked within this call goes to this client.
    const outcome = await (relay === undefined ? execute() : relay.within(relayCall, execute));
    noteResultUris(outcome, upstream.resources);
    return outcomeToCallResult(outcome);
  } finally {
    leave?.();
  }
}

/** Progress of the call, to the client's progress token; a client that sent none follows no progress: its call ends within the call timeout. */
function progressOf(params: CallToolRequest['params'], ctx: ServerContext): Pick<ExecuteOptions, 'onProgress' | 'progressExtendsTimeout'> {
  const progressToken = params._meta?.progressToken;
  if (progressToken === undefined) return { progressExtendsTimeout: false };
  return { onProgress: (progress) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...progress } }).catch(() => undefined) };
}

/** Resource links and embedded resources a tool of a server returned are read from that server. */
function noteResultUris(outcome: ToolCallOutcome, resources: Pick<UpstreamResources, 'noteResultParts'>): void {
  if (outcome.status !== 'ok' || outcome.parts === undefined || outcome.tool === undefined) return;
  const parsed = parseToolId(outcome.tool.id);
  if (parsed?.source === 'mcp') resources.noteResultParts(parsed.owner, outcome.parts);
}
