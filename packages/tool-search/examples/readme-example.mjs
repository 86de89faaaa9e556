// npm install tool-search   (Node >= 22.15), then: node readme-example.mjs
import { createRootLogger, createToolSearchSession, isGatewayAdapterError } from 'tool-search';

const session = await createToolSearchSession({
  config: true, // code mode; falls back to tools mode without a sandbox runtime
  policy: { deny: ['group:runtime'] },
  // Your own tools here; plugins: ['./plugins/calendar.mjs'] and mcp: [{ name: 'github', transport: 'stdio', command: 'github-mcp' }] join them.
  sources: { openclaw: [{ name: 'get_weather', description: 'Get the weather forecast for a city.', execute: ({ city }) => `Rain in ${city}.` }] },
  logger: createRootLogger({ level: 'warn' }),
});
const { tools, instructions } = session.surface('anthropic');
console.log(tools.map((tool) => tool.name), instructions.length > 0);
const run = await session.execute({ name: tools[0].name, args: { code: "return await tools.call('openclaw:core:get_weather', { city: 'Oslo' });" }, toolCallId: 'c1' });
console.log(run.status, JSON.parse(run.content).value); // the code's answer (the content lists its calls too)
await session.close();

// Bad input throws an error naming what was wrong (`error.message`), with a code to branch on:
await createToolSearchSession({ config: { mode: 'turbo' } }).catch((error) => console.log(isGatewayAdapterError(error), error.code));
