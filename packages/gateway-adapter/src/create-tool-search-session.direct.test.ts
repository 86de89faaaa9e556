import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingSessionLog } from './testing/recording-session-log.js';
import { createToolSearchSession, type CreateToolSearchSessionOptions } from './create-tool-search-session.js';
import type { ToolSearchSession } from './tool-search-session.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';
import { mcpFixtureConfig, until } from '@tool-search/test-utils';

// Direct mode (`config: false`) declares every allowed schema. These tests cover a tool whose schema the
// model was shown in an earlier surface and which has gone away by the time the model calls it: removed by
// its MCP server through list_changed (also while its approval is pending), or its server died.
//
// The servers are real: an MCP SDK server over Streamable HTTP in this process (so a test can remove and
// re-add tools and see every tools/call that reaches it on the wire), and the stdio fixture for a crash.

/** An in-process MCP server over Streamable HTTP whose tools a test can remove and re-add. */
interface HttpMcpServer {
  url: string;
  /** Tool names of every `tools/call` request that reached the server, read from the HTTP body. */
  wireCalls: string[];
  /** Every run of a tool handler (the executor), with its args. */
  ran: { name: string; args: unknown }[];
  add(name: string, description?: string): void;
  remove(name: string): void;
  describeAs(name: string, description: string): void;
  /** True once the client's standalone SSE stream is open (server notifications travel on it). */
  streamOpen(): boolean;
  close(): Promise<void>;
}

async function startHttpMcpServer(toolNames: string[]): Promise<HttpMcpServer> {
  const mcp = new McpServer({ name: 'direct-fixture', version: '1.0.0' });
  const registered = new Map<string, RegisteredTool>();
  const wireCalls: string[] = [];
  const ran: { name: string; args: unknown }[] = [];
  let sseResponse: ServerResponse | undefined;
  const add = (name: string, description = `The ${name.replace(/_/g, ' ')} tool.`) => {
    registered.set(
      name,
      mcp.registerTool(name, { description, inputSchema: { text: z.string() } }, async (args) => {
        ran.push({ name, args });
        return { content: [{ type: 'text', text: `${name}: ${args.text}` }] };
      }),
    );
  };
  toolNames.forEach((name) => add(name));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const readBody = async (request: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return chunks.length === 0 ? undefined : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
  };
  const httpServer = createServer((request, response) => {
    void (async () => {
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      for (const message of Array.isArray(body) ? body : [body]) {
        const rpc = message as { method?: string; params?: { name?: string } } | undefined;
        if (rpc?.method === 'tools/call') wireCalls.push(String(rpc.params?.name));
      }
      // The standalone SSE stream is registered before its headers go out; the request stays open.
      if (request.method === 'GET') sseResponse = response;
      await transport.handleRequest(request, response, body);
    })();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`,
    wireCalls,
    ran,
    add,
    remove(name) {
      registered.get(name)?.remove();
      registered.delete(name);
    },
    describeAs(name, description) {
      registered.get(name)?.update({ description });
    },
    streamOpen: () => sseResponse?.headersSent === true,
    async close() {
      await mcp.close().catch(() => undefined);
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}

const servers: HttpMcpServer[] = [];
const sessions: ToolSearchSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const DENIED = 'mcp:web:secret_tool';

async function directSession(toolNames: string[], overrides: Partial<CreateToolSearchSessionOptions> = {}) {
  const server = await startHttpMcpServer(toolNames);
  servers.push(server);
  const log = recordingSessionLog();
  const session = await createToolSearchSession({
    config: false,
    policy: { deny: [DENIED] },
    sources: { mcp: [{ name: 'web', transport: 'http', url: server.url }] },
    sessionLog: log,
    callTimeoutMs: 5_000,
    mcpRequestTimeoutMs: 5_000,
    ...overrides,
  });
  sessions.push(session);
  await until(server.streamOpen, 'the MCP notification stream');
  /** Waits for the session's next tool list change (one naming `id` as `kind`, when given). */
  const changeApplied = (id?: string, kind: 'removed' | 'added' = 'removed') => {
    const matching = () =>
      log.lines.filter((line) => line.event === 'mcp.tools_changed' && (id === undefined || (line[kind] as string[]).includes(id))).length;
    const seen = matching();
    return until(() => matching() > seen, id === undefined ? 'a tool list change' : `${id} ${kind}`);
  };
  return { server, session, log, changeApplied };
}

let callIds = 0;
const call = (session: ToolSearchSession, name: string, args: unknown, toolCallId = `direct_${++callIds}`) =>
  session.execute({ name, args, toolCallId });
const declaredNames = (session: ToolSearchSession) => (session.surface('anthropic').tools as { name: string }[]).map((tool) => tool.name);
const callEvent = (log: ReturnType<typeof recordingSessionLog>, toolCallId: string) =>
  log.lines.find((line) => line.event === 'call' && line['toolCallId'] === toolCallId);
/** An outcome or log line without its timings, for exact comparisons across sessions. */
const untimed = (value: unknown) => JSON.parse(JSON.stringify(value, (key, field: unknown) => (key === 'durationMs' ? undefined : field))) as unknown;

describe('createToolSearchSession: direct mode, a declared tool its MCP server removed', () => {
  it('fails the call with unavailable naming the server, never reaching the server, and records it', async () => {
    const { server, session, log, changeApplied } = await directSession(['lookup_order', 'cancel_order', 'secret_tool']);
    expect(declaredNames(session)).toEqual(['cancel_order', 'lookup_order']);
    expect(await call(session, 'lookup_order', { text: 'a1' })).toMatchObject({ status: 'ok', result: 'lookup_order: a1' });

    const removed = changeApplied('mcp:web:cancel_order', 'removed');
    server.remove('cancel_order');
    await removed;
    const outcome = await call(session, 'cancel_order', { text: 'a1' }, 'stale_1');

    expect(outcome).toEqual({
      status: 'error',
      kind: 'call',
      toolCallId: 'stale_1',
      name: 'cancel_order',
      code: 'unavailable',
      message: 'Tool mcp:web:cancel_order was removed by MCP server "web"',
      content: 'Error (unavailable): Tool mcp:web:cancel_order was removed by MCP server "web"',
      durationMs: expect.any(Number),
    });
    expect(server.wireCalls).toEqual(['lookup_order']);
    expect(server.ran.map((run) => run.name)).toEqual(['lookup_order']);
    expect(session.telemetry()).toMatchObject({ counts: { calls: 2, errors: 1, blocked: 0 } });
    expect(session.telemetry().calls[1]).toEqual({
      toolCallId: 'stale_1',
      toolId: 'mcp:web:cancel_order',
      source: 'mcp',
      via: 'direct',
      status: 'error',
      detail: 'unavailable',
      durationMs: expect.any(Number),
    });
    expect(callEvent(log, 'stale_1')).toEqual({
      event: 'call',
      toolCallId: 'stale_1',
      via: 'direct',
      toolId: 'mcp:web:cancel_order',
      source: 'mcp',
      decision: 'not-run',
      status: 'error',
      detail: 'unavailable',
      durationMs: expect.any(Number),
    });
  });

  it('still answers unavailable for the stale name after a new surface without the tool was rendered', async () => {
    const { server, session, changeApplied } = await directSession(['lookup_order', 'cancel_order']);
    expect(declaredNames(session)).toEqual(['cancel_order', 'lookup_order']);
    const removed = changeApplied('mcp:web:cancel_order', 'removed');
    server.remove('cancel_order');
    await removed;
    expect(declaredNames(session)).toEqual(['lookup_order']);
    expect(await call(session, 'cancel_order', { text: 'b2' })).toMatchObject({ status: 'error', code: 'unavailable' });
    expect(await call(session, 'cancel_order', { text: 'b3' })).toMatchObject({ status: 'error', code: 'unavailable' });
    expect(server.wireCalls).toEqual([]);
  });

  it('fails the call with unavailable when the tool is removed while its approval is pending', async () => {
    let removal: Promise<void> | undefined;
    const { server, session, log, changeApplied } = await directSession(['lookup_order', 'cancel_order'], {
      policy: { deny: [DENIED], requireApproval: ['mcp:web:cancel_order'] },
      approvals: {
        requestApproval: async () => {
          removal = changeApplied('mcp:web:cancel_order', 'removed');
          server.remove('cancel_order');
          await removal;
          return { decision: 'allow' };
        },
      },
    });
    expect(declaredNames(session)).toContain('cancel_order');
    const outcome = await call(session, 'cancel_order', { text: 'c3' }, 'racing_1');
    expect(removal).toBeDefined();
    expect(outcome).toMatchObject({
      status: 'error',
      code: 'unavailable',
      message: 'Tool mcp:web:cancel_order was removed by MCP server "web"',
      tool: { id: 'mcp:web:cancel_order', source: 'mcp', owner: 'web', name: 'cancel_order' },
    });
    expect(server.wireCalls).toEqual([]);
    expect(server.ran).toEqual([]);
    expect(session.telemetry().calls).toEqual([expect.objectContaining({ toolId: 'mcp:web:cancel_order', via: 'direct', status: 'error', detail: 'unavailable' })]);
    expect(callEvent(log, 'racing_1')).toMatchObject({ status: 'error', detail: 'unavailable' });
  });

  it('makes a tool that was removed and re-added with the same id callable again', async () => {
    const { server, session, changeApplied } = await directSession(['lookup_order', 'cancel_order']);
    expect(declaredNames(session)).toEqual(['cancel_order', 'lookup_order']);
    const removed = changeApplied('mcp:web:cancel_order', 'removed');
    server.remove('cancel_order');
    await removed;
    expect(await call(session, 'cancel_order', { text: 'd4' })).toMatchObject({ status: 'error', code: 'unavailable' });

    const added = changeApplied('mcp:web:cancel_order', 'added');
    server.add('cancel_order');
    await added;
    const outcome = await call(session, 'cancel_order', { text: 'd5' }, 'readded_1');
    expect(outcome).toMatchObject({
      status: 'ok',
      toolCallId: 'readded_1',
      tool: { id: 'mcp:web:cancel_order', source: 'mcp', owner: 'web', name: 'cancel_order' },
      result: 'cancel_order: d5',
      untrusted: true,
    });
    expect(server.ran).toEqual([{ name: 'cancel_order', args: { text: 'd5' } }]);
    expect(declaredNames(session)).toEqual(['cancel_order', 'lookup_order']);
    expect(session.telemetry().calls.map((record) => [record.toolId, record.status, record.detail])).toEqual([
      ['mcp:web:cancel_order', 'error', 'unavailable'],
      ['mcp:web:cancel_order', 'ok', undefined],
    ]);
  });

  it('keeps a tool callable when its server changes its definition (removed and re-added in one change)', async () => {
    const { server, session, changeApplied } = await directSession(['lookup_order', 'cancel_order']);
    expect(declaredNames(session)).toContain('cancel_order');
    const removed = changeApplied('mcp:web:cancel_order', 'removed');
    const added = changeApplied('mcp:web:cancel_order', 'added');
    server.describeAs('cancel_order', 'Cancel an order, version two.');
    await Promise.all([removed, added]);
    expect(await call(session, 'cancel_order', { text: 'e5' })).toMatchObject({ status: 'ok', result: 'cancel_order: e5' });
    const declared = (session.surface('anthropic').tools as { name: string; description: string }[]).find((tool) => tool.name === 'cancel_order');
    expect(declared?.description).toBe('Cancel an order, version two.');
  });
});

describe('createToolSearchSession: direct mode, a tool denied by policy', () => {
  it('answers a denied tool exactly like a tool that does not exist, before and after its server removes and re-adds it', async () => {
    const withDenied = await directSession(['lookup_order', 'cancel_order', 'secret_tool']);
    const without = await directSession(['lookup_order', 'cancel_order']);
    const sessionsAlike = () => {
      expect(declaredNames(withDenied.session)).toEqual(declaredNames(without.session));
      const { sessionId: _a, ...telemetryWith } = withDenied.session.telemetry();
      const { sessionId: _b, ...telemetryWithout } = without.session.telemetry();
      expect(untimed(telemetryWith)).toEqual(untimed(telemetryWithout));
    };
    let round = 0;
    const expectAlike = async () => {
      round += 1;
      const toolCallId = `denied_${round}`;
      const denied = await call(withDenied.session, 'secret_tool', { text: 'f6' }, toolCallId);
      const unknown = await call(without.session, 'secret_tool', { text: 'f6' }, toolCallId);
      expect(denied).toMatchObject({ status: 'error', code: 'unknown_tool' });
      expect('tool' in denied).toBe(false);
      expect(untimed(denied)).toEqual(untimed(unknown));
      expect(untimed(callEvent(withDenied.log, toolCallId))).toEqual(untimed(callEvent(without.log, toolCallId)));
      sessionsAlike();
    };

    expect(declaredNames(withDenied.session)).toEqual(['cancel_order', 'lookup_order']);
    await expectAlike();

    // A denied tool never enters the session: wait for the change itself, whatever it lists.
    const removed = withDenied.changeApplied();
    withDenied.server.remove('secret_tool');
    await removed;
    await expectAlike();
    // Not even the operator's log of the change names it.
    const changes = withDenied.log.lines.filter((line) => line.event === 'mcp.tools_changed');
    expect(changes).toEqual([{ event: 'mcp.tools_changed', server: 'web', added: [], removed: [] }]);

    const added = withDenied.changeApplied();
    withDenied.server.add('secret_tool');
    await added;
    await expectAlike();

    expect(withDenied.server.wireCalls).toEqual([]);
    expect(withDenied.server.ran).toEqual([]);
  });
});

describe('createToolSearchSession: direct mode, a real stdio MCP server that dies', () => {
  it('fails calls to its declared tools with unavailable naming the server; a denied tool stays unknown', async () => {
    const log = recordingSessionLog();
    const session = await createToolSearchSession({
      config: false,
      policy: { deny: ['mcp:fixture:fail_loudly'] },
      sources: { mcp: [mcpFixtureConfig('fixture', { pageSize: 3 })] },
      sessionLog: log,
      callTimeoutMs: 5_000,
    });
    sessions.push(session);
    const declared = declaredNames(session);
    expect(declared).toContain('echo_text');
    expect(declared).not.toContain('fail_loudly');

    const pidOutcome = await call(session, 'server_pid', {});
    const pid = Number(pidOutcome.status === 'ok' ? pidOutcome.result : Number.NaN);
    expect(Number.isInteger(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
    await until(() => log.lines.some((line) => line.event === 'mcp.unavailable'), 'the server exit');

    const outcome = await call(session, 'echo_text', { text: 'g7' }, 'dead_1');
    expect(outcome).toMatchObject({
      status: 'error',
      code: 'unavailable',
      message: expect.stringMatching(/^MCP server "fixture" is unavailable: MCP server "fixture" exited or closed its connection; its last stderr lines: /),
    });
    expect(session.telemetry()).toMatchObject({ catalog: { size: 0, unavailableServers: ['fixture'] } });
    expect(session.telemetry().calls.at(-1)).toMatchObject({ toolCallId: 'dead_1', toolId: 'mcp:fixture:echo_text', source: 'mcp', via: 'direct', detail: 'unavailable' });
    expect(callEvent(log, 'dead_1')).toMatchObject({ decision: 'not-run', status: 'error', detail: 'unavailable' });

    const denied = await call(session, 'fail_loudly', {}, 'dead_2');
    const unknown = await call(session, 'never_was_here', {}, 'dead_3');
    expect(denied).toMatchObject({ status: 'error', code: 'unknown_tool' });
    const anonymous = (outcome: ToolCallOutcome, name: string) =>
      JSON.parse(JSON.stringify({ ...(untimed(outcome) as object), toolCallId: '' }).replaceAll(name, '<name>')) as unknown;
    expect(anonymous(denied, 'fail_loudly')).toEqual(anonymous(unknown, 'never_was_here'));
  });
});

describe('createToolSearchSession: direct mode, a name qualified or unqualified by a change elsewhere', () => {
  async function twoServerSession(shopTools: string[], depotTools: string[]) {
    const shop = await startHttpMcpServer(shopTools);
    const depot = await startHttpMcpServer(depotTools);
    servers.push(shop, depot);
    const log = recordingSessionLog();
    const session = await createToolSearchSession({
      config: false,
      sources: {
        mcp: [
          { name: 'shop', transport: 'http', url: shop.url },
          { name: 'depot', transport: 'http', url: depot.url },
        ],
      },
      sessionLog: log,
      callTimeoutMs: 5_000,
    });
    sessions.push(session);
    await until(() => shop.streamOpen() && depot.streamOpen(), 'the MCP notification streams');
    const changes = () => log.lines.filter((line) => line.event === 'mcp.tools_changed').length;
    return { shop, depot, session, changes };
  }

  it('answers unavailable for an owner-qualified name whose tool went away, and still runs the other owner\'s', async () => {
    const { shop, depot, session, changes } = await twoServerSession(['lookup_order'], ['lookup_order']);
    expect(declaredNames(session)).toEqual(['depot__lookup_order', 'shop__lookup_order']);
    depot.remove('lookup_order');
    await until(() => changes() === 1, 'the removal');
    expect(declaredNames(session)).toEqual(['lookup_order']);

    expect(await call(session, 'depot__lookup_order', { text: 'h8' })).toMatchObject({
      status: 'error',
      code: 'unavailable',
      message: 'Tool mcp:depot:lookup_order was removed by MCP server "depot"',
    });
    // Declared as shop__lookup_order in the surface the model saw; the tool is still there (as lookup_order).
    expect(await call(session, 'shop__lookup_order', { text: 'h9' })).toMatchObject({
      status: 'ok',
      tool: { id: 'mcp:shop:lookup_order' },
      result: 'lookup_order: h9',
    });
    expect(depot.wireCalls).toEqual([]);
    expect(shop.wireCalls).toEqual(['lookup_order']);
  });

  it('runs the tool a name was declared for after another owner adds a tool with the same name', async () => {
    const { shop, depot, session, changes } = await twoServerSession(['lookup_order'], ['cancel_order']);
    expect(declaredNames(session)).toEqual(['cancel_order', 'lookup_order']);
    depot.add('lookup_order');
    await until(() => changes() === 1, 'the addition');
    expect(declaredNames(session)).toEqual(['cancel_order', 'depot__lookup_order', 'shop__lookup_order']);

    expect(await call(session, 'lookup_order', { text: 'i1' })).toMatchObject({ status: 'ok', tool: { id: 'mcp:shop:lookup_order' } });
    expect(shop.ran).toEqual([{ name: 'lookup_order', args: { text: 'i1' } }]);
    expect(depot.wireCalls).toEqual([]);
  });
});
