// npm install @tool-search/ai-sdk @tool-search/gateway-adapter ai zod   (Node >= 22), then: node readme-example.mjs
import { toolSearchFor, toolSearchTools } from '@tool-search/ai-sdk';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

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

// The AI SDK's own mock model, scripted, in place of a provider: tools mode (a search, then tool_call), then the
// SDK's deferral (a search, then the tool it loaded).
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const call = (toolName, input) => ({ content: [{ type: 'tool-call', toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }], finishReason: { unified: 'tool-calls' }, usage, warnings: [] });
const answer = { content: [{ type: 'text', text: 'Yes, it will rain.' }], finishReason: { unified: 'stop' }, usage, warnings: [] };
const model = new MockLanguageModelV3({
  doGenerate: [
    call('tool_search', { query: 'weather forecast' }),
    call('tool_call', { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }),
    answer,
    call('tool_search', { query: 'weather forecast' }),
    call('get_weather', { city: 'Paris' }),
    answer,
  ],
});

const host = await createToolSearchHost({ sources: { openclaw: coreTools } }); // once per process
const policy = { deny: ['exec_shell'] };
const prompt = 'Will it rain in Paris tomorrow?';

// The session's mode as AI SDK tools (tools mode: tool_search, tool_describe, tool_call).
const session = await host.openSession({ config: { mode: 'tools' }, policy });
const surface = session.modelSurface();
const tools = toolSearchTools(session, { surface });
const first = await generateText({ model, system: surface.instructions, tools, stopWhen: stepCountIs(8), prompt });

// Or the AI SDK's own deferral (deferLoading + toolSearch), ranked by our catalog under the same policy.
const direct = await host.openSession({ config: { native: true }, policy });
const second = await generateText({ model, tools: toolSearchFor(direct), stopWhen: stepCountIs(8), prompt });
await host.close(); // closes its sessions too

console.log(`tools mode: ${first.text} (the model was offered ${Object.keys(tools).join(', ')})`);
console.log(`deferral: ${second.text}`);
console.log(`ran: ${ran.join(', ')}`);
