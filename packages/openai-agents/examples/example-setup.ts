// What the README example takes as given: the host's tools and a model (a scripted one that follows the Agents
// SDK's `Model` interface, standing in for OpenAI).
import { setTracingDisabled, Usage, type AgentOutputItem, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';

setTracingDisabled(true);

/** The host's tools and what ran: the same for every framework's example. */
export { coreTools, ran } from '@tool-search/adapter-fixtures/readme-example';

const call = (callId: string, name: string, args: object): AgentOutputItem => ({ type: 'function_call', callId, name, arguments: JSON.stringify(args), status: 'completed' });
const answer: AgentOutputItem = { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Yes, it will rain.' }] };

/** Two runs: tools mode (search, then tool_call), then the SDK's deferral (client tool_search, then the loaded tool). */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  private readonly steps: AgentOutputItem[][] = [
    [call('c1', 'tool_search', { query: 'weather forecast' })],
    [call('c2', 'tool_call', { id: 'openclaw:core:get_weather', args: { city: 'Paris' } })],
    [answer],
    [{ type: 'tool_search_call', callId: 'ts1', execution: 'client', arguments: { query: 'weather forecast' }, status: 'completed' }],
    [call('c3', 'get_weather', { city: 'Paris' })],
    [answer],
  ];

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    return { usage: new Usage(), output: this.steps.shift() ?? [answer] };
  }

  // eslint-disable-next-line require-yield -- the example does not stream
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('not scripted');
  }
}

export const model = new ScriptedModel();
