// What the README example takes as given: the host's tools and a model (Mastra's own mock model, scripted, standing
// in for a real provider).
import type { Agent } from '@mastra/core/agent';
import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';

/** The host's tools and what ran: the same for every framework's example. */
export { coreTools, ran } from '@tool-search/adapter-fixtures/readme-example';

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
