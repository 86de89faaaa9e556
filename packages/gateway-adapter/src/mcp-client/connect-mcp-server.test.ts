import { readFileSync } from 'node:fs';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServer, type McpServerConnection } from './connect-mcp-server.js';
import { listDescendantPids } from './list-descendant-pids.js';
import type { McpServerConfig } from '../schemas.js';
import { mcpFixtureConfig, PROMPTS_ONLY_SERVER_PATH } from '@tool-search/test-utils';
import { scaledTimeout } from '@tool-search/property-settings';

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

  it('classifies a request out of time by the SDK error code, not by the words "timed out"', async () => {
    const connection = await connectMcpServer(mcpFixtureConfig('fixture', { timedOutErrors: true }), { requestTimeoutMs: 10_000 });
    open.push(connection);
    expect(await connection.callTool('never_answers', {}, { timeoutMs: 300 })).toEqual({
      ok: false,
      code: 'timeout',
      message: 'MCP server "fixture" did not answer tools/call never_answers within 300 ms',
    });
    // A tool's own error result that says "timed out" is the tool's answer, not a timeout of the call.
    expect(await connection.callTool('report_timed_out', {})).toEqual({
      ok: true,
      parts: [{ type: 'text', text: 'upstream request timed out after 5 ms' }],
      result: 'upstream request timed out after 5 ms',
      isError: true,
    });
    // A JSON-RPC error answer whose message says "timed out" is a failure of the request, not a timeout.
    const read = await connection.readResource('fixture://timed-out');
    expect(read).toMatchObject({ ok: false, code: 'failed', message: expect.stringContaining('upstream request timed out after 5 ms') });
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

describe('connectMcpServer lifecycle', () => {
  const logLines = () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    return { logger, lines };
  };
  const processState = (pid: number): string | undefined => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    } catch {
      return undefined;
    }
  };
  const parentOf = (pid: number): number => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  };
  const waitUntilGone = async (pid: number) => {
    for (let attempt = 0; attempt < 50 && processState(pid) !== undefined && processState(pid) !== 'Z'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return processState(pid);
  };

  it('quotes the last stderr lines of a server that fails to start, bounded and with secrets redacted', async () => {
    const script = [
      "for (let i = 1; i <= 40; i += 1) console.error('starting step ' + i);",
      "console.error('using key ' + process.env.SLACK_BOT_TOKEN + ' and ghp_' + 'a'.repeat(36));",
      "console.error('Please set SLACK_APP_TOKEN');",
      'process.exit(1);',
    ].join('\n');
    const connection = await connectMcpServer(
      { name: 'slack', transport: 'stdio', command: process.execPath, args: ['-e', script], env: { SLACK_BOT_TOKEN: 'xoxb-secret-value-123' } },
      { requestTimeoutMs: 5_000 },
    );
    expect(connection.status).toBe('unavailable');
    expect(connection.failureKind).toBe('start_failed');
    const reason = connection.failure!;
    expect(reason).toMatch(/^MCP server "slack" failed to start: .*\. Last stderr lines:\n/);
    const quoted = reason.slice(reason.indexOf('Last stderr lines:\n') + 'Last stderr lines:\n'.length).split('\n');
    expect(quoted).toHaveLength(20);
    expect(quoted.at(-1)).toBe('Please set SLACK_APP_TOKEN');
    expect(quoted.at(-2)).toBe('using key [redacted] and [redacted]');
    expect(quoted[0]).toBe('starting step 23');
    expect(reason).not.toContain('xoxb-secret-value-123');
    expect(connection.stderrTail()).toEqual(quoted);
    expect(connection.stderrTail().join('\n').length).toBeLessThanOrEqual(2_048);
  });

  it('redacts credential-named values and the short values of the env it was given from the stderr it quotes', async () => {
    const script = [
      "console.error('DB_PASSWORD=hunter2 AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI x-api-key: k-9');",
      "console.error('pin is PIN=' + process.env.PIN);",
      'process.exit(1);',
    ].join('\n');
    const connection = await connectMcpServer({ name: 'db', transport: 'stdio', command: process.execPath, args: ['-e', script], env: { PIN: '4711' } }, { requestTimeoutMs: 5_000 });
    expect(connection.stderrTail()).toEqual(['DB_PASSWORD=[redacted] AWS_SECRET_ACCESS_KEY=[redacted] x-api-key: [redacted]', 'pin is PIN=[redacted]']);
    expect(connection.failure).not.toMatch(/hunter2|wJalrXUtnFEMI|k-9|4711/);
  });

  it('names a command that does not exist', async () => {
    const connection = await connectMcpServer({ name: 'nope', transport: 'stdio', command: 'tool-search-no-such-command' }, { requestTimeoutMs: 5_000 });
    // In the CLI's words, with no spawn or errno internals.
    expect(connection.failure).toBe(
      'MCP server "nope" failed to start: the command "tool-search-no-such-command" was not found (not installed, or not on the PATH tool-search runs with)',
    );
  });

  it('logs one warning for a failed start and one info line for a normal close, and onUnavailable only for a server that went away', async () => {
    const failed = logLines();
    const reasons: string[] = [];
    await connectMcpServer(
      { name: 'broken', transport: 'stdio', command: process.execPath, args: ['-e', 'process.exit(3)'] },
      { logger: failed.logger, requestTimeoutMs: 5_000, onUnavailable: (reason) => reasons.push(reason) },
    );
    expect(failed.lines.filter((line) => (line['level'] as number) >= 30).map((line) => [line['level'], line['msg']])).toEqual([[40, 'mcp server failed to start']]);
    expect(reasons).toEqual([]);

    const closing = logLines();
    const connection = await connect({ logger: closing.logger, onUnavailable: (reason) => reasons.push(reason) });
    await connection.close();
    await connection.close();
    expect(closing.lines.filter((line) => (line['level'] as number) >= 30).map((line) => [line['level'], line['msg']])).toEqual([
      [30, 'mcp server connected'],
      [30, 'mcp server closed'],
    ]);
    expect(reasons).toEqual([]);
    expect(connection.failureKind).toBe('closed');
  });

  it('leaves no process behind (not even a zombie) after repeated connect and close', async () => {
    const pids: number[] = [];
    for (let round = 0; round < 8; round += 1) {
      const connection = await connectMcpServer(mcpFixtureConfig('fixture'), { requestTimeoutMs: 10_000 });
      expect(connection.status).toBe('connected');
      pids.push(connection.pid!);
      await connection.close();
      expect(connection.pid).toBeUndefined();
    }
    for (const pid of pids) expect(await waitUntilGone(pid)).toBeUndefined();
  }, scaledTimeout(30_000));

  it('stops a process the server started itself when it is closed', async () => {
    // The fixture started through a shell that first puts a long-lived child in the background.
    const background = `${JSON.stringify(process.execPath)} -e "setInterval(() => undefined, 1000)" &`;
    const config = mcpFixtureConfig('wrapped') as McpServerConfig & { transport: 'stdio' };
    const wrapped = { ...config, command: '/bin/sh', args: ['-c', `${background} exec ${JSON.stringify(process.execPath)} ${JSON.stringify(config.args![0]!)}`] };
    const connection = await connectMcpServer(wrapped, { requestTimeoutMs: 10_000 });
    expect(connection.status).toBe('connected');
    const descendants = listDescendantPids(connection.pid!);
    expect(descendants.length).toBe(1);
    await connection.close();
    // It no longer runs. Orphaned, it belongs to init, which reaps it (or, in a container whose init does
    // not reap, keeps it as a zombie that is not ours).
    const state = await waitUntilGone(descendants[0]!);
    expect(state === undefined || state === 'Z').toBe(true);
    if (state === 'Z') expect(parentOf(descendants[0]!)).not.toBe(process.pid);
  }, scaledTimeout(15_000));

  it('reports a server that exits after it started once through onUnavailable, with its kind', async () => {
    const events: string[] = [];
    const connection = await connect({ onUnavailable: (reason, kind) => events.push(`${kind}: ${reason}`) });
    process.kill(connection.pid!, 'SIGKILL');
    for (let attempt = 0; attempt < 100 && connection.status === 'connected'; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    await connection.close();
    expect(events).toEqual(['exited: MCP server "fixture" exited or closed its connection']);
    expect(connection.failureKind).toBe('exited');
  });
});

describe('connectMcpServer with a server that has no tools', () => {
  it('connects with no tools and still serves its prompts', async () => {
    const script = PROMPTS_ONLY_SERVER_PATH;
    const connection = await connectMcpServer({ name: 'prompts', transport: 'stdio', command: process.execPath, args: [script] }, { requestTimeoutMs: 10_000 });
    open.push(connection);
    expect(connection.status).toBe('connected');
    expect(connection.features.tools).toBe(false);
    expect(connection.tools()).toEqual([]);
    expect(await connection.getPrompt('greet')).toEqual({ ok: true, messages: [{ role: 'user', part: { type: 'text', text: 'Hello!' } }] });
  });
});
