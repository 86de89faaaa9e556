// An MCP server over stdio (the MCP SDK's low-level Server) that replays a recorded tool list: the tools of one
// `source` from a tool-retrieval benchmark file (one JSON tool a line: { name, description, parameters, source }).
// Every call answers with its tool name and arguments as text, so a bench can measure the path, not a tool.
//   REPLAY_TOOLS_FILE  the JSONL file (gzipped when its name ends in .gz);  REPLAY_SOURCE  the source (server)
//   whose tools to list (default: all). A line's `_meta` object, when it has one, is listed as the tool's `_meta`.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const file = process.env.REPLAY_TOOLS_FILE;
if (!file) throw new Error('REPLAY_TOOLS_FILE is not set');
const source = process.env.REPLAY_SOURCE;
const bytes = readFileSync(file);
const tools = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes)
  .toString('utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line))
  .filter((tool) => source === undefined || tool.source === source)
  .map((tool) => ({
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.parameters && typeof tool.parameters === 'object' ? { type: 'object', ...tool.parameters } : { type: 'object', properties: {} },
    ...(tool._meta && typeof tool._meta === 'object' ? { _meta: tool._meta } : {}),
  }));

const server = new Server({ name: source ?? 'replay', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: 'text', text: `${request.params.name} ${JSON.stringify(request.params.arguments ?? {})}` }],
}));
await server.connect(new StdioServerTransport());
