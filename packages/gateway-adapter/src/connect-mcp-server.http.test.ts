import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectMcpServer } from './connect-mcp-server.js';

// A real MCP server over Streamable HTTP on 127.0.0.1 (OS-chosen port), spoken to by the SDK client.
let httpServer: Server;
let url: string;
const seenHeaders: (string | undefined)[] = [];

beforeAll(async () => {
  const mcp = new McpServer({ name: 'http-fixture', version: '1.0.0' });
  mcp.registerTool('shout', { description: 'Upper-case a text.', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text: text.toUpperCase() }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  httpServer = createServer((request, response) => {
    seenHeaders.push(request.headers['x-gateway'] as string | undefined);
    void transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  httpServer.closeAllConnections();
  await new Promise((resolve) => httpServer.close(resolve));
});

describe('connectMcpServer (Streamable HTTP)', () => {
  it('lists and calls tools over HTTP, sending the configured headers', async () => {
    const connection = await connectMcpServer({ name: 'web', transport: 'http', url, headers: { 'x-gateway': 'tool-search' } }, { requestTimeoutMs: 10_000 });
    try {
      expect(connection.status).toBe('connected');
      expect(connection.tools().map((tool) => tool.name)).toEqual(['shout']);
      expect(await connection.callTool('shout', { text: 'hey' })).toEqual({ ok: true, parts: [{ type: 'text', text: 'HEY' }], result: 'HEY', isError: false });
      expect(seenHeaders.length).toBeGreaterThan(0);
      expect(seenHeaders.every((header) => header === 'tool-search')).toBe(true);
    } finally {
      await connection.close();
    }
  });

  it('reports an endpoint nobody listens on as unavailable', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const connection = await connectMcpServer({ name: 'gone', transport: 'http', url: `http://127.0.0.1:${port}/mcp` }, { requestTimeoutMs: 5_000 });
    expect(connection.status).toBe('unavailable');
    expect(connection.failure).toMatch(/^MCP server "gone" failed to start: /);
  });
});
