import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from './start-mock-provider.js';
import type { ScriptRule } from './resolve-script-reply.js';

const SCRIPT: ScriptRule[] = [
  {
    id: 'finish',
    when: { lastToolResult: /RESULT (?<value>\w+)/ },
    reply: { text: 'final answer {{value}}' },
  },
  {
    id: 'call-lookup',
    when: { toolResults: 0, declaresTool: /^lookup_(?<kind>\w+)$/ },
    reply: { toolCalls: [{ name: '{{declaredTool}}', arguments: { kind: '{{kind}}', n: 2 } }] },
  },
];

const TOOL_PARAMETERS = { type: 'object', properties: { kind: { type: 'string' } }, required: ['kind'] };

describe('startMockProvider', () => {
  let provider: MockProvider;
  let client: OpenAI;

  beforeAll(async () => {
    provider = await startMockProvider({ script: SCRIPT });
    client = new OpenAI({ apiKey: 'test-key', baseURL: provider.baseURL, maxRetries: 0 });
  });
  afterAll(async () => {
    await provider.close();
  });

  for (const stream of [false, true]) {
    it(`[H1] answers a Responses API tool call the official client reads (stream: ${stream})`, async () => {
      provider.reset();
      const params = {
        model: 'mock-model',
        instructions: 'be brief',
        input: 'look it up',
        tools: [{ type: 'function' as const, name: 'lookup_orders', description: 'd', parameters: TOOL_PARAMETERS, strict: false }],
      };
      const response = stream
        ? await client.responses.stream(params).finalResponse()
        : await client.responses.create(params);
      const calls = response.output.filter((item) => item.type === 'function_call');
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ name: 'lookup_orders', arguments: '{"kind":"orders","n":2}' });
      const [recorded] = provider.requests();
      expect(recorded).toMatchObject({ api: 'responses', ruleId: 'call-lookup', stream });
      expect(JSON.parse(recorded!.body)).toMatchObject({ instructions: 'be brief', input: 'look it up' });
      expect(recorded!.bytes).toBe(Buffer.byteLength(recorded!.body));
    });

    it(`reacts to the tool output it gets back in the Responses API (stream: ${stream})`, async () => {
      const params = {
        model: 'mock-model',
        input: [
          { role: 'user' as const, content: 'look it up' },
          { type: 'function_call' as const, call_id: 'call_1', name: 'lookup_orders', arguments: '{}' },
          { type: 'function_call_output' as const, call_id: 'call_1', output: 'RESULT forty2' },
        ],
      };
      const response = stream
        ? await client.responses.stream(params).finalResponse()
        : await client.responses.create(params);
      expect(response.output_text).toBe('final answer forty2');
    });

    it(`[H1] answers a Chat Completions tool call the official client reads (stream: ${stream})`, async () => {
      provider.reset();
      const params = {
        model: 'mock-model',
        messages: [
          { role: 'system' as const, content: 'be brief' },
          { role: 'user' as const, content: 'look it up' },
        ],
        tools: [{ type: 'function' as const, function: { name: 'lookup_users', description: 'd', parameters: TOOL_PARAMETERS } }],
      };
      const completion = stream
        ? await client.chat.completions.stream(params).finalChatCompletion()
        : await client.chat.completions.create(params);
      const choice = completion.choices[0]!;
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.message.tool_calls).toHaveLength(1);
      expect(choice.message.tool_calls![0]).toMatchObject({
        type: 'function',
        function: { name: 'lookup_users', arguments: '{"kind":"users","n":2}' },
      });
      expect(provider.requests()[0]).toMatchObject({ api: 'chat', ruleId: 'call-lookup', stream });
    });

    it(`reacts to the tool output it gets back in Chat Completions (stream: ${stream})`, async () => {
      const params = {
        model: 'mock-model',
        messages: [
          { role: 'user' as const, content: 'look it up' },
          {
            role: 'assistant' as const,
            content: null,
            tool_calls: [{ id: 'call_9', type: 'function' as const, function: { name: 'lookup_users', arguments: '{}' } }],
          },
          { role: 'tool' as const, tool_call_id: 'call_9', content: 'RESULT seven' },
        ],
      };
      const completion = stream
        ? await client.chat.completions.stream(params).finalChatCompletion()
        : await client.chat.completions.create(params);
      expect(completion.choices[0]!.message.content).toBe('final answer seven');
      expect(completion.choices[0]!.finish_reason).toBe('stop');
    });
  }

  it('rejects a request no rule matches with a 400 the client surfaces', async () => {
    await expect(
      client.responses.create({ model: 'mock-model', input: 'nothing declared' }),
    ).rejects.toMatchObject({ status: 400, code: 'no_rule_matched' });
    expect(provider.requests().at(-1)!.ruleId).toBeNull();
  });

  it('serves the recorded raw bodies at GET /debug/requests', async () => {
    provider.reset();
    await client.chat.completions.create({
      model: 'mock-model',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'lookup_x', parameters: TOOL_PARAMETERS } }],
    });
    const debugUrl = new URL('../debug/requests', `${provider.baseURL}/`);
    const payload = (await (await fetch(debugUrl)).json()) as { requests: Array<{ body: string; path: string }> };
    expect(payload.requests).toHaveLength(1);
    expect(payload.requests[0]!.path).toBe('/v1/chat/completions');
    expect(JSON.parse(payload.requests[0]!.body).tools[0].function.name).toBe('lookup_x');
  });
});

// Tool search as OpenAI documents it for the Responses API, and deferred loading as Anthropic documents it for
// Messages, each driven by its official client.
const LOOKUP = { type: 'function' as const, name: 'crm_lookup', description: 'Looks a contact up.', parameters: TOOL_PARAMETERS, strict: false, defer_loading: true };
const REMOVE = { type: 'function' as const, name: 'crm_delete', description: 'Deletes a contact.', parameters: TOOL_PARAMETERS, strict: false, defer_loading: true };
const CRM: OpenAI.Responses.NamespaceTool = { type: 'namespace', name: 'crm', description: 'CRM tools: crm_lookup, crm_delete.', tools: [LOOKUP, REMOVE] };
const TOOL_SEARCH: OpenAI.Responses.ToolSearchTool = {
  type: 'tool_search',
  execution: 'client',
  description: 'Search the tools.',
  parameters: { type: 'object', properties: { query: { type: 'string' } } },
};
const NATIVE_SCRIPT: ScriptRule[] = [
  { id: 'finish', when: { lastToolResult: /RESULT (?<value>\w+)/ }, reply: { text: 'final answer {{value}}' } },
  { id: 'call-loaded', when: { lastToolName: /^tool_search$/, loadedTool: /^crm_lookup$/ }, reply: { toolCalls: [{ name: '{{loadedTool}}', arguments: { kind: 'contact' } }] } },
  { id: 'call-unloaded', when: { userText: /anyway/ }, reply: { toolCalls: [{ name: 'crm_delete', arguments: { kind: 'contact' } }] } },
  { id: 'search', when: { api: 'responses', toolResults: 0, declaresToolSearch: true }, reply: { toolSearch: { query: 'look up a contact' } } },
  { id: 'search', when: { api: 'anthropic', toolResults: 0, defersTools: true }, reply: { toolCalls: [{ name: 'tool_search', arguments: { query: 'look up a contact' } }] } },
];

describe('startMockProvider: OpenAI Responses tool search', () => {
  let provider: MockProvider;
  let client: OpenAI;
  beforeAll(async () => {
    provider = await startMockProvider({ script: NATIVE_SCRIPT });
    client = new OpenAI({ apiKey: 'test-key', baseURL: provider.baseURL, maxRetries: 0 });
  });
  afterAll(async () => {
    await provider.close();
  });

  const create = (params: { input: OpenAI.Responses.ResponseInput | string; tools?: OpenAI.Responses.Tool[] }, stream = false) => {
    const body = { model: 'mock-model', tools: [TOOL_SEARCH, CRM], ...params };
    return stream ? client.responses.stream(body).finalResponse() : client.responses.create(body);
  };
  const output = (loads: unknown[]): OpenAI.Responses.ResponseToolSearchOutputItemParam => ({
    type: 'tool_search_output',
    call_id: 'call_ts',
    execution: 'client',
    status: 'completed',
    tools: loads as OpenAI.Responses.Tool[],
  });
  const searchCall: OpenAI.Responses.ResponseInputItem = { type: 'tool_search_call', call_id: 'call_ts', execution: 'client', arguments: { query: 'look up a contact' } };

  for (const stream of [false, true]) {
    it(`[H9] emits a client tool_search_call, then lets the model call what its tool_search_output loaded (stream: ${stream})`, async () => {
      provider.reset();
      const first = await create({ input: 'look up Ada' }, stream);
      expect(first.output).toEqual([
        expect.objectContaining({ type: 'tool_search_call', execution: 'client', status: 'completed', arguments: { query: 'look up a contact' } }),
      ]);
      const call = first.output[0] as OpenAI.Responses.ResponseToolSearchCall;
      expect(call.call_id).toMatch(/^call_/);
      const second = await create(
        { input: [{ role: 'user', content: 'look up Ada' }, { ...searchCall, call_id: call.call_id }, { ...output([{ ...CRM, tools: [LOOKUP] }]), call_id: call.call_id }] },
        stream,
      );
      // The loaded function is called by name, inside its namespace.
      expect(second.output).toEqual([expect.objectContaining({ type: 'function_call', name: 'crm_lookup', namespace: 'crm', arguments: '{"kind":"contact"}' })]);
      expect(provider.requests().map((request) => [request.ruleId, request.schemas])).toEqual([
        ['search', { declared: 3, deferred: 2, loaded: 0, inContext: 1 }],
        ['call-loaded', { declared: 3, deferred: 2, loaded: 1, inContext: 2 }],
      ]);
    });
  }

  it('[H9] refuses a call to a deferred tool no tool search loaded', async () => {
    await expect(create({ input: 'delete it anyway' })).rejects.toMatchObject({ status: 400, code: 'deferred_tool_not_loaded' });
    expect(provider.requests().at(-1)!.refusal?.message).toContain('crm_delete');
  });

  it.each([
    ['a definition other than the declared one', [{ ...CRM, tools: [{ ...LOOKUP, description: 'Something else.' }] }], /definition of crm\.crm_lookup differs/],
    ['a function the request does not declare deferred', [{ ...CRM, tools: [{ ...LOOKUP, name: 'crm_export' }] }], /crm\.crm_export, which the request does not declare/],
    ['a namespace the request does not declare', [{ ...CRM, name: 'billing' }], /namespace billing/],
    ['a namespace with another description', [{ ...CRM, description: 'All tools.', tools: [LOOKUP] }], /another description/],
  ])('[H9] refuses a tool_search_output that loads %s', async (_what, loads, message) => {
    await expect(create({ input: [{ role: 'user', content: 'look up Ada' }, searchCall, output(loads)] })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_tool_search_output',
      message: expect.stringMatching(message),
    });
  });

  it('[H9] refuses a non-deferred function loaded by a tool_search_output', async () => {
    const plain = { ...LOOKUP, name: 'plain_lookup', defer_loading: false };
    await expect(create({ input: [{ role: 'user', content: 'x' }, searchCall, output([plain])], tools: [TOOL_SEARCH, CRM, plain] })).rejects.toMatchObject({
      code: 'invalid_tool_search_output',
      message: expect.stringContaining('plain_lookup, which the request does not declare with defer_loading'),
    });
  });

  it('[H9] refuses a tool_search_call left without its tool_search_output, and deferred functions without a tool_search tool', async () => {
    await expect(create({ input: [{ role: 'user', content: 'x' }, searchCall] })).rejects.toMatchObject({ code: 'missing_tool_output' });
    await expect(create({ input: 'x', tools: [CRM] })).rejects.toMatchObject({ code: 'tool_search_required' });
  });
});

describe('startMockProvider: Anthropic Messages', () => {
  let provider: MockProvider;
  let client: Anthropic;
  beforeAll(async () => {
    provider = await startMockProvider({ script: [...SCRIPT, ...NATIVE_SCRIPT] });
    client = new Anthropic({ apiKey: 'test-key', baseURL: provider.anthropicBaseURL, maxRetries: 0 });
  });
  afterAll(async () => {
    await provider.close();
  });

  const LOOKUP_ORDERS: Anthropic.Tool = { name: 'lookup_orders', description: 'd', input_schema: { type: 'object', properties: { kind: { type: 'string' } } } };
  const DEFERRED: Anthropic.Tool[] = [
    { name: 'tool_search', description: 'Search the tools.', input_schema: { type: 'object', properties: { query: { type: 'string' } } } },
    { name: 'crm_lookup', description: 'Looks a contact up.', input_schema: { type: 'object', properties: {} }, defer_loading: true },
    { name: 'crm_delete', description: 'Deletes a contact.', input_schema: { type: 'object', properties: {} }, defer_loading: true },
  ];
  const send = (params: { messages: Anthropic.MessageParam[]; tools?: Anthropic.ToolUnion[]; system?: string }, stream = false) => {
    const body = { model: 'mock-model', max_tokens: 256, ...params };
    return stream ? client.messages.stream(body).finalMessage() : client.messages.create(body);
  };
  const searchUse: Anthropic.ToolUseBlockParam = { type: 'tool_use', id: 'toolu_s', name: 'tool_search', input: { query: 'look up a contact' } };

  for (const stream of [false, true]) {
    it(`[H10] answers a tool_use and then the text the official client reads (stream: ${stream})`, async () => {
      provider.reset();
      const first = await send({ system: 'be brief', messages: [{ role: 'user', content: 'look it up' }], tools: [LOOKUP_ORDERS] }, stream);
      expect(first.stop_reason).toBe('tool_use');
      expect(first.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'lookup_orders', input: { kind: 'orders', n: 2 } })]);
      const use = first.content[0] as Anthropic.ToolUseBlock;
      const second = await send(
        {
          messages: [
            { role: 'user', content: 'look it up' },
            { role: 'assistant', content: [{ type: 'tool_use', id: use.id, name: use.name, input: use.input }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'RESULT forty2' }] },
          ],
          tools: [LOOKUP_ORDERS],
        },
        stream,
      );
      expect(second).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: 'final answer forty2' }] });
      const [recorded] = provider.requests();
      expect(recorded).toMatchObject({ api: 'anthropic', path: '/v1/messages', ruleId: 'call-lookup', stream });
      expect(JSON.parse(recorded!.body)).toMatchObject({ system: 'be brief', max_tokens: 256 });
    });

    it(`[H9] expands the tool_reference blocks of a tool_result into callable deferred tools (stream: ${stream})`, async () => {
      provider.reset();
      const first = await send({ messages: [{ role: 'user', content: 'look up Ada' }], tools: DEFERRED }, stream);
      expect(first.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'tool_search', input: { query: 'look up a contact' } })]);
      const use = first.content[0] as Anthropic.ToolUseBlock;
      const second = await send(
        {
          messages: [
            { role: 'user', content: 'look up Ada' },
            { role: 'assistant', content: [{ ...searchUse, id: use.id }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: [{ type: 'tool_reference', tool_name: 'crm_lookup' }] }] },
          ],
          tools: DEFERRED,
        },
        stream,
      );
      expect(second.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'crm_lookup', input: { kind: 'contact' } })]);
      expect(provider.requests().map((request) => request.schemas)).toEqual([
        { declared: 3, deferred: 2, loaded: 0, inContext: 1 },
        { declared: 3, deferred: 2, loaded: 1, inContext: 2 },
      ]);
    });
  }

  const withReference = (toolName: string): Anthropic.MessageParam[] => [
    { role: 'user', content: 'look up Ada' },
    { role: 'assistant', content: [searchUse] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_s', content: [{ type: 'tool_reference', tool_name: toolName }] }] },
  ];

  it('[H9] refuses a tool_reference that names no deferred tool of the request, as the SDK error class says', async () => {
    const error = await send({ messages: withReference('tool_search'), tools: DEFERRED }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.ToolReferenceUnresolvedError);
    expect(error).toMatchObject({ status: 400, errorCode: 'tool_reference_unresolved' });
    await expect(send({ messages: withReference('crm_export'), tools: DEFERRED })).rejects.toMatchObject({ errorCode: 'tool_reference_unresolved' });
  });

  it('[H9] refuses a call to a deferred tool no tool_reference loaded', async () => {
    await expect(send({ messages: [{ role: 'user', content: 'delete it anyway' }], tools: DEFERRED })).rejects.toMatchObject({
      status: 400,
      errorCode: 'deferred_tool_not_loaded',
    });
  });

  it('[H10] refuses what the Messages API refuses: every tool deferred, a tool_use without its tool_result, a server tool', async () => {
    await expect(send({ messages: [{ role: 'user', content: 'x' }], tools: DEFERRED.slice(1) })).rejects.toMatchObject({ message: expect.stringContaining('At least one tool must not be deferred') });
    await expect(send({ messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: [searchUse] }, { role: 'user', content: 'and?' }], tools: DEFERRED })).rejects.toMatchObject({
      errorCode: 'missing_tool_result',
    });
    await expect(
      send({ messages: [{ role: 'user', content: 'x' }], tools: [LOOKUP_ORDERS, { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }] }),
    ).rejects.toMatchObject({ errorCode: 'unsupported_tool' });
  });
});
