// What the README example takes as given: the host's tools and a model (Mastra's own mock model, scripted, standing
// in for a real provider).
import type { Agent } from '@mastra/core/agent';
import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';
import type { ExecutableTool } from '@tool-search/gateway-adapter';

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

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const call = (toolCallId: string, toolName: string, input: object) => ({ content: [{ type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) }], finishReason: 'tool-calls' as const, usage, warnings: [] });
const answer = { content: [{ type: 'text' as const, text: 'Yes, it will rain.' }], finishReason: 'stop' as const, usage, warnings: [] };

/** Two runs: deferral (search_tools, load_tool, the loaded tool), then tools mode (tool_search, then tool_call). */
const steps = [
  call('c1', 'search_tools', { query: 'weather forecast' }),
  call('c2', 'load_tool', { toolName: 'get_weather' }),
  call('c3', 'get_weather', { city: 'Paris' }),
  answer,
  call('c4', 'tool_search', { query: 'weather forecast' }),
  call('c5', 'tool_call', { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }),
  answer,
];

/** Mastra's mock model, kept for its recorded calls. */
export const mock = new MastraLanguageModelV2Mock({ doGenerate: async () => steps.shift() ?? answer });
// Mastra's mock is typed for a tsconfig without exactOptionalPropertyTypes (its doGenerate may resolve
// `response: undefined`), which this repository turns on; at run time it is the model interface Agent takes.
export const model = mock as unknown as ConstructorParameters<typeof Agent>[0]['model'];
