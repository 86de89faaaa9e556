// Streamable HTTP MCP servers for `pnpm bench:scale`, all in this one process: each replays the tools of one
// `source` of a recorded tool list (JSONL, one { name, description, parameters, source } a line) on its own port,
// statelessly, and answers every call with its tool name and arguments. Prints one JSON line { urls } when listening.
// With REPLAY_CALL_LOG set, each call that reaches a server appends one line (`<source> <arguments as JSON>`) to that
// file before it is answered: the bench counts the calls that ran twice upstream from it.
//   node replay-http-servers.mjs <tools.jsonl> <source> [<source> ...]
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [file, ...sources] = process.argv.slice(2);
const callLog = process.env.REPLAY_CALL_LOG;
if (!file || sources.length === 0) throw new Error('usage: replay-http-servers.mjs <tools.jsonl> <source> [<source> ...]');
const all = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));

const toolsOf = (source) =>
  all
    .filter((tool) => tool.source === source)
    .map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: tool.parameters && typeof tool.parameters === 'object' ? { type: 'object', ...tool.parameters } : { type: 'object', properties: {} },
    }));

async function serve(source) {
  const tools = toolsOf(source);
  const http = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    const server = new Server({ name: source, version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, (call) => {
      if (callLog) appendFileSync(callLog, `${source} ${JSON.stringify(call.params.arguments ?? {})}\n`);
      return { content: [{ type: 'text', text: `${call.params.name} ${JSON.stringify(call.params.arguments ?? {})}` }] };
    });
    const transport = new StreamableHTTPServerTransport({});
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request, response, text === '' ? undefined : JSON.parse(text));
    } catch {
      if (!response.headersSent) response.writeHead(500).end();
    }
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${http.address().port}/mcp`;
}

const urls = await Promise.all(sources.map(serve));
process.stdout.write(`${JSON.stringify({ urls })}\n`);
