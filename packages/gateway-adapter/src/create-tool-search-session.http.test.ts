import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingSessionLog } from './testing/recording-session-log.js';
import { until } from '@tool-search/test-utils';
import { createToolSearchSession, type CreateToolSearchSessionOptions } from './create-tool-search-session.js';
import type { ToolSearchSession } from './tool-search-session.js';
import { scaledTimeout } from '@tool-search/property-settings';

// A Streamable HTTP MCP server that dies (its listener closes and its connections drop) or loses its session
// (answers HTTP 404) must be reported exactly like a stdio server that exits: the server is marked
// unavailable, the call that hit the failure fails `unavailable` naming the server, and its tools leave the
// catalog and the surface. A tool that returns an error result or throws a JSON-RPC error is only a failed
// call. The server is a real MCP SDK server over HTTP on 127.0.0.1, in this process.

interface DyingHttpMcpServer {
  url: string;
  /** Resolves once a `never_answers` or `works_forever` call reached its handler (which then never answers). */
  hanging: Promise<void>;
  /** The server dies: it stops listening and every open connection (the notification stream too) drops. */
  die(): Promise<void>;
  /** The server ends the MCP session but keeps listening: later requests get HTTP 404 "Session not found". */
  endSession(): Promise<void>;
  /** True once the client's standalone notification stream (HTTP GET) is open. */
  streamOpen(): boolean;
  /** The next `tools/call` gets HTTP 502 from in front of the server (a proxy hiccup); the server lives on. */
  failNextCallWithBadGateway(): void;
}

const TOOLS = [
  { name: 'shout', description: 'Upper-case a text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'report_error', description: 'A tool that reports an error result.', inputSchema: { type: 'object', properties: {} } },
  { name: 'throw_rpc', description: 'A tool whose call fails with a JSON-RPC error.', inputSchema: { type: 'object', properties: {} } },
  { name: 'never_answers', description: 'A tool that never answers.', inputSchema: { type: 'object', properties: {} } },
  { name: 'works_forever', description: 'A tool that starts its answer stream, then never answers.', inputSchema: { type: 'object', properties: {} } },
];

async function startDyingHttpMcpServer(): Promise<DyingHttpMcpServer> {
  let reachedHanging: () => void = () => undefined;
  const hanging = new Promise<void>((resolve) => (reachedHanging = resolve));
  const mcp = new Server({ name: 'http-dying-fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  let onList: (() => void) | undefined;
  mcp.setRequestHandler(ListToolsRequestSchema, () => {
    onList?.();
    return { tools: TOOLS };
  });
  mcp.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    switch (request.params.name) {
      case 'shout':
        return { content: [{ type: 'text', text: String(request.params.arguments?.['text']).toUpperCase() }] };
      case 'report_error':
        return { content: [{ type: 'text', text: 'the backend said no' }], isError: true };
      case 'throw_rpc':
        throw new McpError(ErrorCode.InternalError, 'the database is down');
      case 'never_answers':
        reachedHanging();
        return await new Promise<never>(() => undefined);
      case 'works_forever': {
        // A notification on the call's own response stream; the client's re-list proves it read it, so the
        // client is reading that open stream (not waiting for its headers) when the server dies.
        const relisted = new Promise<void>((resolve) => (onList = resolve));
        await extra.sendNotification({ method: 'notifications/tools/list_changed' });
        await relisted;
        reachedHanging();
        return await new Promise<never>(() => undefined);
      }
      default:
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
    }
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  let badGatewayNext = false;
  let notificationStream: ServerResponse | undefined;
  const httpServer = createServer((request, response) => {
    if (request.method === 'GET') notificationStream = response;
    void (async () => {
      const chunks: Buffer[] = [];
      if (request.method === 'POST') for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = chunks.length === 0 ? undefined : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { method?: string });
      if (badGatewayNext && body?.method === 'tools/call') {
        badGatewayNext = false;
        response.writeHead(502).end('Bad Gateway');
        return;
      }
      await transport.handleRequest(request, response, body);
    })();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  let stopped: Promise<void> | undefined;
  const die = () => {
    stopped ??= new Promise<void>((resolve) => {
      httpServer.close(() => resolve());
      httpServer.closeAllConnections();
    });
    return stopped;
  };
  servers.push(die);
  return {
    url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`,
    hanging,
    die,
    endSession: () => transport.close(),
    streamOpen: () => notificationStream?.headersSent === true,
    failNextCallWithBadGateway: () => {
      badGatewayNext = true;
    },
  };
}

const servers: (() => Promise<void>)[] = [];
const sessions: ToolSearchSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  await Promise.all(servers.splice(0).map((stop) => stop()));
});

async function httpSession(config: CreateToolSearchSessionOptions['config']) {
  const server = await startDyingHttpMcpServer();
  const log = recordingSessionLog();
  const session = await createToolSearchSession({
    config,
    sources: { mcp: [{ name: 'web', transport: 'http', url: server.url }] },
    sessionLog: log,
    // Long enough that a call which is not failed by the transport shows up as `timeout`, not as a hang.
    callTimeoutMs: 10_000,
    mcpRequestTimeoutMs: 10_000,
  });
  sessions.push(session);
  return { server, session, log };
}

let callIds = 0;
const call = (session: ToolSearchSession, name: string, args: unknown) => session.execute({ name, args, toolCallId: `http_${++callIds}` });
const declaredNames = (session: ToolSearchSession) => (session.surface('anthropic').tools as { name: string }[]).map((tool) => tool.name);
const hitIds = async (session: ToolSearchSession, query: string) =>
  hitsOf(JSON.parse((await call(session, 'tool_search', { query, limit: 20 })).content)).map((hit) => hit.id);
/** A search answers its hits, or (weak evidence) { evidence, note, hits, servers }: the hits either way. */
const hitsOf = (answer: unknown) => (Array.isArray(answer) ? answer : (answer as { hits: unknown[] }).hits) as { id: string }[];
const unavailableEvents = (log: ReturnType<typeof recordingSessionLog>) => log.lines.filter((line) => line.event === 'mcp.unavailable');

describe('createToolSearchSession: a Streamable HTTP MCP server whose tools fail', () => {
  it('keeps the server connected when a tool returns an error result or throws a JSON-RPC error', async () => {
    const { session, log } = await httpSession({ mode: 'tools' });
    const reported = await call(session, 'tool_call', { id: 'mcp:web:report_error', args: {} });
    expect(reported).toMatchObject({ status: 'error', code: 'tool_failed' });
    expect(reported.status === 'error' && reported.message).toContain('the backend said no');
    const thrown = await call(session, 'tool_call', { id: 'mcp:web:throw_rpc', args: {} });
    expect(thrown).toMatchObject({ status: 'error', code: 'tool_failed' });
    expect(thrown.status === 'error' && thrown.message).toContain('the database is down');

    expect(session.telemetry().catalog).toMatchObject({ size: TOOLS.length, unavailableServers: [] });
    expect(unavailableEvents(log)).toEqual([]);
    expect(await hitIds(session, 'upper-case a text')).toContain('mcp:web:shout');
    expect(await call(session, 'tool_call', { id: 'mcp:web:shout', args: { text: 'still here' } })).toMatchObject({ status: 'ok', result: 'STILL HERE' });
  });

  it('keeps the server connected when one request fails at the HTTP level but the server still answers a ping', async () => {
    const { server, session, log } = await httpSession({ mode: 'tools' });
    server.failNextCallWithBadGateway();
    const failed = await call(session, 'tool_call', { id: 'mcp:web:shout', args: { text: 'lost' } });
    expect(failed).toMatchObject({ status: 'error', code: 'tool_failed' });
    expect(failed.status === 'error' && failed.message).toMatch(/^MCP server "web" failed tools\/call shout: .*Bad Gateway/);
    expect(session.telemetry().catalog).toMatchObject({ size: TOOLS.length, unavailableServers: [] });
    expect(unavailableEvents(log)).toEqual([]);
    expect(await call(session, 'tool_call', { id: 'mcp:web:shout', args: { text: 'again' } })).toMatchObject({ status: 'ok', result: 'AGAIN' });
  });
});

describe('createToolSearchSession: a Streamable HTTP MCP server that dies', () => {
  it('direct mode: a call after the server died fails unavailable naming the server, and its tools leave the surface', async () => {
    const { server, session, log } = await httpSession(false);
    expect(declaredNames(session)).toEqual(expect.arrayContaining(['shout', 'report_error']));
    expect(await call(session, 'shout', { text: 'hi' })).toMatchObject({ status: 'ok', result: 'HI' });

    await server.die();
    const outcome = await call(session, 'shout', { text: 'anyone?' });
    // Either this call's failed request or the dropped notification stream triggered the check: same outcome.
    expect(outcome).toMatchObject({ status: 'error', code: 'unavailable' });
    expect(outcome.status === 'error' && outcome.message).toMatch(/^MCP server "web" .*: MCP server "web" is unreachable: .*ECONNREFUSED/);

    expect(session.telemetry().catalog).toMatchObject({ size: 0, unavailableServers: ['web'] });
    expect(declaredNames(session)).not.toContain('shout');
    expect(unavailableEvents(log)).toEqual([expect.objectContaining({ server: 'web', reason: expect.stringMatching(/^MCP server "web" /) as unknown })]);
    const again = await call(session, 'report_error', {});
    expect(again).toMatchObject({ status: 'error', code: 'unavailable' });
    expect(again.status === 'error' && again.message).toMatch(/^MCP server "web" is unavailable: MCP server "web" /);
  });

  it.each([
    ['waiting for its response headers', 'never_answers'],
    ['reading its open response stream', 'works_forever'],
  ])('tools mode: a call pending (%s) when the server dies fails unavailable, not timeout, and the tools leave search', async (_, tool) => {
    const { server, session, log } = await httpSession({ mode: 'tools' });
    expect(await hitIds(session, 'upper-case a text')).toContain('mcp:web:shout');
    const pending = call(session, 'tool_call', { id: `mcp:web:${tool}`, args: {} });
    await server.hanging;
    await server.die();

    const outcome = await pending;
    expect(outcome).toMatchObject({ status: 'error', code: 'unavailable', tool: { id: `mcp:web:${tool}` } });
    expect(outcome.status === 'error' && outcome.message).toMatch(/^MCP server "web" became unavailable during the call: MCP server "web" is unreachable: .*ECONNREFUSED/);
    expect(await hitIds(session, 'upper-case a text')).toEqual([]);
    expect(session.telemetry().catalog).toMatchObject({ size: 0, unavailableServers: ['web'] });
    expect(unavailableEvents(log)).toHaveLength(1);
    const after = await call(session, 'tool_call', { id: 'mcp:web:shout', args: { text: 'x' } });
    expect(after).toMatchObject({ status: 'error', code: 'unavailable' });
    expect(after.status === 'error' && after.message).toMatch(/^MCP server "web" is unavailable: /);
  }, scaledTimeout(30_000));

  it('tools mode: a server that dies while idle is noticed through its dropped notification stream, before any call', async () => {
    const { server, session, log } = await httpSession({ mode: 'tools' });
    await until(server.streamOpen, 'the notification stream');
    await server.die();
    await until(() => unavailableEvents(log).length > 0, 'the session to mark the server unavailable');
    expect(unavailableEvents(log)).toEqual([expect.objectContaining({ server: 'web', reason: expect.stringMatching(/^MCP server "web" is unreachable: .*ECONNREFUSED/) as unknown })]);
    expect(await hitIds(session, 'upper-case a text')).toEqual([]);
    expect(session.telemetry().catalog).toMatchObject({ size: 0, unavailableServers: ['web'] });
    expect(session.telemetry().calls).toEqual([]);
  });

  it('tools mode: a server that ended the session (HTTP 404) is unavailable from the call that hit it', async () => {
    const { server, session, log } = await httpSession({ mode: 'tools' });
    expect(await call(session, 'tool_call', { id: 'mcp:web:shout', args: { text: 'a' } })).toMatchObject({ status: 'ok', result: 'A' });

    await server.endSession();
    const outcome = await call(session, 'tool_call', { id: 'mcp:web:shout', args: { text: 'b' } });
    expect(outcome).toMatchObject({ status: 'error', code: 'unavailable' });
    expect(outcome.status === 'error' && outcome.message).toMatch(/^MCP server "web" .*: MCP server "web" ended the session \(HTTP 404\)$/);
    expect(await hitIds(session, 'upper-case a text')).toEqual([]);
    expect(session.telemetry().catalog).toMatchObject({ size: 0, unavailableServers: ['web'] });
    expect(unavailableEvents(log)).toHaveLength(1);
  });
});
