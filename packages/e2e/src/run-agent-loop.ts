// The gateway's agent loop: official `openai` client → provider, tool calls → the tool-search session,
// results back, until the model answers in text (or hands a client tool call back to the caller).
import type OpenAI from 'openai';
import type { Logger } from 'pino';
import type { GatewayProviderConfig } from './load-gateway-config.js';

/** The provider-facing tool formats the loop asks the session for. */
export type AgentSurfaceFormat = 'openai-chat' | 'openai-responses';

/**
 * The part of a gateway-adapter session the loop drives (structural, so the loop stays a thin consumer of
 * `@tool-search/gateway-adapter`'s public API).
 */
export interface AgentSession {
  surface(format: AgentSurfaceFormat): { tools: readonly unknown[]; instructions: string };
  execute(call: { name: string; args: unknown; toolCallId: string }): Promise<{ status: string; content: string }>;
}

/** One tool call the model made and what the session answered. */
export interface AgentToolCall {
  callId: string;
  name: string;
  arguments: string;
  status: string;
  content: string;
}

/** What one run of the loop produced. */
export interface AgentLoopResult {
  /** The model's final text ('' when the run ended on client tool calls or the turn limit). */
  text: string;
  turns: number;
  toolCalls: AgentToolCall[];
  /** Calls to client tools, handed back to the caller to execute. */
  clientCalls: AgentToolCall[];
  /** True when the loop stopped at `maxTurns` with tool calls still coming. */
  truncated: boolean;
}

/** Options for `runAgentLoop`. */
export interface AgentLoopOptions {
  client: OpenAI;
  provider: GatewayProviderConfig;
  session: AgentSession;
  /** The user's message. */
  input: string;
  /** Extra system text from the caller, placed before the session's instructions. */
  instructions?: string;
  maxTurns: number;
  logger: Logger;
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Malformed JSON from the model goes to the session as-is, which reports it as invalid arguments.
    return text;
  }
}

function joinInstructions(...parts: Array<string | undefined>): string {
  return parts.filter((part): part is string => Boolean(part && part.trim())).join('\n\n');
}

async function runResponses(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { client, provider, session, logger } = options;
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: options.input }];
  const toolCalls: AgentToolCall[] = [];
  for (let turn = 1; turn <= options.maxTurns; turn += 1) {
    const surface = session.surface('openai-responses');
    const instructions = joinInstructions(options.instructions, surface.instructions);
    const params = {
      model: provider.model,
      input,
      ...(instructions ? { instructions } : {}),
      ...(surface.tools.length > 0 ? { tools: surface.tools as OpenAI.Responses.Tool[] } : {}),
    };
    const response: OpenAI.Responses.Response = provider.stream
      ? await client.responses.stream(params).finalResponse()
      : await client.responses.create({ ...params, stream: false });
    const calls = response.output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
    logger.debug({ turn, calls: calls.length }, 'provider turn');
    if (calls.length === 0) return { text: response.output_text, turns: turn, toolCalls, clientCalls: [], truncated: false };
    const clientCalls: AgentToolCall[] = [];
    for (const call of calls) {
      input.push({ type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments });
      const outcome = await session.execute({ name: call.name, args: parseArguments(call.arguments), toolCallId: call.call_id });
      const record = { callId: call.call_id, name: call.name, arguments: call.arguments, status: outcome.status, content: outcome.content };
      toolCalls.push(record);
      if (outcome.status === 'client') clientCalls.push(record);
      else input.push({ type: 'function_call_output', call_id: call.call_id, output: outcome.content });
    }
    if (clientCalls.length > 0) return { text: '', turns: turn, toolCalls, clientCalls, truncated: false };
  }
  return { text: '', turns: options.maxTurns, toolCalls, clientCalls: [], truncated: true };
}

async function runChat(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { client, provider, session, logger } = options;
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: options.input }];
  const toolCalls: AgentToolCall[] = [];
  for (let turn = 1; turn <= options.maxTurns; turn += 1) {
    const surface = session.surface('openai-chat');
    const instructions = joinInstructions(options.instructions, surface.instructions);
    const params = {
      model: provider.model,
      messages: instructions ? [{ role: 'system' as const, content: instructions }, ...messages] : messages,
      ...(surface.tools.length > 0 ? { tools: surface.tools as OpenAI.Chat.ChatCompletionTool[] } : {}),
    };
    const completion: OpenAI.Chat.ChatCompletion = provider.stream
      ? await client.chat.completions.stream(params).finalChatCompletion()
      : await client.chat.completions.create({ ...params, stream: false });
    const message = completion.choices[0]?.message;
    const calls = (message?.tool_calls ?? []).filter(
      (call): call is OpenAI.Chat.ChatCompletionMessageFunctionToolCall => call.type === 'function',
    );
    logger.debug({ turn, calls: calls.length }, 'provider turn');
    if (calls.length === 0) return { text: message?.content ?? '', turns: turn, toolCalls, clientCalls: [], truncated: false };
    messages.push({ role: 'assistant', content: message?.content ?? null, tool_calls: calls });
    const clientCalls: AgentToolCall[] = [];
    for (const call of calls) {
      const { name, arguments: args } = call.function;
      const outcome = await session.execute({ name, args: parseArguments(args), toolCallId: call.id });
      const record = { callId: call.id, name, arguments: args, status: outcome.status, content: outcome.content };
      toolCalls.push(record);
      if (outcome.status === 'client') clientCalls.push(record);
      else messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.content });
    }
    if (clientCalls.length > 0) return { text: '', turns: turn, toolCalls, clientCalls, truncated: false };
  }
  return { text: '', turns: options.maxTurns, toolCalls, clientCalls: [], truncated: true };
}

/**
 * Runs the agent loop over the configured wire format until the model answers in text, a client tool is
 * called (returned to the caller), or `maxTurns` is reached. Provider errors propagate (the gateway turns
 * them into an HTTP error).
 */
export function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  return options.provider.api === 'chat' ? runChat(options) : runResponses(options);
}
