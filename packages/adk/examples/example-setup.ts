// What the README example takes as given: the host's tools and a model (a scripted one that follows ADK's `BaseLlm`
// interface, as ADK's own tests do, standing in for Gemini).
import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';

/** The host's tools and what ran: the same for every framework's example. */
export { coreTools, ran } from '@tool-search/adapter-fixtures/readme-example';

type Part = NonNullable<NonNullable<LlmResponse['content']>['parts']>[number];
const call = (id: string, name: string, args: Record<string, unknown>): Part => ({ functionCall: { id, name, args } });

/** Two conversations: deferral (tool_search, then the loaded tool), then tools mode (tool_search, then tool_call). */
class ScriptedModel extends BaseLlm {
  readonly requests: LlmRequest[] = [];
  private readonly steps: Part[] = [
    call('c1', 'tool_search', { query: 'weather forecast' }),
    call('c2', 'get_weather', { city: 'Paris' }),
    { text: 'Yes, it will rain.' },
    call('c3', 'tool_search', { query: 'weather forecast' }),
    call('c4', 'tool_call', { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }),
    { text: 'Yes, it will rain.' },
  ];

  constructor() {
    super({ model: 'scripted' });
  }

  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.requests.push(structuredClone({ contents: request.contents, config: { tools: request.config?.tools, systemInstruction: request.config?.systemInstruction } }) as LlmRequest);
    yield { content: { role: 'model', parts: [this.steps.shift() ?? { text: 'Yes, it will rain.' }] }, turnComplete: true };
  }

  connect(): Promise<BaseLlmConnection> {
    throw new Error('not scripted');
  }
}

export const model = new ScriptedModel();
