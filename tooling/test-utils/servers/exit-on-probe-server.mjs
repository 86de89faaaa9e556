// A 2025 stdio MCP server (SDK v1) that exits on any request before `initialize`, as servers on the Rust SDK
// (rmcp) do: a client that probes the era in place loses this child and must start the next one with `initialize`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'exit-on-probe', version: '1.0.0' });
server.registerTool('ping-back', { description: 'Answers pong.' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
const transport = new StdioServerTransport();
await server.connect(transport);
let initialized = false;
const handle = transport.onmessage;
transport.onmessage = (message, extra) => {
  if (!initialized && 'method' in message && 'id' in message && message.method !== 'initialize') process.exit(1);
  if ('method' in message && message.method === 'initialize') initialized = true;
  handle?.(message, extra);
};
