// npm install @tool-search/langchain @tool-search/gateway-adapter langchain @langchain/core zod   (Node >= 20.3), then: node readme-example.mjs
import { AIMessage, createAgent, fakeModel, tool } from 'langchain';
import { toClientTools, toolSearchMiddleware } from '@tool-search/langchain';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { z } from 'zod';

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

// LangChain's own fake chat model, scripted, in place of a provider: a search, a call through tool_call, the
// agent's own tool, then the answer.
const model = fakeModel()
  .respondWithTools([{ name: 'tool_search', args: { query: 'weather forecast' }, id: 'c1' }])
  .respondWithTools([{ name: 'tool_call', args: { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }, id: 'c2' }])
  .respondWithTools([{ name: 'show_toast', args: { text: 'Rain in Paris tomorrow' }, id: 'c3' }])
  .respond(new AIMessage('Yes, it will rain.'));

const host = await createToolSearchHost({ sources: { openclaw: coreTools } }); // once per process
const policy = { deny: ['exec_shell'] };

// The agent's own tools are the session's client tools: always visible, gated by the same policy.
const showToast = tool(({ text }) => `shown: ${text}`, { name: 'show_toast', description: 'Show a toast in the UI.', schema: z.object({ text: z.string() }) });
const session = await host.openSession({ config: { mode: 'tools' }, policy, client: toClientTools([showToast]) });

const agent = createAgent({ model, tools: [showToast], middleware: [toolSearchMiddleware(session)] });
const result = await agent.invoke({ messages: [{ role: 'user', content: 'Will it rain in Paris?' }] });
await host.close(); // closes its sessions too

console.log(`answer: ${result.messages.at(-1).text}`);
console.log(`the agent's own tool: ${result.messages.findLast((message) => message.getType() === 'tool').text}`);
console.log(`ran: ${ran.join(', ')}`);
