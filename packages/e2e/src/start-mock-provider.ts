// A mock OpenAI provider: `POST /v1/responses` and `POST /v1/chat/completions`, JSON or SSE, answered from a
// declarative script, with every raw request body recorded at `GET /debug/requests`.
import { createServer, type ServerResponse } from 'node:http';
import { pino, type Logger } from 'pino';
import { listenLocal, readBody, sendJson } from './internal/http-json.js';
import {
  resolveScriptReply,
  type DeclaredTool,
  type ProviderRequestView,
  type ResolvedReply,
  type ScriptRule,
  type ToolResultMessage,
} from './resolve-script-reply.js';

/** One request the mock provider received, raw body included. */
export interface RecordedProviderRequest {
  index: number;
  path: string;
  api: 'responses' | 'chat';
  /** The raw request body as sent. */
  body: string;
  /** UTF-8 byte length of the raw body. */
  bytes: number;
  stream: boolean;
  /** The id of the script rule that answered, or null when none matched (answered 400). */
  ruleId: string | null;
}

/** Options for `startMockProvider`. */
export interface MockProviderOptions {
  script: readonly ScriptRule[];
  /** Awaited after a rule matched and before its reply is sent (a test's side effect, e.g. killing a server). */
  beforeReply?: BeforeReply;
  logger?: Logger;
}

/** Runs between matching a rule and answering with it. */
export type BeforeReply = (ruleId: string, requestIndex: number) => void | Promise<void>;

/** A running mock provider. */
export interface MockProvider {
  /** Base URL for the official client, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  /** Every request recorded so far (a copy). */
  requests(): RecordedProviderRequest[];
  /** Forgets the recorded requests. */
  reset(): void;
  /** Replaces the script and the before-reply hook (for a test that needs a different table on the same server). */
  setScript(script: readonly ScriptRule[], beforeReply?: BeforeReply): void;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

function asRecord(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof asRecord(part).text === 'string' ? String(asRecord(part).text) : '')).join('');
  }
  return '';
}

function viewResponsesRequest(body: Json): ProviderRequestView {
  const items = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : ((body.input as unknown[]) ?? []);
  const callNames = new Map<string, string>();
  const toolResults: ToolResultMessage[] = [];
  let userText = '';
  for (const raw of items) {
    const item = asRecord(raw);
    if (item.type === 'function_call') callNames.set(String(item.call_id), String(item.name));
    else if (item.type === 'function_call_output') {
      const callId = String(item.call_id);
      toolResults.push({ callId, toolName: callNames.get(callId), output: textOf(item.output) });
    } else if (item.role === 'user') userText += textOf(item.content);
  }
  const tools: DeclaredTool[] = ((body.tools as unknown[]) ?? []).map((raw) => {
    const tool = asRecord(raw);
    return { name: String(tool.name ?? ''), description: String(tool.description ?? ''), parameters: tool.parameters };
  });
  return {
    api: 'responses',
    model: String(body.model ?? ''),
    stream: body.stream === true,
    instructions: typeof body.instructions === 'string' ? body.instructions : '',
    userText,
    tools,
    toolResults,
  };
}

function viewChatRequest(body: Json): ProviderRequestView {
  const callNames = new Map<string, string>();
  const toolResults: ToolResultMessage[] = [];
  let userText = '';
  let instructions = '';
  for (const raw of (body.messages as unknown[]) ?? []) {
    const message = asRecord(raw);
    if (message.role === 'system' || message.role === 'developer') instructions += textOf(message.content);
    else if (message.role === 'user') userText += textOf(message.content);
    else if (message.role === 'assistant') {
      for (const call of (message.tool_calls as unknown[]) ?? []) {
        const record = asRecord(call);
        callNames.set(String(record.id), String(asRecord(record.function).name));
      }
    } else if (message.role === 'tool') {
      const callId = String(message.tool_call_id);
      toolResults.push({ callId, toolName: callNames.get(callId), output: textOf(message.content) });
    }
  }
  const tools: DeclaredTool[] = ((body.tools as unknown[]) ?? []).map((raw) => {
    const fn = asRecord(asRecord(raw).function);
    return { name: String(fn.name ?? ''), description: String(fn.description ?? ''), parameters: fn.parameters };
  });
  return {
    api: 'chat',
    model: String(body.model ?? ''),
    stream: body.stream === true,
    instructions,
    userText,
    tools,
    toolResults,
  };
}

function startSse(response: ServerResponse): (event: string | null, data: unknown) => void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return (event, data) => {
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    response.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
  };
}

/** Builds the Responses API output items for a resolved reply. */
function responsesOutput(reply: ResolvedReply, ids: () => string): Json[] {
  if (reply.text !== undefined) {
    return [
      {
        type: 'message',
        id: `msg_${ids()}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: reply.text, annotations: [] }],
      },
    ];
  }
  return reply.toolCalls.map((call) => ({
    type: 'function_call',
    id: `fc_${ids()}`,
    call_id: `call_${ids()}`,
    name: call.name,
    arguments: call.arguments,
    status: 'completed',
  }));
}

function usage(requestBytes: number): Json {
  const inputTokens = Math.ceil(requestBytes / 4);
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 16,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + 16,
  };
}

function answerResponses(
  response: ServerResponse,
  view: ProviderRequestView,
  reply: ResolvedReply,
  requestBytes: number,
  ids: () => string,
): void {
  const output = responsesOutput(reply, ids);
  const base = {
    id: `resp_${ids()}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: view.model,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    temperature: 1,
    top_p: 1,
  };
  const completed = { ...base, status: 'completed', output, usage: usage(requestBytes) };
  if (!view.stream) {
    sendJson(response, 200, { ...completed, output_text: reply.text ?? '' });
    return;
  }
  const send = startSse(response);
  let sequence = 0;
  const emit = (type: string, data: Json): void => send(type, { type, sequence_number: sequence++, ...data });
  emit('response.created', { response: { ...base, status: 'in_progress', output: [] } });
  emit('response.in_progress', { response: { ...base, status: 'in_progress', output: [] } });
  output.forEach((item, outputIndex) => {
    if (item.type === 'function_call') {
      const args = String(item.arguments);
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, arguments: '', status: 'in_progress' } });
      // Split the arguments so the client really has to accumulate deltas.
      const middle = Math.floor(args.length / 2);
      for (const delta of [args.slice(0, middle), args.slice(middle)]) {
        emit('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta });
      }
      emit('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, arguments: args });
    } else {
      const text = reply.text ?? '';
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
      const part = { type: 'output_text', text: '', annotations: [] };
      emit('response.content_part.added', { item_id: item.id, output_index: outputIndex, content_index: 0, part });
      const middle = Math.floor(text.length / 2);
      for (const delta of [text.slice(0, middle), text.slice(middle)]) {
        emit('response.output_text.delta', { item_id: item.id, output_index: outputIndex, content_index: 0, delta, logprobs: [] });
      }
      emit('response.output_text.done', { item_id: item.id, output_index: outputIndex, content_index: 0, text, logprobs: [] });
      emit('response.content_part.done', {
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        part: { ...part, text },
      });
    }
    emit('response.output_item.done', { output_index: outputIndex, item });
  });
  emit('response.completed', { response: completed });
  response.end();
}

function answerChat(
  response: ServerResponse,
  view: ProviderRequestView,
  reply: ResolvedReply,
  requestBytes: number,
  ids: () => string,
): void {
  const id = `chatcmpl_${ids()}`;
  const created = Math.floor(Date.now() / 1000);
  const toolCalls = reply.toolCalls.map((call) => ({
    id: `call_${ids()}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const promptTokens = Math.ceil(requestBytes / 4);
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
          message: {
            role: 'assistant',
            content: reply.text ?? null,
            refusal: null,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          },
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
    send(null, {
      id,
      object: 'chat.completion.chunk',
      created,
      model: view.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  chunk({ role: 'assistant', content: reply.text === undefined ? null : '' }, null);
  if (reply.text !== undefined) {
    const middle = Math.floor(reply.text.length / 2);
    chunk({ content: reply.text.slice(0, middle) }, null);
    chunk({ content: reply.text.slice(middle) }, null);
  }
  toolCalls.forEach((call, index) => {
    const args = call.function.arguments;
    const middle = Math.floor(args.length / 2);
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, null);
    chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, middle) } }] }, null);
    chunk({ tool_calls: [{ index, function: { arguments: args.slice(middle) } }] }, null);
  });
  chunk({}, finishReason);
  send(null, { id, object: 'chat.completion.chunk', created, model: view.model, choices: [], usage: chatUsage });
  send(null, '[DONE]');
  response.end();
}

/**
 * Starts the mock provider on 127.0.0.1 with an OS-chosen port. Unmatched requests get a 400 with an
 * OpenAI-shaped error naming the request, so a script gap fails loudly instead of looping.
 */
export async function startMockProvider(options: MockProviderOptions): Promise<MockProvider> {
  const log = (options.logger ?? pino({ level: 'silent' })).child({ component: 'mock-provider' });
  let script = options.script;
  let beforeReply = options.beforeReply;
  let recorded: RecordedProviderRequest[] = [];
  let counter = 0;
  const ids = (): string => `${Date.now().toString(36)}${(counter++).toString(36).padStart(4, '0')}`;

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (request.method === 'GET' && url.pathname === '/debug/requests') {
        sendJson(response, 200, { requests: recorded });
        return;
      }
      if (request.method === 'DELETE' && url.pathname === '/debug/requests') {
        recorded = [];
        sendJson(response, 200, { requests: [] });
        return;
      }
      const api = url.pathname === '/v1/responses' ? 'responses' : url.pathname === '/v1/chat/completions' ? 'chat' : null;
      if (request.method !== 'POST' || api === null) {
        sendJson(response, 404, { error: { message: `no route for ${request.method} ${url.pathname}`, type: 'not_found' } });
        return;
      }
      const body = await readBody(request);
      let parsed: Json;
      try {
        parsed = asRecord(JSON.parse(body));
      } catch {
        sendJson(response, 400, { error: { message: 'request body is not JSON', type: 'invalid_request_error' } });
        return;
      }
      const view = api === 'responses' ? viewResponsesRequest(parsed) : viewChatRequest(parsed);
      const reply = resolveScriptReply(script, view);
      const bytes = Buffer.byteLength(body);
      const entry: RecordedProviderRequest = {
        index: recorded.length,
        path: url.pathname,
        api,
        body,
        bytes,
        stream: view.stream,
        ruleId: reply?.ruleId ?? null,
      };
      recorded.push(entry);
      log.debug({ index: entry.index, api, bytes, ruleId: entry.ruleId }, 'provider request');
      if (!reply) {
        sendJson(response, 400, {
          error: {
            message: `mock provider: no script rule matched request #${entry.index} (${view.toolResults.length} tool results, ${view.tools.length} tools)`,
            type: 'invalid_request_error',
            param: null,
            code: 'no_rule_matched',
          },
        });
        return;
      }
      if (beforeReply) await beforeReply(reply.ruleId, entry.index);
      if (api === 'responses') answerResponses(response, view, reply, bytes, ids);
      else answerChat(response, view, reply, bytes, ids);
    })().catch((error: unknown) => {
      log.error({ err: error }, 'provider request failed');
      if (!response.headersSent) sendJson(response, 500, { error: { message: 'mock provider failed', type: 'server_error' } });
      else response.end();
    });
  });
  const { baseURL, close } = await listenLocal(server);
  return {
    baseURL,
    requests: () => recorded.map((entry) => ({ ...entry })),
    reset: () => {
      recorded = [];
    },
    setScript: (next, nextBeforeReply) => {
      script = next;
      beforeReply = nextBeforeReply;
    },
    close,
  };
}
