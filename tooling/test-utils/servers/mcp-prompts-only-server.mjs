// An MCP server over stdio that offers prompts and no tools (no tools capability), for the connection's tests.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'prompts-only', version: '1.0.0' });
server.registerPrompt('greet', { description: 'Say hello.' }, async () => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'Hello!' } }],
}));
await server.connect(new StdioServerTransport());
