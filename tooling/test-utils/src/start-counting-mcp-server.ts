// An upstream MCP server over Streamable HTTP (stateless: every request on its own, so any number of gateway
// replicas can share it) that counts the calls it receives, per tag: a test sees a call lost (0) or run twice (2).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** A running counting server. */
export interface CountingMcpServer {
  /** The MCP endpoint. */
  url: string;
  /** Calls of `record` that reached the server (started), per tag. */
  started(tag: string): number;
  /** Calls of `record` that finished, per tag. */
  finished(tag: string): number;
  /** The `record` calls started so far whose tag starts with `prefix`. */
  totalStartedWith(prefix: string): number;
  close(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1. Its one tool, `record`, takes `{ tag, ms? }`: it counts the call under `tag`,
 * waits `ms` (default 0, so a test can keep calls in flight) and answers `recorded <tag>`.
 */
export async function startCountingMcpServer(): Promise<CountingMcpServer> {
  const started = new Map<string, number>();
  const finished = new Map<string, number>();
  const bump = (counts: Map<string, number>, tag: string) => counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const server = new McpServer({ name: 'counter', version: '1.0.0' });
    server.registerTool(
      'record',
      { description: 'Record one call under a tag, after an optional wait, and say so.', inputSchema: { tag: z.string(), ms: z.number().int().min(0).optional() } },
      async ({ tag, ms }) => {
        bump(started, tag);
        if (ms !== undefined && ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
        bump(finished, tag);
        return { content: [{ type: 'text', text: `recorded ${tag}` }] };
      },
    );
    const transport = new StreamableHTTPServerTransport({});
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, text === '' ? undefined : JSON.parse(text));
  };
  const http = createServer((request, response) => {
    serve(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    started: (tag) => started.get(tag) ?? 0,
    finished: (tag) => finished.get(tag) ?? 0,
    totalStartedWith: (prefix) => [...started].reduce((sum, [tag, count]) => (tag.startsWith(prefix) ? sum + count : sum), 0),
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
