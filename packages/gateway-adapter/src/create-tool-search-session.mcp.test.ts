import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchSession } from './create-tool-search-session.js';
import type { ToolSearchSession } from './tool-search-session.js';
import { mcpFixtureConfig } from '@tool-search/test-utils';

// One real MCP server over stdio for the whole file (each start costs a child process); the tests run
// in order and the last one kills it.
const folder = mkdtempSync(join(tmpdir(), 'gw-mcp-session-'));
const logPath = join(folder, 'session.jsonl');
let session: ToolSearchSession;
let ids = 0;
const call = (name: string, args: unknown) => session.execute({ name, args, toolCallId: `mcp_${++ids}` });
// A search answers its hits, or (weak evidence) { evidence, note, hits, servers }: the hits either way.
const hitIds = async (query: string) => hitsOf(JSON.parse((await call('tool_search', { query, limit: 20 })).content)).map((hit) => hit.id);
const hitsOf = (answer: unknown) => (Array.isArray(answer) ? answer : (answer as { hits: unknown[] }).hits) as { id: string }[];

beforeAll(async () => {
  session = await createToolSearchSession({
    config: { mode: 'tools' },
    policy: { deny: ['mcp:fixture:fail_loudly'] },
    sources: { mcp: [mcpFixtureConfig('fixture', { pageSize: 3 })] },
    sessionLog: { path: logPath },
    callTimeoutMs: 5_000,
  });
});
afterAll(async () => {
  await session.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('createToolSearchSession with a real MCP server', () => {
  it('catalogs every listed MCP tool the policy allows, skipping names that cannot form an id', async () => {
    expect(session.telemetry().catalog).toMatchObject({ size: 7, sources: { mcp: 7 } });
    expect(await call('tool_call', { id: 'mcp:fixture:name with spaces', args: {} })).toMatchObject({ status: 'error', code: 'unknown_tool' });
  });

  it('finds and calls an MCP tool, marking its result as untrusted', async () => {
    expect(await hitIds('add two numbers')).toContain('mcp:fixture:add_numbers');
    const outcome = await call('tool_call', { id: 'mcp:fixture:add_numbers', args: { a: 4, b: 5 } });
    expect(outcome).toMatchObject({ status: 'ok', tool: { source: 'mcp', owner: 'fixture' }, result: { sum: 9 }, untrusted: true });
    expect(outcome.content).toContain('<untrusted-tool-result tool="mcp:fixture:add_numbers">');
  });

  it('caps a huge untrusted result at 20,000 characters', async () => {
    const outcome = await call('tool_call', { id: 'mcp:fixture:big_output', args: { size: 30_000 } });
    expect(outcome).toMatchObject({ status: 'ok', truncated: true });
    expect(outcome.content).toContain('[truncated: 20000 of 30000 characters shown]');
  });

  it('never exposes an MCP tool the policy denies', async () => {
    expect(await hitIds('a tool that reports an error')).not.toContain('mcp:fixture:fail_loudly');
    expect(await call('tool_call', { id: 'mcp:fixture:fail_loudly', args: {} })).toMatchObject({ status: 'error', code: 'unknown_tool' });
  });

  it('updates the catalog when the server changes its tool list', async () => {
    await call('tool_call', { id: 'mcp:fixture:change_tools', args: {} });
    // The list_changed notification is handled asynchronously: poll the catalog (no timing assertion).
    for (let attempt = 0; attempt < 100 && !(await hitIds('reverse a word')).includes('mcp:fixture:added_later'); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await hitIds('reverse a word')).toContain('mcp:fixture:added_later');
    expect(await call('tool_call', { id: 'mcp:fixture:added_later', args: { word: 'abc' } })).toMatchObject({ status: 'ok', result: 'cba' });
    expect(await call('tool_call', { id: 'mcp:fixture:remove_me', args: {} })).toMatchObject({
      status: 'error',
      code: 'unavailable',
      message: 'Tool mcp:fixture:remove_me was removed by MCP server "fixture"',
    });
    expect(session.telemetry().catalog.size).toBe(7);
  });

  it('fails calls with an error naming the server once the server is killed mid-run', async () => {
    const pidOutcome = await call('tool_call', { id: 'mcp:fixture:server_pid', args: {} });
    expect(pidOutcome.status).toBe('ok');
    const pid = Number(pidOutcome.status === 'ok' ? pidOutcome.result : NaN);
    const pending = call('tool_call', { id: 'mcp:fixture:never_answers', args: {} });
    process.kill(pid, 'SIGKILL');
    const outcome = await pending;
    expect(outcome).toMatchObject({ status: 'error', code: 'unavailable' });
    expect(outcome.status === 'error' && outcome.message).toContain('MCP server "fixture"');
    const after = await call('tool_call', { id: 'mcp:fixture:echo_text', args: { text: 'x' } });
    // The reason quotes the last lines the server wrote to stderr (the fixture's SDK warns about a tool name).
    expect(after).toMatchObject({
      status: 'error',
      code: 'unavailable',
      message: expect.stringMatching(/^MCP server "fixture" is unavailable: MCP server "fixture" exited or closed its connection; its last stderr lines: .*naming standard/),
    });
    expect(await hitIds('echo the given text')).toEqual([]);
    expect(session.telemetry().catalog).toMatchObject({ size: 0, unavailableServers: ['fixture'] });
    const events = readFileSync(logPath, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { event: string }).event);
    expect(events).toContain('mcp.tools_changed');
    expect(events).toContain('mcp.unavailable');
  });
});

describe('createToolSearchSession start-up failure', () => {
  // The shared session's host restarts the server the test above killed: closed first, so that any fixture
  // process left below is one the failed session started.
  beforeAll(() => session.close());

  it('closes the MCP servers it started when the session cannot be created', async () => {
    const error = await createToolSearchSession({
      config: { mode: 'tools' },
      sources: { mcp: [mcpFixtureConfig('collide')], client: [{ name: 'echo_text' }] },
    }).catch((caught: unknown) => caught);
    // One guard for the host: the modes error arrives wrapped, with itself as the cause.
    expect(error).toMatchObject({ name: 'GatewayAdapterError', code: 'invalid_options', cause: { name: 'ModesError', code: 'client_tool_collision' } });
    // The server killed above is gone, so any fixture child of this process now would be a leak.
    const { execFileSync } = await import('node:child_process');
    const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
    expect(children).not.toContain('mcp-fixture-server.mjs');
  });
});
