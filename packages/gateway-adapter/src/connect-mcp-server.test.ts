import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServer, type McpServerConnection } from './connect-mcp-server.js';
import { mcpFixtureConfig } from './testing/mcp-fixture.js';

const open: McpServerConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function connect(options: Parameters<typeof connectMcpServer>[1] = {}) {
  const connection = await connectMcpServer(mcpFixtureConfig('fixture', { pageSize: 3 }), { requestTimeoutMs: 10_000, ...options });
  open.push(connection);
  return connection;
}

describe('connectMcpServer (real stdio server)', () => {
  it('lists every tool across paginated tools/list pages', async () => {
    const connection = await connect();
    expect(connection.status).toBe('connected');
    expect(connection.tools().map((tool) => tool.name)).toEqual([
      'echo_text',
      'add_numbers',
      'server_pid',
      'never_answers',
      'big_output',
      'fail_loudly',
      'name with spaces',
      'remove_me',
      'change_tools',
    ]);
    expect(connection.tools()[0]).toEqual({
      name: 'echo_text',
      description: 'Echo the given text back.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
  });

  it('calls a tool and returns its structured content', async () => {
    const connection = await connect();
    expect(await connection.callTool('add_numbers', { a: 2, b: 3 })).toEqual({
      ok: true,
      parts: [{ type: 'text', text: '5' }],
      structured: { sum: 5 },
      result: { sum: 5 },
      isError: false,
    });
    expect(await connection.callTool('echo_text', { text: 'hi' })).toEqual({ ok: true, parts: [{ type: 'text', text: 'echo: hi' }], result: 'echo: hi', isError: false });
  });

  it('reports a tool-level error as isError', async () => {
    const connection = await connect();
    expect(await connection.callTool('fail_loudly', {})).toEqual({
      ok: true,
      parts: [{ type: 'text', text: 'the fixture failed on purpose' }],
      result: 'the fixture failed on purpose',
      isError: true,
    });
  });

  it('follows notifications/tools/list_changed with an incremental diff', async () => {
    let resolveChange: (change: { added: string[]; removed: string[] }) => void = () => undefined;
    const changed = new Promise<{ added: string[]; removed: string[] }>((resolve) => (resolveChange = resolve));
    const connection = await connect({ onToolsChanged: (change) => resolveChange({ added: change.added.map((t) => t.name), removed: change.removed }) });
    await connection.callTool('change_tools', {});
    expect(await changed).toEqual({ added: ['added_later'], removed: ['remove_me'] });
    expect(connection.tools().map((tool) => tool.name)).toContain('added_later');
    expect(connection.tools().map((tool) => tool.name)).not.toContain('remove_me');
  });

  it('times out a call that never answers, naming the server', async () => {
    const connection = await connect();
    const result = await connection.callTool('never_answers', {}, { timeoutMs: 300 });
    expect(result).toEqual({ ok: false, code: 'timeout', message: 'MCP server "fixture" did not answer tools/call never_answers within 300 ms' });
    expect(connection.status).toBe('connected');
  });

  it('fails a pending call with an error naming the server when the server is killed mid-call', async () => {
    let unavailableReason: string | undefined;
    const connection = await connect({ onUnavailable: (reason) => (unavailableReason = reason) });
    const pid = Number((await connection.callTool('server_pid', {}).then((r) => (r.ok ? r.result : ''))) as string);
    const pending = connection.callTool('never_answers', {}, { timeoutMs: 60_000 });
    process.kill(pid, 'SIGKILL');
    const result = await pending;
    expect(result.ok).toBe(false);
    expect(!result.ok && result.code).toBe('unavailable');
    expect(!result.ok && result.message).toContain('MCP server "fixture"');
    expect(connection.status).toBe('unavailable');
    expect(connection.tools()).toEqual([]);
    expect(unavailableReason).toBe('MCP server "fixture" exited or closed its connection');
    expect(await connection.callTool('echo_text', { text: 'x' })).toEqual({
      ok: false,
      code: 'unavailable',
      message: 'MCP server "fixture" exited or closed its connection',
    });
  });

  it('reports a server that cannot start as unavailable instead of throwing', async () => {
    const connection = await connectMcpServer(
      { name: 'broken', transport: 'stdio', command: process.execPath, args: ['-e', 'process.exit(3)'] },
      { requestTimeoutMs: 5_000 },
    );
    expect(connection.status).toBe('unavailable');
    expect(connection.failure).toMatch(/^MCP server "broken" failed to start: /);
    expect(await connection.callTool('x', {})).toMatchObject({ ok: false, code: 'unavailable' });
  });
});
