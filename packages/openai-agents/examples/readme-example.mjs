// npm install @tool-search/openai-agents @tool-search/gateway-adapter @openai/agents zod   (Node >= 22), then: node readme-example.mjs
import { Agent, run, setTracingDisabled, Usage } from '@openai/agents';
import { toolSearchFor, toolSearchTools } from '@tool-search/openai-agents';
import { createToolSearchHost } from '@tool-search/gateway-adapter';

// The host's tools (yours; MCP servers and plugins join the same catalog). The policy below denies exec_shell.
const ran = [];
const coreTools = [
  {
    name: 'get_weather',
    description: 'Get the weather forecast for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => (ran.push(`get_weather ${city}`), 'Rain tomorrow.'),
  },
  {
    name: 'exec_shell',
    description: 'Run a shell command.',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
    execute: () => (ran.push('exec_shell'), 'ran'),
  },
];

// A scripted model following the SDK's Model interface, in place of OpenAI: tools mode (a search, then tool_call),
// then the SDK's deferral (a client tool_search, then the tool it loaded).
setTracingDisabled(true);
const call = (callId, name, args) => ({ type: 'function_call', callId, name, arguments: JSON.stringify(args), status: 'completed' });
const answer = { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Yes, it will rain.' }] };
const steps = [
  [call('c1', 'tool_search', { query: 'weather forecast' })],
  [call('c2', 'tool_call', { id: 'openclaw:core:get_weather', args: { city: 'Paris' } })],
  [answer],
  [{ type: 'tool_search_call', callId: 'ts1', execution: 'client', arguments: { query: 'weather forecast' }, status: 'completed' }],
  [call('c3', 'get_weather', { city: 'Paris' })],
  [answer],
];
const model = {
  getResponse: async () => ({ usage: new Usage(), output: steps.shift() ?? [answer] }),
  getStreamedResponse: () => {
    throw new Error('not scripted');
  },
};

const host = await createToolSearchHost({ sources: { openclaw: coreTools } }); // once per process
const policy = { deny: ['exec_shell'] };

// The session's mode as function tools (tools mode: tool_search, tool_describe, tool_call).
const session = await host.openSession({ config: { mode: 'tools' }, policy });
const surface = session.modelSurface();
const tools = toolSearchTools(session, { surface });
const agent = new Agent({ name: 'assistant', instructions: surface.instructions, model, tools });
const first = await run(agent, 'Will it rain in Paris?');

// Or the SDK's own deferral (deferLoading + a client tool_search), ranked by our catalog under the same policy.
const direct = await host.openSession({ config: { native: true }, policy });
const second = await run(new Agent({ name: 'assistant', model, tools: toolSearchFor(direct) }), 'Will it rain in Paris?');
await host.close(); // closes its sessions too

console.log(`tools mode: ${first.finalOutput} (the model was offered ${tools.map((tool) => tool.name).join(', ')})`);
console.log(`deferral: ${second.finalOutput}`);
console.log(`ran: ${ran.join(', ')}`);
