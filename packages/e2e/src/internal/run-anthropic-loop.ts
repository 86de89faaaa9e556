// The agent loop over the Anthropic Messages API. A `tool_use` of our search tool in native mode is answered
// by the session with a `tool_result` of `tool_reference` blocks (the API expands them into the deferred
// definitions); every other `tool_use` is executed, its outcome rendered as Anthropic's `tool_result`.
import Anthropic from '@anthropic-ai/sdk';
import { renderOutcome } from '@tool-search/gateway-adapter';
import { TOOL_SEARCH } from '@tool-search/modes';
import type { AgentLoopOptions, AgentLoopResult, AgentNativeSearch, AgentToolCall } from '../agent-loop-options.js';
import { joinInstructions, toolCallRecord, wrongClient } from './agent-turn.js';

/** Room for the model's reply; small enough that the SDK accepts a non-streaming request. */
const MAX_TOKENS = 4_096;

/** The assistant's reply, replayed as the next request's assistant message (text and tool uses). */
function replayContent(content: Anthropic.ContentBlock[]): Anthropic.ContentBlockParam[] {
  const replayed: Anthropic.ContentBlockParam[] = [];
  for (const block of content) {
    if (block.type === 'text') replayed.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') replayed.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
  }
  return replayed;
}

export async function runAnthropicLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { client, provider, session, logger } = options;
  if (!(client instanceof Anthropic)) throw wrongClient(provider.api, '@anthropic-ai/sdk');
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: options.input }];
  const toolCalls: AgentToolCall[] = [];
  const nativeSearches: AgentNativeSearch[] = [];
  for (let turn = 1; turn <= options.maxTurns; turn += 1) {
    const surface = session.surface('anthropic');
    const system = joinInstructions(options.instructions, surface.instructions);
    const params = {
      model: provider.model,
      max_tokens: MAX_TOKENS,
      messages,
      ...(system ? { system } : {}),
      ...(surface.tools.length > 0 ? { tools: surface.tools } : {}),
    };
    const message: Anthropic.Message = provider.stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
    const uses = message.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    logger.debug({ turn, toolUses: uses.length }, 'provider turn');
    if (uses.length === 0) {
      const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      return { text, turns: turn, toolCalls, clientCalls: [], nativeSearches, truncated: false };
    }
    messages.push({ role: 'assistant', content: replayContent(message.content) });
    const results: Anthropic.ToolResultBlockParam[] = [];
    const clientCalls: AgentToolCall[] = [];
    for (const use of uses) {
      if (surface.mode === 'native' && use.name === TOOL_SEARCH) {
        const answer = session.answerNativeSearch(use, 'anthropic');
        results.push(answer.item);
        nativeSearches.push({ callId: use.id, loadedIds: answer.loadedIds, ...(answer.error === undefined ? {} : { error: answer.error }) });
        continue;
      }
      const outcome = await session.execute({ name: use.name, args: use.input, toolCallId: use.id });
      const record = toolCallRecord(use.id, use.name, JSON.stringify(use.input), outcome);
      toolCalls.push(record);
      if (outcome.status === 'client') clientCalls.push(record);
      else results.push(renderOutcome(outcome, 'anthropic', { callId: use.id }).item);
    }
    if (clientCalls.length > 0) return { text: '', turns: turn, toolCalls, clientCalls, nativeSearches, truncated: false };
    messages.push({ role: 'user', content: results });
  }
  return { text: '', turns: options.maxTurns, toolCalls, clientCalls: [], nativeSearches, truncated: true };
}
