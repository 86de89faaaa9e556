// What the README example takes as given: the host's tools and a model (here the AI SDK's own scripted mock).
import { MockLanguageModelV3 } from 'ai/test';

/** The host's tools and what ran: the same for every framework's example. */
export { coreTools, ran } from '@tool-search/adapter-fixtures/readme-example';

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
