// Native mode through the real @langchain/anthropic ChatAnthropic: its own request building against a stand-in for
// the Anthropic Messages API (a fetch that records each request and answers with scripted messages).
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { ChatAnthropic } from '@langchain/anthropic';
import { createAgent, fakeModel } from 'langchain';
import { isLangChainAdapterError } from './errors.js';
import { describe, expect, it } from 'vitest';
import { executed, showToast, useFixtureSessions } from './internal/fixtures.js';
import { toolSearchMiddleware } from './tool-search-middleware.js';
import { scaledTimeout } from '@tool-search/property-settings';

const open = useFixtureSessions();

interface WireRequest {
  url: string;
  headers: Headers;
  body: { tools?: Array<Record<string, unknown>>; messages: Array<{ role: string; content: unknown }>; system?: unknown };
}

/** ChatAnthropic whose HTTP client talks to a recorder that answers each request with the next scripted content. */
function anthropicOverStub(contents: Array<Array<Record<string, unknown>>>): { model: ChatAnthropic; requests: WireRequest[] } {
  const requests: WireRequest[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    requests.push({ url: String(input), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) as WireRequest['body'] });
    const content = contents.shift() ?? [{ type: 'text', text: 'out of script' }];
    const toolUse = content.some((block) => block['type'] === 'tool_use');
    const message = { id: `msg_${requests.length}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: toolUse ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } };
    return new Response(JSON.stringify(message), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { model: new ChatAnthropic({ model: 'claude-sonnet-4-5', apiKey: 'test-key', maxRetries: 0, clientOptions: { fetch } }), requests };
}

async function drive(session: ToolSearchSession, contents: Array<Array<Record<string, unknown>>>) {
  const stub = anthropicOverStub(contents);
  const agent = createAgent({ model: stub.model, tools: [showToast], middleware: [toolSearchMiddleware(session)] });
  const result = await agent.invoke({ messages: [{ role: 'user', content: 'Will it rain in Paris?' }] });
  return { ...stub, result };
}

const toolNames = (request: WireRequest | undefined) => (request?.body.tools ?? []).map((tool) => String(tool['name'])).sort();

describe('toolSearchMiddleware (native mode, Anthropic)', { timeout: scaledTimeout(20_000) }, () => {
  it('defers the allowed catalog, answers tool_search with tool_reference blocks of our ranking, and runs the loaded tool', async () => {
    const session = await open({ mode: 'native' });
    const run = await drive(session, [
      [{ type: 'tool_use', id: 'toolu_1', name: 'tool_search', input: { query: 'weather forecast for a city' } }],
      [{ type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Paris' } }],
      [{ type: 'text', text: 'It will rain.' }],
    ]);
    expect(run.requests).toHaveLength(3);
    const [first, second, third] = run.requests;
    const tools = first?.body.tools ?? [];
    expect(tools.find((tool) => tool['name'] === 'tool_search')).not.toHaveProperty('defer_loading');
    expect(tools.find((tool) => tool['name'] === 'show_toast')).not.toHaveProperty('defer_loading');
    expect(tools.find((tool) => tool['name'] === 'get_weather')).toMatchObject({ defer_loading: true, input_schema: { properties: { city: { type: 'string' } } } });
    expect(toolNames(first)).toEqual(['create_event', 'echo', 'get-tiny-image', 'get_weather', 'read_resource', 'show_toast', 'tool_search']);
    expect(JSON.stringify(run.requests.map((request) => request.body))).not.toContain('exec_shell');
    // The search answer reaches the API as a tool_result of tool_reference blocks, best first.
    const answer = second?.body.messages.at(-1);
    expect(answer?.role).toBe('user');
    const block = (answer?.content as Array<{ type: string; tool_use_id: string; content: Array<{ type: string; tool_name: string }> }>)[0];
    expect(block?.type).toBe('tool_result');
    expect(block?.tool_use_id).toBe('toolu_1');
    expect(block?.content[0]).toEqual({ type: 'tool_reference', tool_name: 'get_weather' });
    expect(block?.content.map((reference) => reference.tool_name)).not.toContain('exec_shell');
    expect(third?.body.messages.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'Rain tomorrow in Paris.' }] });
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(session.telemetry().counts.searches).toBe(1);
    expect(run.result.messages.at(-1)?.text).toBe('It will rain.');
  });

  it('answers a search made beside another call in one user turn with both tool results', async () => {
    const session = await open({ mode: 'native' });
    const run = await drive(session, [
      [
        { type: 'tool_use', id: 'toolu_0', name: 'show_toast', input: { text: 'looking' } },
        { type: 'tool_use', id: 'toolu_1', name: 'tool_search', input: { query: 'weather forecast for a city' } },
      ],
      [{ type: 'text', text: 'ok' }],
    ]);
    expect(run.requests[1]?.body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_0', content: 'toast shown: looking' },
        { type: 'tool_result', tool_use_id: 'toolu_1', content: expect.arrayContaining([{ type: 'tool_reference', tool_name: 'get_weather' }]) },
      ],
    });
  });

  it('with Anthropic’s own bm25 search: declares its server tool (LangChain adds the beta), and a denied tool called by name never runs', async () => {
    const session = await open({ mode: 'native', nativeSearch: { anthropic: 'bm25' } });
    const run = await drive(session, [
      [
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
        { type: 'tool_use', id: 'toolu_2', name: 'exec_shell', input: { command: 'id' } },
      ],
      [{ type: 'text', text: 'Rain in Oslo.' }],
    ]);
    const first = run.requests[0];
    expect(first?.body.tools).toContainEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(first?.headers.get('anthropic-beta')).toContain('advanced-tool-use-2025-11-20');
    expect(JSON.stringify(first?.body)).not.toContain('exec_shell');
    const results = run.requests[1]?.body.messages.at(-1)?.content as Array<{ tool_use_id: string; content: string; is_error?: boolean }>;
    expect(results.find((result) => result.tool_use_id === 'toolu_1')?.content).toBe('Rain tomorrow in Oslo.');
    expect(results.find((result) => result.tool_use_id === 'toolu_2')?.content).toContain('No tool "exec_shell" is available to you');
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Oslo' } }]);
  });

  it('refuses native mode with a model that is not Anthropic’s (unsupported_format)', async () => {
    const session = await open({ mode: 'native' });
    const agent = createAgent({ model: fakeModel().respond(new Error('never called')), tools: [showToast], middleware: [toolSearchMiddleware(session)] });
    const error = await agent.invoke({ messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    const cause = (error as Error).cause;
    expect(isLangChainAdapterError(cause) && cause.code).toBe('unsupported_format');
    expect((error as Error).message).toContain('received FakeBuiltModel');
  });
});
