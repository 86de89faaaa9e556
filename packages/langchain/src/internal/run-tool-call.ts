// One tool call of the agent, run through the session: the agent's own tool only for an authorised client call.
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { ToolMessage, type ToolCallHandler, type ToolCallRequest } from 'langchain';
import { toToolMessageContent } from '../to-tool-message-content.js';
import { nativeSearchAnswer } from './tool-references.js';

let anonymousCalls = 0;

/**
 * Runs `request` through `session.execute` (with the call id and the run's abort signal). A `client` outcome runs
 * the agent's tool (`handler`) with the arguments the session authorised; every other outcome is a ToolMessage of
 * its rendered content (`status: 'error'` unless `ok`). A call of `nativeSearchName` (native mode's `tool_search`,
 * as the last model call declared it) is answered by `session.answerNativeSearch` with Anthropic `tool_reference` blocks.
 */
export async function runToolCall(
  session: ToolSearchSession,
  request: ToolCallRequest,
  handler: ToolCallHandler,
  nativeSearchName: string | undefined,
): Promise<Awaited<ReturnType<ToolCallHandler>>> {
  const call = request.toolCall;
  const toolCallId = call.id ?? `langchain-call-${++anonymousCalls}`;
  if (nativeSearchName !== undefined && call.name === nativeSearchName) return nativeSearchAnswer(session, call.name, call.args, toolCallId);
  const signal = request.runtime.signal;
  const outcome = await session.execute({ name: call.name, args: call.args, toolCallId }, signal === undefined ? {} : { signal });
  if (outcome.status === 'client') {
    if (request.tool === undefined) {
      return new ToolMessage({ content: `The client tool "${call.name}" has no tool in this agent to run it.`, tool_call_id: toolCallId, name: call.name, status: 'error' });
    }
    return handler({ ...request, toolCall: { ...call, id: toolCallId, args: outcome.args } });
  }
  return new ToolMessage({ content: toToolMessageContent(outcome), tool_call_id: toolCallId, name: call.name, status: outcome.status === 'ok' ? 'success' : 'error' });
}
