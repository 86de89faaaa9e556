// A small MCP server over stdio for the integration tests, built with the MCP SDK (McpServer).
// tools/list is paginated (FIXTURE_PAGE_SIZE tools per page); `change_tools` swaps tools at run time and
// the SDK sends notifications/tools/list_changed; `server_pid` lets a test kill this process mid-run.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const pageSize = Number(process.env.FIXTURE_PAGE_SIZE ?? '3');
// FIXTURE_INSTRUCTIONS: the `instructions` the server sends in `initialize`; FIXTURE_TITLE: its `serverInfo.title`.
const server = new McpServer({ name: 'fixture', version: '1.0.0', ...(process.env.FIXTURE_TITLE ? { title: process.env.FIXTURE_TITLE } : {}) }, process.env.FIXTURE_INSTRUCTIONS ? { instructions: process.env.FIXTURE_INSTRUCTIONS } : {});
/** name -> { registered, description, inputSchema (JSON Schema, for the paginated list) } */
const tools = new Map();

function addTool(name, description, shape, jsonSchema, handler) {
  const registered = server.registerTool(name, { description, inputSchema: shape }, handler);
  tools.set(name, { registered, description, inputSchema: jsonSchema });
}
const text = (value) => ({ content: [{ type: 'text', text: value }] });

addTool('echo_text', 'Echo the given text back.', { text: z.string() },
  { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  async ({ text: value }) => text(`echo: ${value}`));
addTool('add_numbers', 'Add two numbers.', { a: z.number(), b: z.number() },
  { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }));
addTool('server_pid', 'Return the process id of this server.', {},
  { type: 'object', properties: {} },
  async () => text(String(process.pid)));
addTool('never_answers', 'A call that never completes.', {},
  { type: 'object', properties: {} },
  () => new Promise(() => undefined));
addTool('big_output', 'Return a very long text.', { size: z.number() },
  { type: 'object', properties: { size: { type: 'number' } }, required: ['size'] },
  async ({ size }) => text('x'.repeat(size)));
addTool('fail_loudly', 'A tool that reports an error.', {},
  { type: 'object', properties: {} },
  async () => ({ isError: true, content: [{ type: 'text', text: 'the fixture failed on purpose' }] }));
addTool('name with spaces', 'A tool whose name cannot form a tool id.', {},
  { type: 'object', properties: {} },
  async () => text('should never be called'));
addTool('remove_me', 'A tool that change_tools removes.', {},
  { type: 'object', properties: {} },
  async () => text('still here'));
addTool('change_tools', 'Remove remove_me and add added_later.', {},
  { type: 'object', properties: {} },
  async () => {
    const removed = tools.get('remove_me');
    if (removed) {
      tools.delete('remove_me');
      removed.registered.remove();
    }
    if (!tools.has('added_later')) {
      addTool('added_later', 'A tool added at run time: reverse a word.', { word: z.string() },
        { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
        async ({ word }) => text([...word].reverse().join('')));
    }
    return text('changed');
  });

// FIXTURE_TIMED_OUT_ERRORS=1: failures whose text says "timed out" but are not timeouts of the request: a tool
// error result, and a resource whose read fails with a JSON-RPC error.
if (process.env.FIXTURE_TIMED_OUT_ERRORS === '1') {
  addTool('report_timed_out', 'A tool that reports an upstream timeout as its error.', {},
    { type: 'object', properties: {} },
    async () => ({ isError: true, content: [{ type: 'text', text: 'upstream request timed out after 5 ms' }] }));
  server.registerResource('timed-out', 'fixture://timed-out', { description: 'A resource whose read fails.' }, async () => {
    throw new Error('upstream request timed out after 5 ms');
  });
}

// Replace the SDK's one-page list with a paginated one over the same tools.
server.server.setRequestHandler(ListToolsRequestSchema, (request) => {
  const all = [...tools.entries()].map(([name, tool]) => ({ name, description: tool.description, inputSchema: tool.inputSchema }));
  const start = Number(request.params?.cursor ?? '0');
  const page = all.slice(start, start + pageSize);
  const next = start + pageSize;
  return next < all.length ? { tools: page, nextCursor: String(next) } : { tools: page };
});

// FIXTURE_START_DELAY_MS: a slow server, answering nothing until the delay is over.
const startDelayMs = Number(process.env.FIXTURE_START_DELAY_MS ?? '0');
if (startDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, startDelayMs));
await server.connect(new StdioServerTransport());
