// The OpenAI Responses API of the mock provider (`POST /v1/responses`), JSON and SSE, with tool search as
// OpenAI documents it: functions declared with `defer_loading: true` (top level or inside a `namespace`), a
// `tool_search` tool with `execution: 'client'`, the model's `tool_search_call` output item, and the client's
// `tool_search_output` input item whose `tools` load definitions the request declared as deferred. Only then
// can the model call them (a `function_call` with the function's `namespace`).
import type { ServerResponse } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import type { DeclaredTool, ProviderRequestView, ResolvedReply, ToolResultMessage } from '../resolve-script-reply.js';
import { sendJson, startSse } from './http-json.js';
import { asArray, asRecord, countSchemas, halves, refuse, textOf, type AnswerContext, type Json, type MockApi, type MockRefusal, type ReadRequestResult } from './mock-api.js';

/** A declared function: its view, and its definition exactly as the request sent it. */
interface DeclaredFunction {
  tool: DeclaredTool;
  definition: unknown;
}

/** The request's `tools`: top-level functions, namespaces (with their description) and the tool search tool. */
interface DeclaredTools {
  topLevel: Map<string, DeclaredFunction>;
  namespaces: Map<string, { description: unknown; functions: Map<string, DeclaredFunction> }>;
  toolSearch: 'client' | 'server' | undefined;
}

function declaredFunction(raw: unknown, namespace: string | undefined): DeclaredFunction {
  const record = asRecord(raw);
  return {
    tool: {
      name: String(record.name ?? ''),
      description: String(record.description ?? ''),
      parameters: record.parameters,
      ...(namespace === undefined ? {} : { namespace }),
      deferred: record.defer_loading === true,
      loaded: false,
    },
    definition: raw,
  };
}

function readTools(tools: unknown[]): DeclaredTools {
  const declared: DeclaredTools = { topLevel: new Map(), namespaces: new Map(), toolSearch: undefined };
  for (const raw of tools) {
    const tool = asRecord(raw);
    if (tool.type === 'function') {
      const fn = declaredFunction(raw, undefined);
      declared.topLevel.set(fn.tool.name, fn);
    } else if (tool.type === 'namespace') {
      const name = String(tool.name ?? '');
      const functions = new Map<string, DeclaredFunction>();
      for (const inner of asArray(tool.tools)) {
        const fn = declaredFunction(inner, name);
        functions.set(fn.tool.name, fn);
      }
      declared.namespaces.set(name, { description: tool.description, functions });
    } else if (tool.type === 'tool_search') {
      // The API's default is the hosted (server-executed) search.
      declared.toolSearch = tool.execution === 'client' ? 'client' : 'server';
    }
  }
  return declared;
}

/**
 * Checks one `tool_search_output` against the request's tools: every definition it loads must be exactly
 * one the request declared with `defer_loading: true` (inside the same namespace, whose name and description
 * it repeats). Returns the functions it loads, or why the API would refuse it.
 */
function loadedByOutput(item: Json, declared: DeclaredTools): DeclaredFunction[] | MockRefusal {
  const refusal = (message: string): MockRefusal => ({ status: 400, code: 'invalid_tool_search_output', message: `tool_search_output ${String(item.call_id)}: ${message}` });
  const loaded: DeclaredFunction[] = [];
  const check = (definition: unknown, candidates: Map<string, DeclaredFunction> | undefined, where: string): MockRefusal | undefined => {
    const name = String(asRecord(definition).name ?? '');
    const declaredFn = candidates?.get(name);
    if (declaredFn === undefined) return refusal(`loads ${where}${name}, which the request does not declare`);
    if (!declaredFn.tool.deferred) return refusal(`loads ${where}${name}, which the request does not declare with defer_loading`);
    if (!isDeepStrictEqual(definition, declaredFn.definition)) return refusal(`the definition of ${where}${name} differs from the one the request declares`);
    loaded.push(declaredFn);
    return undefined;
  };
  for (const raw of asArray(item.tools)) {
    const tool = asRecord(raw);
    if (tool.type === 'namespace') {
      const name = String(tool.name ?? '');
      const namespace = declared.namespaces.get(name);
      if (namespace === undefined) return refusal(`loads namespace ${name}, which the request does not declare`);
      if (!isDeepStrictEqual(tool.description, namespace.description)) return refusal(`namespace ${name} has another description than the request declares`);
      for (const inner of asArray(tool.tools)) {
        const problem = check(inner, namespace.functions, `${name}.`);
        if (problem) return problem;
      }
    } else if (tool.type === 'function') {
      const problem = check(raw, declared.topLevel, '');
      if (problem) return problem;
    } else return refusal(`loads a ${JSON.stringify(String(tool.type ?? 'untyped')).slice(0, 40)} tool; only deferred functions and namespaces load`);
  }
  return loaded;
}

function read(body: Json): ReadRequestResult {
  const items = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : asArray(body.input);
  const declared = readTools(asArray(body.tools));
  const allFunctions = [...declared.topLevel.values(), ...[...declared.namespaces.values()].flatMap((namespace) => [...namespace.functions.values()])];
  if (allFunctions.some((fn) => fn.tool.deferred) && declared.toolSearch === undefined) {
    return refuse('tool_search_required', 'functions with defer_loading need a tool_search tool in the request');
  }
  const callNames = new Map<string, string>();
  const unanswered = new Map<string, string>();
  const toolResults: ToolResultMessage[] = [];
  let userText = '';
  for (const raw of items) {
    const item = asRecord(raw);
    const callId = String(item.call_id ?? '');
    if (item.type === 'function_call') {
      callNames.set(callId, String(item.name));
      unanswered.set(callId, `function call ${callId}`);
    } else if (item.type === 'function_call_output') {
      if (!callNames.has(callId)) return refuse('unknown_call', `No function call found for function_call_output with call_id ${callId}`);
      unanswered.delete(callId);
      toolResults.push({ callId, toolName: callNames.get(callId), output: textOf(item.output) });
    } else if (item.type === 'tool_search_call') {
      if (item.execution !== 'client') return refuse('server_tool_search', 'this mock executes no hosted tool search: only client tool_search_call items can be replayed');
      callNames.set(callId, 'tool_search');
      unanswered.set(callId, `tool search call ${callId}`);
    } else if (item.type === 'tool_search_output') {
      if (callNames.get(callId) !== 'tool_search') return refuse('unknown_call', `No tool search call found for tool_search_output with call_id ${callId}`);
      const loaded = loadedByOutput(item, declared);
      if (!Array.isArray(loaded)) return { ok: false, refusal: loaded };
      for (const fn of loaded) fn.tool.loaded = true;
      unanswered.delete(callId);
      toolResults.push({ callId, toolName: 'tool_search', output: '', loadedTools: loaded.map((fn) => fn.tool.name) });
    } else if (item.role === 'user') userText += textOf(item.content);
  }
  const pending = [...unanswered.values()][0];
  if (pending !== undefined) return refuse('missing_tool_output', `No tool output found for ${pending}`);
  const view: ProviderRequestView = {
    api: 'responses',
    model: String(body.model ?? ''),
    stream: body.stream === true,
    instructions: typeof body.instructions === 'string' ? body.instructions : '',
    userText,
    tools: allFunctions.filter((fn) => !fn.tool.deferred || fn.tool.loaded).map((fn) => fn.tool),
    deferredTools: allFunctions.filter((fn) => fn.tool.deferred && !fn.tool.loaded).map((fn) => fn.tool),
    declaresToolSearch: declared.toolSearch === 'client',
    toolResults,
  };
  return { ok: true, view, schemas: countSchemas(view, declared.toolSearch === 'client' ? 1 : 0) };
}

/** The output items of a resolved reply. */
function outputItems(view: ProviderRequestView, reply: ResolvedReply, ids: () => string): Json[] {
  if (reply.text !== undefined) {
    return [{ type: 'message', id: `msg_${ids()}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] }];
  }
  if (reply.toolSearch !== undefined) {
    return [{ type: 'tool_search_call', id: `tsc_${ids()}`, call_id: `call_${ids()}`, execution: 'client', status: 'completed', arguments: reply.toolSearch }];
  }
  return reply.toolCalls.map((call) => {
    const namespace = view.tools.find((tool) => tool.name === call.name)?.namespace;
    return {
      type: 'function_call',
      id: `fc_${ids()}`,
      call_id: `call_${ids()}`,
      name: call.name,
      ...(namespace === undefined ? {} : { namespace }),
      arguments: call.arguments,
      status: 'completed',
    };
  });
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

function answer(response: ServerResponse, view: ProviderRequestView, reply: ResolvedReply, context: AnswerContext): void {
  const { ids } = context;
  const output = outputItems(view, reply, ids);
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
  const completed = { ...base, status: 'completed', output, usage: usage(context.requestBytes) };
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
      for (const delta of halves(args)) emit('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta });
      emit('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, arguments: args });
    } else if (item.type === 'tool_search_call') {
      // No delta events exist for a tool search call: it is added in progress and done whole.
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress' } });
    } else {
      const text = reply.text ?? '';
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
      const part = { type: 'output_text', text: '', annotations: [] };
      emit('response.content_part.added', { item_id: item.id, output_index: outputIndex, content_index: 0, part });
      for (const delta of halves(text)) emit('response.output_text.delta', { item_id: item.id, output_index: outputIndex, content_index: 0, delta, logprobs: [] });
      emit('response.output_text.done', { item_id: item.id, output_index: outputIndex, content_index: 0, text, logprobs: [] });
      emit('response.content_part.done', { item_id: item.id, output_index: outputIndex, content_index: 0, part: { ...part, text } });
    }
    emit('response.output_item.done', { output_index: outputIndex, item });
  });
  emit('response.completed', { response: completed });
  response.end();
}

/** `POST /v1/responses`. */
export const mockResponsesApi: MockApi = {
  api: 'responses',
  read,
  answer,
  errorBody: (refusal) => ({ error: { message: refusal.message, type: 'invalid_request_error', param: null, code: refusal.code } }),
};
