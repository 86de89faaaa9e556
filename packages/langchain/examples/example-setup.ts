// What the README example takes as given: the host's tools and a model (LangChain's own fake chat model, scripted:
// a search, a call through tool_call, the agent's own tool, then the answer).
import type { ExecutableTool } from '@tool-search/gateway-adapter';
import { AIMessage, fakeModel } from 'langchain';

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

export const model = fakeModel()
  .respondWithTools([{ name: 'tool_search', args: { query: 'weather forecast' }, id: 'c1' }])
  .respondWithTools([{ name: 'tool_call', args: { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }, id: 'c2' }])
  .respondWithTools([{ name: 'show_toast', args: { text: 'Rain in Paris tomorrow' }, id: 'c3' }])
  .respond(new AIMessage('Yes, it will rain.'));
