// The OpenAI Chat Completions API of the mock provider (`POST /v1/chat/completions`), JSON and SSE. Chat has
// no deferred loading and no tool search: every declared function is visible to the model.
import type { ServerResponse } from 'node:http';
import type { DeclaredTool, ProviderRequestView, ResolvedReply, ToolResultMessage } from '../resolve-script-reply.js';
import { sendJson, startSse } from './http-json.js';
import { asArray, asRecord, countSchemas, halves, refuse, textOf, type AnswerContext, type Json, type MockApi, type ReadRequestResult } from './mock-api.js';

function read(body: Json): ReadRequestResult {
  const callNames = new Map<string, string>();
  const unanswered = new Set<string>();
  const toolResults: ToolResultMessage[] = [];
  let userText = '';
  let instructions = '';
  for (const raw of asArray(body.messages)) {
    const message = asRecord(raw);
    // Chat requires the tool messages answering an assistant's calls to follow it before anything else.
    if (message.role !== 'tool' && unanswered.size > 0) {
      return refuse('missing_tool_output', `An assistant message with tool_calls must be followed by tool messages responding to each tool_call_id (missing: ${[...unanswered][0]})`);
    }
    if (message.role === 'system' || message.role === 'developer') instructions += textOf(message.content);
    else if (message.role === 'user') userText += textOf(message.content);
    else if (message.role === 'assistant') {
      for (const call of asArray(message.tool_calls)) {
        const record = asRecord(call);
        callNames.set(String(record.id), String(asRecord(record.function).name));
        unanswered.add(String(record.id));
      }
    } else if (message.role === 'tool') {
      const callId = String(message.tool_call_id);
      if (!unanswered.delete(callId)) return refuse('unknown_call', `Tool message ${callId} does not answer a tool call of the assistant message before it`);
      toolResults.push({ callId, toolName: callNames.get(callId), output: textOf(message.content) });
    }
  }
  if (unanswered.size > 0) return refuse('missing_tool_output', `No tool message found for tool call ${[...unanswered][0]}`);
  const tools: DeclaredTool[] = asArray(body.tools).map((raw) => {
    const fn = asRecord(asRecord(raw).function);
    return { name: String(fn.name ?? ''), description: String(fn.description ?? ''), parameters: fn.parameters, deferred: false, loaded: false };
  });
  const view: ProviderRequestView = {
    api: 'chat',
    model: String(body.model ?? ''),
    stream: body.stream === true,
    instructions,
    userText,
    tools,
    deferredTools: [],
    declaresToolSearch: false,
    toolResults,
  };
  return { ok: true, view, schemas: countSchemas(view) };
}

function answer(response: ServerResponse, view: ProviderRequestView, reply: ResolvedReply, context: AnswerContext): void {
  const { ids } = context;
  const id = `chatcmpl_${ids()}`;
  const created = Math.floor(Date.now() / 1000);
  const toolCalls = reply.toolCalls.map((call) => ({ id: `call_${ids()}`, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const promptTokens = Math.ceil(context.requestBytes / 4);
  const chatUsage = { prompt_tokens: promptTokens, completion_tokens: 16, total_tokens: promptTokens + 16 };
  if (!view.stream) {
    sendJson(response, 200, {
      id,
      object: 'chat.completion',
      created,
      model: view.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: reply.text ?? null, refusal: null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
          logprobs: null,
          finish_reason: finishReason,
        },
      ],
      usage: chatUsage,
    });
    return;
  }
  const send = startSse(response);
  const chunk = (delta: Json, finish: string | null): void =>
    send(null, { id, object: 'chat.completion.chunk', created, model: view.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  chunk({ role: 'assistant', content: reply.text === undefined ? null : '' }, null);
  if (reply.text !== undefined) for (const content of halves(reply.text)) chunk({ content }, null);
  toolCalls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, null);
    for (const args of halves(call.function.arguments)) chunk({ tool_calls: [{ index, function: { arguments: args } }] }, null);
  });
  chunk({}, finishReason);
  send(null, { id, object: 'chat.completion.chunk', created, model: view.model, choices: [], usage: chatUsage });
  send(null, '[DONE]');
  response.end();
}

/** `POST /v1/chat/completions`. */
export const mockChatApi: MockApi = {
  api: 'chat',
  read,
  answer,
  errorBody: (refusal) => ({ error: { message: refusal.message, type: 'invalid_request_error', param: null, code: refusal.code } }),
};
