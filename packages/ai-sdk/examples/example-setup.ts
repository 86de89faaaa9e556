// What the README example takes as given: the host's tools and a model (here the AI SDK's own scripted mock).
import type { ExecutableTool } from '@tool-search/gateway-adapter';
import { MockLanguageModelV3 } from 'ai/test';

/** Every tool run, in order. */
export const ran: string[] = [];

export const coreTools: ExecutableTool[] = [
  {
    name: 'get_weather',
    description: 'Get the weather forecast for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: (args) => {
      ran.push(`get_weather ${String(args['city'])}`);
      return 'Rain tomorrow.';
    },
  },
  {
    name: 'exec_shell',
    description: 'Run a shell command.',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
    execute: () => {
      ran.push('exec_shell');
      return 'ran';
    },
  },
];

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const call = (toolName: string, input: object) => ({
  content: [{ type: 'tool-call' as const, toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});
const answer = { content: [{ type: 'text' as const, text: 'Yes, it will rain.' }], finishReason: { unified: 'stop' as const, raw: undefined }, usage, warnings: [] };

/** Two generations: tools mode (search, then tool_call), then the SDK's deferral (search, then the loaded tool). */
export const model = new MockLanguageModelV3({
  doGenerate: [
    call('tool_search', { query: 'weather forecast' }),
    call('tool_call', { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }),
    answer,
    call('tool_search', { query: 'weather forecast' }),
    call('get_weather', { city: 'Paris' }),
    answer,
  ],
});
