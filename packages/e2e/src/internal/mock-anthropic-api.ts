// The Anthropic Messages API of the mock provider (`POST /v1/messages`), JSON and SSE, with deferred loading
// as Anthropic documents it: tools declared with `defer_loading: true` are not in the model's context until a
// `tool_result` of a client-side search returns `tool_reference` blocks naming them; the API expands each
// reference into the deferred definition, and only then can the model call the tool (a `tool_use`). The mock
// runs no server tool (Anthropic's own BM25 / regex search tools are refused).
import type { ServerResponse } from 'node:http';
import type { DeclaredTool, ProviderRequestView, ResolvedReply, ToolResultMessage } from '../resolve-script-reply.js';
import { sendJson, startSse } from './http-json.js';
import { asArray, asRecord, countSchemas, halves, refuse, textOf, type AnswerContext, type Json, type MockApi, type ReadRequestResult } from './mock-api.js';

function readTools(raw: unknown[]): DeclaredTool[] | { problem: string; code: string } {
  const tools: DeclaredTool[] = [];
  for (const entry of raw) {
    const tool = asRecord(entry);
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
      return { code: 'unsupported_tool', problem: `this mock runs no server tool; received a tool of type ${JSON.stringify(String(tool.type)).slice(0, 60)}` };
    }
    const schema = asRecord(tool.input_schema);
    if (schema.type !== 'object') return { code: 'invalid_request', problem: `tools: ${String(tool.name)}: input_schema.type: Input should be 'object'` };
    tools.push({ name: String(tool.name ?? ''), description: String(tool.description ?? ''), parameters: tool.input_schema, deferred: tool.defer_loading === true, loaded: false });
  }
  return tools;
}

function read(body: Json): ReadRequestResult {
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1) return refuse('invalid_request', 'max_tokens: Field required (a positive integer)');
  const tools = readTools(asArray(body.tools));
  if (!Array.isArray(tools)) return refuse(tools.code, tools.problem);
  if (tools.length > 0 && tools.every((tool) => tool.deferred)) return refuse('invalid_request', 'All tools have defer_loading set. At least one tool must not be deferred.');
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const callNames = new Map<string, string>();
  let pending = new Set<string>();
  const toolResults: ToolResultMessage[] = [];
  let userText = '';
  for (const [index, raw] of asArray(body.messages).entries()) {
    const message = asRecord(raw);
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : asArray(message.content).map(asRecord);
    if (message.role === 'assistant') {
      if (pending.size > 0) return refuse('missing_tool_result', `messages.${index}: tool_use ids were found without tool_result blocks immediately after: ${[...pending][0]}`);
      for (const block of blocks) {
        if (block.type !== 'tool_use') continue;
        callNames.set(String(block.id), String(block.name));
        pending.add(String(block.id));
      }
      continue;
    }
    if (message.role !== 'user') return refuse('invalid_request', `messages.${index}.role: expected user or assistant`);
    const answered = new Set<string>();
    let seenOther = false;
    for (const block of blocks) {
      if (block.type !== 'tool_result') {
        seenOther = true;
        if (block.type === 'text') userText += String(block.text ?? '');
        continue;
      }
      const callId = String(block.tool_use_id);
      if (seenOther) return refuse('invalid_request', `messages.${index}: tool_result blocks must come first in the content, before any other block`);
      if (!pending.has(callId)) return refuse('unknown_call', `messages.${index}: tool_result ${callId} does not answer a tool_use of the message before it`);
      answered.add(callId);
      const content = typeof block.content === 'string' ? [{ type: 'text', text: block.content }] : asArray(block.content).map(asRecord);
      const loadedTools: string[] = [];
      for (const part of content) {
        if (part.type !== 'tool_reference') continue;
        const name = String(part.tool_name);
        const tool = byName.get(name);
        if (tool === undefined || !tool.deferred) {
          return refuse('tool_reference_unresolved', `messages.${index}: tool_reference ${name} names no tool of this request declared with defer_loading`);
        }
        tool.loaded = true;
        loadedTools.push(name);
      }
      toolResults.push({ callId, toolName: callNames.get(callId), output: textOf(content), ...(loadedTools.length > 0 ? { loadedTools } : {}) });
    }
    const missing = [...pending].find((id) => !answered.has(id));
    if (missing !== undefined) return refuse('missing_tool_result', `messages.${index}: tool_use ids were found without tool_result blocks immediately after: ${missing}`);
    pending = new Set();
  }
  if (pending.size > 0) return refuse('missing_tool_result', `tool_use ids were found without tool_result blocks immediately after: ${[...pending][0]}`);
  const view: ProviderRequestView = {
    api: 'anthropic',
    model: String(body.model ?? ''),
    stream: body.stream === true,
    instructions: textOf(body.system),
    userText,
    tools: tools.filter((tool) => !tool.deferred || tool.loaded),
    deferredTools: tools.filter((tool) => tool.deferred && !tool.loaded),
    declaresToolSearch: false,
    toolResults,
  };
  return { ok: true, view, schemas: countSchemas(view) };
}

function contentBlocks(reply: ResolvedReply, ids: () => string): Json[] {
  if (reply.text !== undefined) return [{ type: 'text', text: reply.text, citations: null }];
  return reply.toolCalls.map((call) => ({ type: 'tool_use', id: `toolu_${ids()}`, name: call.name, input: JSON.parse(call.arguments) as unknown, caller: { type: 'direct' } }));
}

function usage(requestBytes: number, outputTokens: number): Json {
  return {
    input_tokens: Math.ceil(requestBytes / 4),
    output_tokens: outputTokens,
    cache_creation: null,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
    inference_geo: null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: 'standard',
    speed: null,
  };
}

function answer(response: ServerResponse, view: ProviderRequestView, reply: ResolvedReply, context: AnswerContext): void {
  const content = contentBlocks(reply, context.ids);
  const stopReason = reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
  const base = {
    id: `msg_${context.ids()}`,
    type: 'message',
    role: 'assistant',
    model: view.model,
    container: null,
    diagnostics: null,
    stop_details: null,
    stop_sequence: null,
  };
  if (!view.stream) {
    sendJson(response, 200, { ...base, content, stop_reason: stopReason, usage: usage(context.requestBytes, 16) });
    return;
  }
  const send = startSse(response);
  const emit = (type: string, data: Json): void => send(type, { type, ...data });
  emit('message_start', { message: { ...base, content: [], stop_reason: null, usage: usage(context.requestBytes, 1) } });
  emit('ping', {});
  content.forEach((block, index) => {
    if (block.type === 'tool_use') {
      emit('content_block_start', { index, content_block: { ...block, input: {} } });
      for (const partial of halves(JSON.stringify(block.input))) emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });
    } else {
      emit('content_block_start', { index, content_block: { ...block, text: '' } });
      for (const text of halves(String(block.text))) emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
    }
    emit('content_block_stop', { index });
  });
  emit('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null, stop_details: null }, usage: { output_tokens: 16 } });
  emit('message_stop', {});
  response.end();
}

/** `POST /v1/messages`. */
export const mockAnthropicApi: MockApi = {
  api: 'anthropic',
  read,
  answer,
  errorBody: (refusal) => ({ type: 'error', error: { type: 'invalid_request_error', message: refusal.message, details: { error_code: refusal.code } } }),
};
