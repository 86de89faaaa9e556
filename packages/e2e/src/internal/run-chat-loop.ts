// The agent loop over OpenAI Chat Completions (no deferred loading there: native mode renders tools mode, or with
// nativeSearch.chat "load" the session declares what its tool_search loaded as functions of the next request).
import OpenAI from 'openai';
import type { AgentLoopOptions, AgentLoopResult, AgentToolCall } from '../agent-loop-options.js';
import { joinInstructions, parseToolArguments, toolCallRecord, wrongClient } from './agent-turn.js';

export async function runChatLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { client, provider, session, logger } = options;
  if (!(client instanceof OpenAI)) throw wrongClient(provider.api, 'openai');
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: options.input }];
  const toolCalls: AgentToolCall[] = [];
  for (let turn = 1; turn <= options.maxTurns; turn += 1) {
    const surface = session.surface('openai-chat');
    const instructions = joinInstructions(options.instructions, surface.instructions);
    const params = {
      model: provider.model,
      messages: instructions ? [{ role: 'system' as const, content: instructions }, ...messages] : messages,
      ...(surface.tools.length > 0 ? { tools: surface.tools } : {}),
    };
    const completion: OpenAI.Chat.ChatCompletion = provider.stream
      ? await client.chat.completions.stream(params).finalChatCompletion()
      : await client.chat.completions.create({ ...params, stream: false });
    const message = completion.choices[0]?.message;
    const calls = (message?.tool_calls ?? []).filter((call): call is OpenAI.Chat.ChatCompletionMessageFunctionToolCall => call.type === 'function');
    logger.debug({ turn, calls: calls.length }, 'provider turn');
    if (calls.length === 0) return { text: message?.content ?? '', turns: turn, toolCalls, clientCalls: [], nativeSearches: [], truncated: false };
    messages.push({ role: 'assistant', content: message?.content ?? null, tool_calls: calls });
    const clientCalls: AgentToolCall[] = [];
    for (const call of calls) {
      const { name, arguments: args } = call.function;
      const outcome = await session.execute({ name, args: parseToolArguments(args), toolCallId: call.id });
      const record = toolCallRecord(call.id, name, args, outcome);
      toolCalls.push(record);
      if (outcome.status === 'client') clientCalls.push(record);
      else messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.content });
    }
    if (clientCalls.length > 0) return { text: '', turns: turn, toolCalls, clientCalls, nativeSearches: [], truncated: false };
  }
  return { text: '', turns: options.maxTurns, toolCalls, clientCalls: [], nativeSearches: [], truncated: true };
}
