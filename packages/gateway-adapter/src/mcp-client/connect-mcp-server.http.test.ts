import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as SdkServer } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
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

describe('connectMcpServer (Streamable HTTP): cancellation, audio and output checks', () => {
  // A low-level SDK Server, so a tool can return structured content its own output schema does not allow.
  let lowLevel: Server;
  let lowUrl: string;
  const cancellations: string[] = [];
  const createLowLevelServer = () => {
    const server = new SdkServer({ name: 'low-level', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        { name: 'wait_for_cancel', inputSchema: { type: 'object' } },
        { name: 'audio_clip', inputSchema: { type: 'object' } },
        { name: 'counts', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      if (request.params.name === 'wait_for_cancel') {
        await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve(), { once: true }));
        cancellations.push(String(extra.signal.reason));
        return { content: [] };
      }
      if (request.params.name === 'audio_clip') {
        return { content: [{ type: 'audio', mimeType: 'audio/wav', data: Buffer.from('RIFF....WAVEfmt ').toString('base64') }] };
      }
      return { content: [{ type: 'text', text: 'count: many' }], structuredContent: { count: 'many' } };
    });
    return server;
  };
  beforeAll(async () => {
    // One SDK server and transport per MCP session, found again by its mcp-session-id header.
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    lowLevel = createServer((request, response) => {
      const known = sessions.get(String(request.headers['mcp-session-id']));
      if (known) return void known.handleRequest(request, response);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, transport) });
      void createLowLevelServer()
        .connect(transport)
        .then(() => transport.handleRequest(request, response));
    });
    await new Promise<void>((resolve) => lowLevel.listen(0, '127.0.0.1', resolve));
    lowUrl = `http://127.0.0.1:${(lowLevel.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    lowLevel.closeAllConnections();
    await new Promise((resolve) => lowLevel.close(resolve));
  });

  it('sends notifications/cancelled when a call is aborted, and the server sees it', async () => {
    const connection = await connectMcpServer({ name: 'low', transport: 'http', url: lowUrl }, { requestTimeoutMs: 10_000 });
    try {
      const controller = new AbortController();
      const pending = connection.callTool('wait_for_cancel', {}, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('the user pressed stop')), 100);
      expect(await pending).toEqual({ ok: false, code: 'cancelled', message: 'tools/call wait_for_cancel on MCP server "low" was cancelled' });
      for (let attempt = 0; attempt < 50 && cancellations.length === 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(cancellations).toEqual(['Error: the user pressed stop']);
      expect(connection.status).toBe('connected');
    } finally {
      await connection.close();
    }
  });

  it('returns audio as an audio part', async () => {
    const connection = await connectMcpServer({ name: 'low', transport: 'http', url: lowUrl }, { requestTimeoutMs: 10_000 });
    try {
      expect(await connection.callTool('audio_clip', {})).toEqual({
        ok: true,
        isError: false,
        parts: [{ type: 'audio', mimeType: 'audio/wav', data: Buffer.from('RIFF....WAVEfmt ').toString('base64') }],
        result: [{ type: 'audio', mimeType: 'audio/wav', data: Buffer.from('RIFF....WAVEfmt ').toString('base64') }],
      });
    } finally {
      await connection.close();
    }
  });

  it('checks structured content against the output schema only when the server is trusted', async () => {
    const trusted = await connectMcpServer({ name: 'low', transport: 'http', url: lowUrl, trusted: true }, { requestTimeoutMs: 10_000 });
    const untrusted = await connectMcpServer({ name: 'low', transport: 'http', url: lowUrl }, { requestTimeoutMs: 10_000 });
    try {
      expect(await trusted.callTool('counts', {})).toEqual({
        ok: false,
        code: 'invalid_output',
        message: 'MCP server "low" returned structured content for counts that does not match its output schema: /count must be number',
      });
      expect(await untrusted.callTool('counts', {})).toMatchObject({ ok: true, structured: { count: 'many' } });
    } finally {
      await Promise.all([trusted.close(), untrusted.close()]);
    }
  });
});
