// npm install @tool-search/gateway-adapter   (Node >= 20.3), then: node readme-example.mjs
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRootLogger, createToolSearchHost } from '@tool-search/gateway-adapter';

// Your gateway's own tools (plugins by path and MCP servers join them in `sources`: see the next example).
const coreTools = [
  { name: 'get_weather', description: 'Get the weather forecast for a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } } }, execute: ({ city }) => `Rain in ${city}.` },
  { name: 'exec', description: 'Run a shell command.', execute: () => 'ran' },
];
const stateDir = mkdtempSync(join(tmpdir(), 'gateway-'));

// Once, when the gateway starts: plugins load, MCP servers start in parallel (not waited for).
const host = await createToolSearchHost({ sources: { openclaw: coreTools }, logger: createRootLogger({ level: 'warn' }) });
const policy = { deny: ['group:runtime'] }; // a PolicyConfig (equal configs share one view), or a Policy from createPolicy

// Per run: a few milliseconds, whatever the catalog's size.
const session = await host.openSession({
  config: { mode: 'tools' }, // your settings' tools.toolSearch: true | false | { mode, codeTimeoutMs, ... }
  policy,
  context: { agentId: 'main', isOwner: false },
  client: [{ name: 'show_toast', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
  sessionLog: { path: join(stateDir, 'sessions', 'run-1.jsonl') },
});
const { tools, instructions } = session.surface('openai-responses');
const request = { instructions, tools }; // what the model gets
console.log(request.tools.map((tool) => tool.name));
// The calls the model made (OpenAI Responses function_call items):
const calls = [
  { call_id: 'call_1', name: 'tool_call', arguments: '{"id":"openclaw:core:get_weather","args":{"city":"Oslo"}}' },
  { call_id: 'call_2', name: 'show_toast', arguments: '{"text":"Rain in Oslo."}' },
];
for (const call of calls) {
  const outcome = await session.execute({ name: call.name, args: call.arguments, toolCallId: call.call_id });
  if (outcome.status === 'client') console.log('for the client:', outcome.name, outcome.args);
  else console.log(outcome.status, outcome.content);
}
await session.close();
// When the gateway stops:
await host.close();
