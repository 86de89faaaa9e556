// The agent loop over the OpenAI Responses API. In native mode the model's client-executed `tool_search_call`
// items are answered by the session (a `tool_search_output` input item that loads the ranked definitions);
// the loaded tools then come back as plain function calls.
import OpenAI from 'openai';
import type { AgentLoopOptions, AgentLoopResult, AgentNativeSearch, AgentToolCall } from '../agent-loop-options.js';
import { joinInstructions, parseToolArguments, toolCallRecord, wrongClient } from './agent-turn.js';

/** The model's `tool_search_call`, replayed as an input item (stateless: no `previous_response_id`). */
function replayToolSearchCall(item: OpenAI.Responses.ResponseToolSearchCall): OpenAI.Responses.ResponseInputItem {
  return { type: 'tool_search_call', id: item.id, call_id: item.call_id, execution: item.execution, status: item.status, arguments: item.arguments };
}

/** The model's `function_call`, replayed as an input item (with its namespace, for a loaded namespaced function). */
function replayFunctionCall(item: OpenAI.Responses.ResponseFunctionToolCall): OpenAI.Responses.ResponseInputItem {
  return { type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments, ...(item.namespace === undefined ? {} : { namespace: item.namespace }) };
}

export async function runResponsesLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { client, provider, session, logger } = options;
  if (!(client instanceof OpenAI)) throw wrongClient(provider.api, 'openai');
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: options.input }];
  const toolCalls: AgentToolCall[] = [];
  const nativeSearches: AgentNativeSearch[] = [];
  for (let turn = 1; turn <= options.maxTurns; turn += 1) {
    const surface = session.surface('openai-responses');
    const instructions = joinInstructions(options.instructions, surface.instructions);
    const params = {
      model: provider.model,
      input,
      ...(instructions ? { instructions } : {}),
      ...(surface.tools.length > 0 ? { tools: surface.tools } : {}),
    };
    const response: OpenAI.Responses.Response = provider.stream
      ? await client.responses.stream(params).finalResponse()
      : await client.responses.create({ ...params, stream: false });
    let acted = 0;
    const clientCalls: AgentToolCall[] = [];
    for (const item of response.output) {
      if (item.type === 'tool_search_call' && item.execution === 'client') {
        acted += 1;
        input.push(replayToolSearchCall(item));
        const answer = session.answerNativeSearch(item, 'openai-responses');
        input.push(answer.item);
        // A weak search that loaded nothing: the server map, as a message right after the output.
        if (answer.followUp !== undefined) input.push(answer.followUp);
        nativeSearches.push({ callId: item.call_id ?? '', loadedIds: answer.loadedIds, ...(answer.error === undefined ? {} : { error: answer.error }) });
      } else if (item.type === 'function_call') {
        acted += 1;
        input.push(replayFunctionCall(item));
        const outcome = await session.execute({ name: item.name, args: parseToolArguments(item.arguments), toolCallId: item.call_id });
        const record = toolCallRecord(item.call_id, item.name, item.arguments, outcome);
        toolCalls.push(record);
        if (outcome.status === 'client') clientCalls.push(record);
        else input.push({ type: 'function_call_output', call_id: item.call_id, output: outcome.content });
      }
    }
    logger.debug({ turn, actions: acted, nativeSearches: nativeSearches.length }, 'provider turn');
    if (acted === 0) return { text: response.output_text, turns: turn, toolCalls, clientCalls: [], nativeSearches, truncated: false };
    if (clientCalls.length > 0) return { text: '', turns: turn, toolCalls, clientCalls, nativeSearches, truncated: false };
  }
  return { text: '', turns: options.maxTurns, toolCalls, clientCalls: [], nativeSearches, truncated: true };
}
