// The shapes this package renders, checked against the providers' own SDKs: at compile time (`tsc --noEmit`
// in typecheck fails when a rendered request or result item stops matching the SDK's parameter types) and at
// run time (the official clients send exactly what was rendered; a recording `fetch` stands in for the network).
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createFakeCatalog } from './internal/create-fake-catalog.js';
import { CLIENT_TOOLS, SMALL_CATALOG, VISIBLE_TOOLS } from './internal/fixtures.js';
import { parseAnthropicToolSearchUse, parseOpenAIToolSearchCall } from './parse-native-search-call.js';
import { renderAnthropicToolResult } from './render-anthropic-tool-result.js';
import { renderAnthropicToolSearchResult, renderOpenAIToolSearchOutput } from './render-native-search-answer.js';
import { renderOpenAIChatToolResult } from './render-openai-chat-tool-result.js';
import { renderOpenAIResponsesToolResult } from './render-openai-responses-tool-result.js';
import { renderSurface } from './render-surface.js';
import { toAnthropicTools, toOpenAIChatTools, toOpenAIResponsesTools, toProviderTools } from './to-provider-tools.js';
import type { Mode, ToolResultParts } from './types.js';

const MODES: Mode[] = ['direct', 'code', 'tools', 'directory'];
const catalog = createFakeCatalog(SMALL_CATALOG);
const surfaceOf = (mode: Mode) => renderSurface({ mode, catalog, visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS });
const nativeResponses = renderSurface({ mode: 'native', format: 'openai-responses', catalog, visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS });
const nativeAnthropic = renderSurface({ mode: 'native', format: 'anthropic', catalog, visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS });
const nativeBm25 = renderSurface({ mode: 'native', format: 'anthropic', catalog, native: { anthropicSearch: 'bm25' } });

// A 1x1 PNG and a tiny PDF header: valid base64 of real media types.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
const WAV = Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVEfmt ').toString('base64');
const MEDIA_RESULT: ToolResultParts = {
  text: 'Screenshot taken.',
  parts: [
    { type: 'text', text: 'Screenshot taken.' },
    { type: 'image', mimeType: 'image/png', data: PNG },
    { type: 'resource', uri: 'file:///report.pdf', mimeType: 'application/pdf', blob: PDF },
    { type: 'audio', mimeType: 'audio/wav', data: WAV },
  ],
  isError: true,
};

/** A `fetch` that records each request body and answers with a canned JSON body. */
function recordingFetch(answer: unknown): { fetch: typeof fetch; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const fake = async (_input: unknown, init?: { body?: unknown }) => {
    bodies.push(JSON.parse(String(init?.body)));
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch: fake as typeof fetch, bodies };
}

const RESPONSE = { id: 'resp_1', object: 'response', created_at: 0, status: 'completed', model: 'gpt-5.4', output: [], usage: null };
const MESSAGE = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text: 'ok' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
};
const COMPLETION = {
  id: 'chatcmpl_1',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-4.1',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok', refusal: null }, logprobs: null }],
};

function openAIClient(answer: unknown) {
  const recorder = recordingFetch(answer);
  return { client: new OpenAI({ apiKey: 'test-key', baseURL: 'http://127.0.0.1:9/v1', fetch: recorder.fetch, maxRetries: 0 }), bodies: recorder.bodies };
}

function anthropicClient() {
  const recorder = recordingFetch(MESSAGE);
  return { client: new Anthropic({ apiKey: 'test-key', baseURL: 'http://127.0.0.1:9', fetch: recorder.fetch, maxRetries: 0 }), bodies: recorder.bodies };
}

describe('rendered tools against the SDK request types', () => {
  it('type-checks every format against the SDK tool param types', () => {
    for (const mode of MODES) {
      const tools = surfaceOf(mode).tools;
      expectTypeOf(toOpenAIChatTools(tools)).toExtend<OpenAI.Chat.ChatCompletionTool[]>();
      expectTypeOf(toOpenAIResponsesTools(tools)).toExtend<OpenAI.Responses.Tool[]>();
      expectTypeOf(toAnthropicTools(tools)).toExtend<Anthropic.ToolUnion[]>();
      expectTypeOf(toProviderTools(tools, 'anthropic')).toExtend<NonNullable<Anthropic.MessageCreateParamsNonStreaming['tools']>>();
    }
    // A format's tools are not another's: the mapping from format to type is exact.
    // @ts-expect-error Anthropic tools are not OpenAI Responses tools
    expectTypeOf(toProviderTools([], 'anthropic')).toExtend<OpenAI.Responses.Tool[]>();
    // @ts-expect-error OpenAI Responses tools are not Chat tools
    expectTypeOf(toProviderTools([], 'openai-responses')).toExtend<OpenAI.Chat.ChatCompletionTool[]>();
  });

  it('sends the OpenAI Responses tools of every mode, native included, exactly as rendered', async () => {
    for (const surface of [...MODES.map(surfaceOf), nativeResponses]) {
      const { client, bodies } = openAIClient(RESPONSE);
      const tools = toProviderTools(surface.tools, 'openai-responses');
      await client.responses.create({ model: 'gpt-5.4', input: 'hello', instructions: surface.instructions, tools });
      expect((bodies[0] as { tools: unknown }).tools).toEqual(JSON.parse(JSON.stringify(tools)));
    }
  });

  it('sends the Anthropic tools of every mode, native with our search and with BM25, exactly as rendered', async () => {
    for (const surface of [...MODES.map(surfaceOf), nativeAnthropic, nativeBm25]) {
      const { client, bodies } = anthropicClient();
      const tools = toProviderTools(surface.tools, 'anthropic');
      await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }], tools });
      expect((bodies[0] as { tools: unknown }).tools).toEqual(JSON.parse(JSON.stringify(tools)));
    }
  });

  it('sends the OpenAI Chat tools of every mode exactly as rendered', async () => {
    for (const mode of MODES) {
      const { client, bodies } = openAIClient(COMPLETION);
      const tools = toProviderTools(surfaceOf(mode).tools, 'openai-chat');
      await client.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hello' }], tools });
      expect((bodies[0] as { tools: unknown }).tools).toEqual(JSON.parse(JSON.stringify(tools)));
    }
  });
});

describe('native search items against the SDK types', () => {
  it('parses the SDK output item of a client tool search and answers it with an input item the SDK accepts', async () => {
    const call: OpenAI.Responses.ResponseToolSearchCall = {
      type: 'tool_search_call',
      id: 'tsc_1',
      call_id: 'call_1',
      execution: 'client',
      status: 'completed',
      arguments: { query: 'open a github issue' },
    };
    const parsed = parseOpenAIToolSearchCall(call);
    expect(parsed).toMatchObject({ ok: true, callId: 'call_1', queries: [{ query: 'open a github issue' }] });
    const answer = renderOpenAIToolSearchOutput(nativeResponses, { callId: 'call_1', hits: [{ id: 'plugin:github:create_issue' }] });
    expectTypeOf(answer.item).toExtend<OpenAI.Responses.ResponseToolSearchOutputItemParam>();
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'open an issue' }, call, answer.item];
    const { client, bodies } = openAIClient(RESPONSE);
    await client.responses.create({ model: 'gpt-5.4', input, tools: toProviderTools(nativeResponses.tools, 'openai-responses') });
    expect((bodies[0] as { input: unknown[] }).input[2]).toEqual(JSON.parse(JSON.stringify(answer.item)));
    // A weak search that loads nothing: the server map goes as a message right after the output.
    const weak = renderOpenAIToolSearchOutput(nativeResponses, { callId: 'call_1', hits: [], servers: { servers: [{ source: 'plugin', owner: 'github', summary: 'Issues.', toolCount: 1, tools: ['create_issue'] }], omitted: 0 } });
    expectTypeOf(weak.followUp).toExtend<OpenAI.Responses.ResponseInputItem | undefined>();
    expect(weak.followUp).toBeDefined();
    await client.responses.create({ model: 'gpt-5.4', input: [call, weak.item, ...(weak.followUp === undefined ? [] : [weak.followUp])], tools: toProviderTools(nativeResponses.tools, 'openai-responses') });
    expect((bodies[1] as { input: unknown[] }).input[2]).toEqual(JSON.parse(JSON.stringify(weak.followUp)));
  });

  it("parses the SDK's tool_use block of our search tool and answers with a tool_result the SDK accepts", async () => {
    const use: Anthropic.ToolUseBlock = { type: 'tool_use', id: 'toolu_1', name: 'tool_search', input: { query: 'weather forecast' }, caller: { type: 'direct' } };
    expect(parseAnthropicToolSearchUse(use)).toMatchObject({ ok: true, callId: 'toolu_1' });
    const answer = renderAnthropicToolSearchResult(nativeAnthropic, { callId: 'toolu_1', hits: [{ id: 'plugin:weather:get.forecast' }] });
    expectTypeOf(answer.item).toExtend<Anthropic.ToolResultBlockParam>();
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: 'weather in Paris?' },
      { role: 'assistant', content: [use] },
      { role: 'user', content: [answer.item] },
    ];
    const { client, bodies } = anthropicClient();
    await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 64, messages, tools: toProviderTools(nativeAnthropic.tools, 'anthropic') });
    expect((bodies[0] as { messages: Array<{ content: unknown }> }).messages[2]?.content).toEqual([answer.item]);
  });
});

describe('tool result items against the SDK types', () => {
  it('renders a Responses function_call_output the SDK accepts as input', async () => {
    const { item } = renderOpenAIResponsesToolResult(MEDIA_RESULT, { callId: 'call_9' });
    expectTypeOf(item).toExtend<OpenAI.Responses.ResponseInputItem.FunctionCallOutput>();
    const { client, bodies } = openAIClient(RESPONSE);
    await client.responses.create({ model: 'gpt-5.4', input: [{ type: 'function_call', call_id: 'call_9', name: 'screenshot', arguments: '{}' }, item] });
    expect((bodies[0] as { input: unknown[] }).input[1]).toEqual(item);
  });

  it('renders an Anthropic tool_result the SDK accepts in a user message', async () => {
    const { item } = renderAnthropicToolResult(MEDIA_RESULT, { callId: 'toolu_9' });
    expectTypeOf(item).toExtend<Anthropic.ToolResultBlockParam>();
    const { client, bodies } = anthropicClient();
    await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'screenshot', input: {} }] },
        { role: 'user', content: [item] },
      ],
    });
    expect((bodies[0] as { messages: Array<{ content: unknown }> }).messages[1]?.content).toEqual([item]);
  });

  it('renders a Chat tool message and a follow-up user message the SDK accepts', async () => {
    const { item, followUp } = renderOpenAIChatToolResult(MEDIA_RESULT, { callId: 'call_7' });
    expectTypeOf(item).toExtend<OpenAI.Chat.ChatCompletionToolMessageParam>();
    expectTypeOf(followUp).toExtend<OpenAI.Chat.ChatCompletionUserMessageParam | undefined>();
    if (followUp === undefined) throw new Error('expected a follow-up message');
    const { client, bodies } = openAIClient(COMPLETION);
    await client.chat.completions.create({
      model: 'gpt-4.1',
      messages: [
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'screenshot', arguments: '{}' } }] },
        item,
        followUp,
      ],
    });
    expect((bodies[0] as { messages: unknown[] }).messages.slice(1)).toEqual([item, followUp]);
  });
});
