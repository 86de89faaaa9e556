// What the README example takes as given: the host's tools and a model (LangChain's own fake chat model, scripted:
// a search, a call through tool_call, the agent's own tool, then the answer).
import { AIMessage, fakeModel } from 'langchain';

/** The host's tools and what ran: the same for every framework's example. */
export { coreTools, ran } from '@tool-search/adapter-fixtures/readme-example';

export const model = fakeModel()
  .respondWithTools([{ name: 'tool_search', args: { query: 'weather forecast' }, id: 'c1' }])
  .respondWithTools([{ name: 'tool_call', args: { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }, id: 'c2' }])
  .respondWithTools([{ name: 'show_toast', args: { text: 'Rain in Paris tomorrow' }, id: 'c3' }])
  .respond(new AIMessage('Yes, it will rain.'));
