// npm install @tool-search/mastra @tool-search/gateway-adapter @mastra/core zod   (Node >= 22.22), then: node readme-example.mjs
import { Agent } from '@mastra/core/agent';
import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';
import { ToolSearchSessionProcessor } from '@tool-search/mastra';
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

// Mastra's own mock model, scripted, in place of a provider: deferral (search_tools, load_tool, the loaded tool),
// then tools mode (tool_search, then tool_call).
const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const call = (toolCallId, toolName, input) => ({ content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }], finishReason: 'tool-calls', usage, warnings: [] });
const answer = { content: [{ type: 'text', text: 'Yes, it will rain.' }], finishReason: 'stop', usage, warnings: [] };
const steps = [
  call('c1', 'search_tools', { query: 'weather forecast' }),
  call('c2', 'load_tool', { toolName: 'get_weather' }),
  call('c3', 'get_weather', { city: 'Paris' }),
  answer,
  call('c4', 'tool_search', { query: 'weather forecast' }),
  call('c5', 'tool_call', { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }),
  answer,
];
const model = new MastraLanguageModelV2Mock({ doGenerate: async () => steps.shift() ?? answer });

const host = await createToolSearchHost({ sources: { openclaw: coreTools } }); // once per process
const policy = { deny: ['exec_shell'] };

// Mastra's ToolSearchProcessor contract (search_tools, load_tool), ranked by our catalog under our policy; the
// loaded set is read from the conversation's messages.
const direct = await host.openSession({ config: { native: true }, policy });
const agent = new Agent({ id: 'assistant', name: 'Assistant', instructions: 'Help the user.', model, inputProcessors: [new ToolSearchSessionProcessor(direct)] });
const first = await agent.generate('Will it rain in Paris?', { maxSteps: 5 });

// Or the session's mode as the agent's tools (tools mode: tool_search, tool_describe, tool_call).
const session = await host.openSession({ config: { mode: 'tools' }, policy });
const inModes = new Agent({ id: 'assistant', name: 'Assistant', instructions: 'Help the user.', model, inputProcessors: [new ToolSearchSessionProcessor(session)] });
const second = await inModes.generate('Will it rain in Paris?', { maxSteps: 5 });
await host.close(); // closes its sessions too

console.log(`deferral: ${first.text}`);
console.log(`tools mode: ${second.text}`);
console.log(`ran: ${ran.join(', ')}`);
