// npm install @tool-search/mcp-server @tool-search/gateway-adapter   (Node >= 20.3), then: node readme-example.mjs
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { createGuardedStdioTransport, createMcpClientRelay, createToolSearchMcpServer } from '@tool-search/mcp-server';

const relay = createMcpClientRelay(); // upstream sampling and elicitation go to the client that caused them
const host = await createToolSearchHost({
  // Your MCP servers go in sources.mcp: [{ name: 'github', transport: 'stdio', command: 'github-mcp' }]; here one local tool.
  sources: { openclaw: [{ name: 'get_weather', description: 'Get the weather forecast for a city.', execute: ({ city }) => `Rain in ${city}.` }] },
  mcpClient: { onSampling: relay.onSampling, onElicitation: relay.onElicitation },
});
// Rules by server and tool name. Not `hint:destructive`: MCP reads a missing destructiveHint as true, so on a server
// that declares no annotations that rule would refuse every tool.
const policy = { deny: ['mcp:github:merge_pull_request', 'mcp:github:delete_*'] };
const front = await createToolSearchMcpServer({ host, config: { mode: 'tools' }, policy, relay });

// A real server passes no streams (it serves process.stdin and stdout); here a client's lines are written by hand.
const [stdin, stdout] = [new PassThrough(), new PassThrough()];
await front.server.connect(createGuardedStdioTransport({ stdin, stdout })); // or any SDK server transport
const send = (message) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const waiting = new Map(); // request id -> its resolve
createInterface({ input: stdout }).on('line', (line) => waiting.get(JSON.parse(line).id)?.(JSON.parse(line).result));
const ask = (id, method, params) => new Promise((resolve) => (waiting.set(id, resolve), send({ id, method, params })));

const client = { name: 'example', version: '1.0.0' };
console.log((await ask(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: client })).serverInfo.name);
send({ method: 'notifications/initialized' });
console.log((await ask(2, 'tools/list', {})).tools.map((tool) => tool.name));
console.log((await ask(3, 'tools/call', { name: 'tool_call', arguments: { id: 'openclaw:core:get_weather', args: { city: 'Oslo' } } })).content);
await front.close();
await host.close();
