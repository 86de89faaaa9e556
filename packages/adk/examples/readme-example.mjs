// npm install @tool-search/adk @tool-search/gateway-adapter @google/adk zod   (Node 20.16+ or 22+), then: node readme-example.mjs
import { BaseLlm, InMemoryRunner, LlmAgent, stringifyContent } from '@google/adk';
import { ToolSearchToolset } from '@tool-search/adk';
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

// A scripted BaseLlm, as ADK's own tests use, in place of Gemini: deferral (tool_search, then the loaded tool),
// then tools mode (tool_search, then tool_call).
const call = (id, name, args) => ({ functionCall: { id, name, args } });
const steps = [
  call('c1', 'tool_search', { query: 'weather forecast' }),
  call('c2', 'get_weather', { city: 'Paris' }),
  { text: 'Yes, it will rain.' },
  call('c3', 'tool_search', { query: 'weather forecast' }),
  call('c4', 'tool_call', { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }),
  { text: 'Yes, it will rain.' },
];
class ScriptedModel extends BaseLlm {
  async *generateContentAsync() {
    yield { content: { role: 'model', parts: [steps.shift() ?? { text: 'Yes, it will rain.' }] }, turnComplete: true };
  }
  connect() {
    throw new Error('not scripted');
  }
}
const model = new ScriptedModel({ model: 'scripted' });

const host = await createToolSearchHost({ sources: { openclaw: coreTools } }); // once per process
const policy = { deny: ['exec_shell'] };

async function ask(toolset, text) {
  const agent = new LlmAgent({ name: 'assistant', model, instruction: toolset.instruction, tools: [toolset] });
  const runner = new InMemoryRunner({ agent, appName: 'assistant' });
  const { id } = await runner.sessionService.createSession({ appName: 'assistant', userId: 'u1' });
  const events = [];
  for await (const event of runner.runAsync({ userId: 'u1', sessionId: id, newMessage: { role: 'user', parts: [{ text }] } })) events.push(event);
  return stringifyContent(events.at(-1));
}

// Deferral, which Gemini lacks: tool_search loads its hits (kept in the ADK session's state), called by name.
const direct = await host.openSession({ config: { native: true }, policy });
const first = await ask(new ToolSearchToolset(direct), 'Will it rain in Paris?');

// Or the session's mode as tools (tools mode: tool_search, tool_describe, tool_call).
const session = await host.openSession({ config: { mode: 'tools' }, policy });
const second = await ask(new ToolSearchToolset(session), 'Will it rain in Paris?');
await host.close(); // closes its sessions too

console.log(`deferral: ${first}`);
console.log(`tools mode: ${second}`);
console.log(`ran: ${ran.join(', ')}`);
