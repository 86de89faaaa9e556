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
