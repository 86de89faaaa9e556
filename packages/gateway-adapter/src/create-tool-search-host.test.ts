import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPolicy } from '@tool-search/policy';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';
import { MCP_FIXTURE_SERVER_PATH, mcpFixtureConfig } from '@tool-search/test-utils';
import type { ToolSearchSession } from './tool-search-session.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';
import { scaledTimeout } from '@tool-search/property-settings';

const tool = (name: string, description: string, extra: Partial<ExecutableTool> = {}): ExecutableTool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  execute: (args) => `${name}:${JSON.stringify(args)}`,
  ...extra,
});
const CORE: ExecutableTool[] = [
  tool('read_file', 'Read the contents of a file.'),
  tool('write_file', 'Write text to a file.'),
  tool('delete_file', 'Delete a file from the workspace.'),
  tool('send_email', 'Send an email message.'),
  tool('shutdown_host', 'Shut the machine down.', { ownerOnly: true }),
];

const hosts: ToolSearchHost[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
/** Tests here need their servers up: the first session waits for them as long as the machine's load needs (a test that means the product's wait passes its own startupTimeoutMs). */
const STARTUP_TIMEOUT_MS = scaledTimeout(30_000);
async function host(options: Parameters<typeof createToolSearchHost>[0]): Promise<ToolSearchHost> {
  const created = await createToolSearchHost({ startupTimeoutMs: STARTUP_TIMEOUT_MS, ...options });
  hosts.push(created);
  return created;
}
let ids = 0;
const call = (session: ToolSearchSession, name: string, args: unknown) => session.execute({ name, args, toolCallId: `c${++ids}` });
const hitIds = async (session: ToolSearchSession, query: string) =>
  hitsOf(JSON.parse((await call(session, 'tool_search', { query, limit: 20 })).content)).map((hit) => hit.id);
/** A search answers its hits, or (weak evidence) { evidence, note, hits, servers }: the hits either way. */
const hitsOf = (answer: unknown) => (Array.isArray(answer) ? answer : (answer as { hits: unknown[] }).hits) as { id: string }[];
const until = async (check: () => boolean | Promise<boolean>, what: string) => {
  for (const deadline = performance.now() + scaledTimeout(10_000); performance.now() < deadline; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('createToolSearchHost: sessions over one catalog', () => {
  it('opens sessions that each see the catalog through their own policy and context', async () => {
    const shared = await host({ sources: { openclaw: CORE } });
    const reader = await shared.openSession({ config: { mode: 'tools' }, policy: { allow: ['read_file', 'write_file'] } });
    const mailer = await shared.openSession({ config: { mode: 'tools' }, policy: { deny: ['*_file'] }, context: { isOwner: true } });
    expect(await hitIds(reader, 'file')).toEqual(['openclaw:core:read_file', 'openclaw:core:write_file']);
    expect(await hitIds(mailer, 'file')).toEqual([]);
    expect(await hitIds(mailer, 'shut the machine down')).toEqual(['openclaw:core:shutdown_host']);
    expect(await call(reader, 'tool_call', { id: 'openclaw:core:send_email', args: {} })).toMatchObject({ status: 'error', code: 'unknown_tool' });
    expect(await call(mailer, 'tool_call', { id: 'openclaw:core:send_email', args: { text: 'hi' } })).toMatchObject({ status: 'ok', result: 'send_email:{"text":"hi"}' });
    expect(reader.telemetry().catalog.size).toBe(2);
    expect(shared.status()).toMatchObject({ catalog: { size: 5, sources: { openclaw: 5 } }, sessions: 2 });
    await reader.close();
    expect(shared.status().sessions).toBe(1);
  });

  it('keeps client tools, pins, hooks, approvals, logs and telemetry of each session to itself', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'host-iso-'));
    folders.push(folder);
    const shared = await host({ sources: { openclaw: CORE } });
    const seen: string[] = [];
    const a = await shared.openSession({
      config: { mode: 'tools' },
      client: [{ name: 'show_toast' }],
      visible: ['read_file'],
      hooks: [{ id: 'a-hook', run: (event) => void seen.push(`a:${event.tool.id}`) }],
      sessionLog: { path: join(folder, 'a.jsonl') },
      sessionId: 'session-a',
    });
    const b = await shared.openSession({ config: { mode: 'tools' }, sessionLog: { path: join(folder, 'b.jsonl') }, sessionId: 'session-b' });
    expect(a.surface('openai-responses').tools.map((declared) => ('name' in declared ? declared.name : ''))).toEqual(['tool_search', 'tool_describe', 'tool_call', 'show_toast', 'read_file']);
    expect(b.surface('openai-responses').tools.map((declared) => ('name' in declared ? declared.name : ''))).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    expect(await call(b, 'show_toast', {})).toMatchObject({ status: 'error', code: 'unknown_tool' });
    await call(b, 'tool_call', { id: 'read_file', args: {} });
    expect(seen).toEqual([]);
    expect(await call(a, 'show_toast', {})).toMatchObject({ status: 'client' });
    await call(a, 'tool_call', { id: 'read_file', args: {} });
    expect(seen).toEqual(['a:client:client:show_toast', 'a:openclaw:core:read_file']);
    expect(a.telemetry().calls.map((record) => record.toolId)).toEqual(['client:client:show_toast', 'openclaw:core:read_file']);
    expect(b.telemetry().calls.map((record) => record.toolId)).toEqual(['openclaw:core:read_file']);
    await Promise.all([a.close(), b.close()]);
    const sessionIds = (file: string) => new Set(readFileSync(join(folder, file), 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { sessionId: string }).sessionId));
    expect(sessionIds('a.jsonl')).toEqual(new Set(['session-a']));
    expect(sessionIds('b.jsonl')).toEqual(new Set(['session-b']));
  });

  it('shares one view between sessions of the same policy scope, and none between scopes', async () => {
    const shared = await host({ sources: { openclaw: CORE } });
    const policy = createPolicy({ deny: ['send_email'], agents: { main: { deny: ['*_file'] } } });
    let checks = 0;
    const counting = { ...policy, check: (...args: Parameters<typeof policy.check>) => (checks++, policy.check(...args)) };
    const first = await shared.openSession({ config: { mode: 'tools' }, policy: counting, context: { sessionId: 'one' } });
    await hitIds(first, 'file');
    const afterFirst = checks;
    const second = await shared.openSession({ config: { mode: 'tools' }, policy: counting, context: { sessionId: 'two' } });
    expect(await hitIds(second, 'file')).toEqual(['openclaw:core:delete_file', 'openclaw:core:read_file', 'openclaw:core:write_file']);
    // A sessionId no layer names does not change the scope: the view (and its filter pass) is reused.
    expect(checks - afterFirst).toBeLessThan(CORE.length);
    const agent = await shared.openSession({ config: { mode: 'tools' }, policy: counting, context: { agentId: 'main' } });
    expect(await hitIds(agent, 'file')).toEqual([]);
  });
});

describe('createToolSearchHost: policies by content', () => {
  const visibleIds = (session: ToolSearchSession, tools: readonly ExecutableTool[], owner = 'core') =>
    tools.map((entry) => `openclaw:${entry.owner ?? owner}:${entry.name}`).filter((id) => session.tool(id) !== undefined);

  it('shares one compiled policy and one view between sessions whose configs have the same content', async () => {
    const shared = await host({ sources: { openclaw: CORE } });
    const first = await shared.openSession({ config: { mode: 'tools' }, policy: { deny: ['send_email'], agents: { main: { deny: ['*_file'] }, ops: {} } } });
    const second = await shared.openSession({ config: { mode: 'tools' }, policy: { agents: { ops: {}, main: { allow: undefined, deny: ['*_file'] } }, deny: ['send_email'] } });
    expect(shared.status().policyCache).toEqual({ policies: 1, views: 1, capacity: 64 });
    expect(visibleIds(second, CORE)).toEqual(['openclaw:core:read_file', 'openclaw:core:write_file', 'openclaw:core:delete_file']);
    expect(visibleIds(second, CORE)).toEqual(visibleIds(first, CORE));
    // Another applicable layer, or the owner flag, is another view of the same policy.
    const agent = await shared.openSession({ config: { mode: 'tools' }, policy: { deny: ['send_email'], agents: { ops: {}, main: { deny: ['*_file'] } } }, context: { agentId: 'main' } });
    const owner = await shared.openSession({ config: { mode: 'tools' }, policy: { deny: ['send_email'], agents: { ops: {}, main: { deny: ['*_file'] } } }, context: { isOwner: true } });
    expect(shared.status().policyCache).toEqual({ policies: 1, views: 3, capacity: 64 });
    expect(visibleIds(agent, CORE)).toEqual([]);
    expect(visibleIds(owner, CORE)).toEqual(['openclaw:core:read_file', 'openclaw:core:write_file', 'openclaw:core:delete_file', 'openclaw:core:shutdown_host']);
  });

  it('never gives a session the view of other rules, another caller or other layers', async () => {
    const shared = await host({ sources: { openclaw: CORE } });
    const open = (policy: object, context = {}) => shared.openSession({ config: { mode: 'tools' }, policy, context });
    const cases: Array<[object, object, string[]]> = [
      [{ deny: ['*_file'] }, {}, ['send_email']],
      [{ deny: ['*_File'] }, {}, ['send_email']],
      [{ deny: ['*_file', 'send_email'] }, {}, []],
      [{ deny: ['*_file'] }, { isOwner: true }, ['send_email', 'shutdown_host']],
      [{ deny: ['*_file'] }, { isOwner: false }, ['send_email']],
      [{ deny: ['*_file'], agents: { main: { allow: ['read_file'] } } }, { agentId: 'main' }, []],
      [{ allow: ['*_file'], agents: { main: { deny: ['read_file'] } } }, { agentId: 'main' }, ['write_file', 'delete_file']],
      [{ allow: ['*_file'], agents: { main: { deny: ['read_file'] } } }, { agentId: 'other' }, ['read_file', 'write_file', 'delete_file']],
      [{ allow: ['*_file'], agents: { Main: { deny: ['read_file'] } } }, { agentId: 'main' }, ['read_file', 'write_file', 'delete_file']],
      [{ allow: ['group:risky'], groups: { 'group:risky': ['delete_file'] } }, {}, ['delete_file']],
      [{ allow: ['group:risky'], groups: { 'group:risky': ['write_file'] } }, {}, ['write_file']],
    ];
    // Twice over, so the second round is answered from the cache.
    for (const round of [1, 2]) {
      for (const [policy, context, names] of cases) {
        const session = await open(policy, context);
        expect({ round, policy, context, visible: visibleIds(session, CORE) }).toEqual({ round, policy, context, visible: names.map((name) => `openclaw:core:${name}`) });
        await session.close();
      }
    }
    expect(shared.status().policyCache.policies).toBe(8);
  });

  it('keeps at most policyCacheSize views and compiled policies, least recently used out, and none with 0', async () => {
    const bounded = await host({ sources: { openclaw: CORE }, policyCacheSize: 2 });
    for (const name of ['read_file', 'write_file', 'delete_file', 'read_file']) {
      const session = await bounded.openSession({ config: { mode: 'tools' }, policy: { deny: [name] } });
      expect(session.tool(`openclaw:core:${name}`)).toBeUndefined();
      expect(session.telemetry().catalog.size).toBe(3);
      await session.close();
    }
    expect(bounded.status().policyCache).toEqual({ policies: 2, views: 2, capacity: 2 });
    const none = await host({ sources: { openclaw: CORE }, policyCacheSize: 0 });
    const session = await none.openSession({ config: { mode: 'tools' }, policy: { deny: ['read_file'] } });
    expect(visibleIds(session, CORE)).toEqual(['openclaw:core:write_file', 'openclaw:core:delete_file', 'openclaw:core:send_email']);
    expect(none.status().policyCache).toEqual({ policies: 0, views: 0, capacity: 0 });
  });

  it.each([-1, 1.5, Number.NaN, '8'])('rejects policyCacheSize %s, naming the option', async (size) => {
    await expect(createToolSearchHost({ sources: {}, policyCacheSize: size as number })).rejects.toMatchObject({ code: 'invalid_options', path: 'policyCacheSize' });
  });

  it('keeps a cached view current: tools a server adds later reach sessions of equal configs through their policy, removed ones leave', async () => {
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('fixture')] } });
    const denyLater = () => ({ deny: ['mcp:fixture:added_later', 'mcp:fixture:fail_loudly'] });
    const first = await shared.openSession({ config: { mode: 'tools' }, policy: {} });
    const denying = await shared.openSession({ config: { mode: 'tools' }, policy: denyLater() });
    expect(first.tool('mcp:fixture:remove_me')).toBeDefined();
    expect(denying.tool('mcp:fixture:fail_loudly')).toBeUndefined();
    await call(first, 'tool_call', { id: 'mcp:fixture:change_tools', args: {} });
    await until(() => first.tool('mcp:fixture:added_later') !== undefined, 'the server to add a tool');
    const again = await shared.openSession({ config: { mode: 'tools' }, policy: {} });
    const denyingAgain = await shared.openSession({ config: { mode: 'tools' }, policy: denyLater() });
    expect(shared.status().policyCache).toMatchObject({ policies: 2, views: 2 });
    expect(again.tool('mcp:fixture:added_later')).toBeDefined();
    expect(again.tool('mcp:fixture:remove_me')).toBeUndefined();
    expect(denyingAgain.tool('mcp:fixture:added_later')).toBeUndefined();
    expect(denyingAgain.tool('mcp:fixture:fail_loudly')).toBeUndefined();
    expect(denyingAgain.tool('mcp:fixture:remove_me')).toBeUndefined();
    expect(await hitIds(denyingAgain, 'reverse a word')).not.toContain('mcp:fixture:added_later');
    expect(denyingAgain.telemetry().catalog.size).toBe(again.telemetry().catalog.size - 2);
  });

  it('reads the context once: changing the caller\'s object after open changes nothing, for tools that join later too', async () => {
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('slow', { startDelayMs: 500 })] }, startupTimeoutMs: 50 });
    const context = { agentId: 'main' };
    const session = await shared.openSession({ config: { mode: 'tools' }, policy: { agents: { main: { deny: ['mcp:slow:echo_text'] } } }, context });
    context.agentId = 'other';
    await until(() => session.tool('mcp:slow:add_numbers') !== undefined, 'the slow server to join');
    expect(session.tool('mcp:slow:echo_text')).toBeUndefined();
    expect(await call(session, 'tool_call', { id: 'mcp:slow:echo_text', args: { text: 'x' } })).toMatchObject({ status: 'error', code: 'unknown_tool' });
  });
});

describe('createToolSearchHost: many calls on one session', () => {
  it('leaves no listener behind per call: 30 quick calls print no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const shared = await host({ sources: { openclaw: CORE } });
      const session = await shared.openSession({ config: { mode: 'tools' } });
      const signal = new AbortController().signal;
      for (let i = 0; i < 30; i += 1) expect(await session.execute({ name: 'tool_call', args: { id: 'read_file', args: {} }, toolCallId: `q${i}` }, { signal })).toMatchObject({ status: 'ok' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((name) => name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('createToolSearchHost: errors at openSession', () => {
  it('gives one error class for what the composed packages reject, with the original as the cause and its path', async () => {
    const shared = await host({ sources: { openclaw: CORE } });
    const badPolicy = await shared.openSession({ config: { mode: 'tools' }, policy: { deny: ['ok', 7 as unknown as string] } }).catch((error: unknown) => error);
    expect(badPolicy).toMatchObject({ name: 'GatewayAdapterError', code: 'invalid_config', path: 'deny[1]', cause: { name: 'PolicyError' } });
    const collision = await shared.openSession({ config: { mode: 'tools' }, client: [{ name: 'read_file' }] }).catch((error: unknown) => error);
    expect(collision).toMatchObject({ name: 'GatewayAdapterError', code: 'invalid_options', cause: { name: 'ModesError', code: 'client_tool_collision' } });
    const badConfig = await shared.openSession({ config: { mode: 'fast' } }).catch((error: unknown) => error);
    expect(badConfig).toMatchObject({ name: 'GatewayAdapterError', code: 'invalid_config', path: 'toolSearch.mode' });
    expect((badConfig as Error).cause).toBeUndefined();
  });
});

describe('createToolSearchHost: control-tool names', () => {
  it('never catalogues nor runs a source tool that takes a control-tool name, on every path', async () => {
    const executed: string[] = [];
    const controlNamed = (name: string) => tool(name, 'A tool that took a reserved name.', { execute: () => void executed.push(name) });
    const shared = await host({ sources: { openclaw: [controlNamed('tool_call'), controlNamed('tool_search'), ...CORE] } });
    const session = await shared.openSession({ config: { mode: 'tools' } });
    expect(await hitIds(session, 'a tool that took a reserved name')).toEqual([]);
    expect(await call(session, 'tool_describe', { id: 'openclaw:core:tool_call' })).toMatchObject({ status: 'error', code: 'unknown_tool' });
    expect(await call(session, 'tool_call', { id: 'openclaw:core:tool_call', args: {} })).toMatchObject({ status: 'error', code: 'unknown_tool' });
    const direct = await shared.openSession({ config: false });
    expect(direct.surface('anthropic').tools.map((declared) => ('name' in declared ? declared.name : ''))).not.toContain('tool_call');
    expect(await call(direct, 'tool_search', {})).toMatchObject({ status: 'error', code: 'wrong_mode' });
    expect(shared.status().catalog.size).toBe(CORE.length);
    expect(executed).toEqual([]);
  });
});

describe('createToolSearchHost: MCP servers', () => {
  it('restarts servers that die, 100 times in all, failing in-flight calls at once and leaving no zombie nor listener', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    onTestFinished(() => void process.off('warning', onWarning));
    // Four servers of 25 restarts each: the same 100 restarts, spread over both cores.
    const names = ['one', 'two', 'three', 'four'];
    const shared = await host({ sources: { mcp: names.map((name) => mcpFixtureConfig(name)) }, restartBackoff: { initialMs: 1, maxMs: 20 } });
    const session = await shared.openSession({ config: { mode: 'tools' }, callTimeoutMs: 20_000 });
    expect(shared.status().servers).toEqual(names.map((name) => ({ name, state: 'ready', tools: 8, restarts: 0, withheld: [] })));
    const status = (name: string) => shared.status().servers.find((server) => server.name === name);
    const cycle = async (name: string): Promise<number[]> => {
      const pids: number[] = [];
      for (let round = 0; round < 25; round += 1) {
        const pidOutcome = await call(session, 'tool_call', { id: `mcp:${name}:server_pid`, args: {} });
        expect(pidOutcome).toMatchObject({ status: 'ok' });
        const pid = Number((pidOutcome as ToolCallOutcome & { result: unknown }).result);
        pids.push(pid);
        const pending = round % 10 === 0 ? call(session, 'tool_call', { id: `mcp:${name}:never_answers`, args: {} }) : undefined;
        process.kill(pid, 'SIGKILL');
        if (pending) expect(await pending).toMatchObject({ status: 'error', code: 'unavailable', message: expect.stringContaining(`"${name}"`) });
        await until(() => status(name)?.restarts === round + 1 && status(name)?.state === 'ready', `restart ${round + 1} of ${name}`);
      }
      return pids;
    };
    const pids = (await Promise.all(names.map(cycle))).flat();
    expect(new Set(pids).size).toBe(100);
    expect((await hitIds(session, 'echo text')).filter((id) => id.endsWith(':echo_text')).sort()).toEqual(names.map((name) => `mcp:${name}:echo_text`).sort());
    // Every killed child was reaped: none of those pids is a zombie, or a fixture server still running.
    const procFile = (pid: number, file: string) => (existsSync(`/proc/${pid}/${file}`) ? readFileSync(`/proc/${pid}/${file}`, 'utf8') : '');
    expect(pids.filter((pid) => /State:\s+Z/.test(procFile(pid, 'status')))).toEqual([]);
    expect(pids.filter((pid) => procFile(pid, 'cmdline').includes('mcp-fixture-server'))).toEqual([]);
    expect(warnings.filter((name) => name === 'MaxListenersExceededWarning')).toEqual([]);
  }, scaledTimeout(180_000));

  it('answers unavailable naming the server while it is down, and runs the tool again once it is back', async () => {
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('fixture')] }, restartBackoff: { initialMs: 800, maxMs: 800 } });
    const session = await shared.openSession({ config: { mode: 'tools' } });
    const pid = Number((await call(session, 'tool_call', { id: 'mcp:fixture:server_pid', args: {} }) as { result: unknown }).result);
    process.kill(pid, 'SIGKILL');
    await until(() => shared.status().servers[0]?.state === 'unavailable', 'the server to be down');
    expect(await hitIds(session, 'echo text')).toEqual([]);
    const down = await call(session, 'tool_call', { id: 'mcp:fixture:echo_text', args: { text: 'x' } });
    expect(down).toMatchObject({ status: 'error', code: 'unavailable', message: expect.stringContaining('MCP server "fixture" is unavailable') });
    await until(() => shared.status().servers[0]?.state === 'ready', 'the server to be back');
    expect(await call(session, 'tool_call', { id: 'mcp:fixture:echo_text', args: { text: 'x' } })).toMatchObject({ status: 'ok', result: 'echo: x' });
  });

  it('lets the first session wait at most startupTimeoutMs for a server that never starts, and the next not at all', async () => {
    const hung = { name: 'hung', transport: 'stdio' as const, command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
    const shared = await host({ sources: { openclaw: CORE, mcp: [hung] }, startupTimeoutMs: 1_500, mcpRequestTimeoutMs: 60_000 });
    const first = Date.now();
    const session = await shared.openSession({ config: { mode: 'tools' } });
    const firstMs = Date.now() - first;
    expect(firstMs).toBeGreaterThanOrEqual(1_400);
    // Far below the server's own 60 s request timeout: the wait is the startup timeout, not the server's.
    expect(firstMs).toBeLessThan(15_000);
    expect(shared.status().servers[0]).toMatchObject({ name: 'hung', state: 'starting' });
    const second = Date.now();
    await shared.openSession({ config: { mode: 'tools' } });
    expect(Date.now() - second).toBeLessThan(1_000);
    expect(await call(session, 'tool_call', { id: 'mcp:hung:anything', args: {} })).toMatchObject({ status: 'error', code: 'unavailable', message: expect.stringContaining('"hung" is starting') });
  });

  it('adds a slow server to open sessions when it becomes ready, through their own policy', async () => {
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('slow', { startDelayMs: 1_000 })] }, startupTimeoutMs: 50 });
    const all = await shared.openSession({ config: { mode: 'tools' } });
    const limited = await shared.openSession({ config: { mode: 'tools' }, policy: { deny: ['mcp:slow:echo_text'] } });
    expect(await hitIds(all, 'echo text')).toEqual([]);
    await until(async () => (await hitIds(all, 'echo text')).includes('mcp:slow:echo_text'), 'the slow server to join');
    expect(await hitIds(limited, 'echo text')).not.toContain('mcp:slow:echo_text');
    expect(await call(limited, 'tool_call', { id: 'mcp:slow:echo_text', args: { text: 'x' } })).toMatchObject({ status: 'error', code: 'unknown_tool' });
    expect(await call(all, 'tool_call', { id: 'mcp:slow:echo_text', args: { text: 'x' } })).toMatchObject({ status: 'ok' });
  });

  it('opens a tools-mode session at once with waitForStartup false; its calls wait for the start-up and its log starts after it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'gw-host-early-'));
    folders.push(folder);
    const logPath = join(folder, 'session.jsonl');
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('slow', { startDelayMs: 1_000 })] }, startupTimeoutMs: 10_000 });
    const session = await shared.openSession({ config: { mode: 'tools' }, waitForStartup: false, sessionLog: { path: logPath } });
    expect(shared.status().servers[0]?.state).toBe('starting');
    const early = session.modelSurface();
    expect(early.instructions).toMatch(/^Tool catalog: more tools are available but not listed as functions \(some of their servers are still starting\)\./);
    expect(await hitIds(session, 'echo text')).toContain('mcp:slow:echo_text');
    expect(shared.status().servers[0]?.state).toBe('ready');
    await session.whenStarted();
    const later = session.modelSurface();
    expect(JSON.stringify(later.tools)).toBe(JSON.stringify(early.tools));
    expect(later.instructions).toMatch(/^Tool catalog: 8 more tools are available/);
    await session.close();
    const events = readFileSync(logPath, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { event: string; catalogSize?: number; mcpServers?: unknown[] });
    expect(events.find((entry) => entry.event === 'session.start')).toMatchObject({ catalogSize: 8, mcpServers: [] });
    expect(events.some((entry) => entry.event === 'mcp.unavailable' || entry.event === 'mcp.available')).toBe(false);
  });

  const waiting: Array<[string, { config: unknown; visible?: string[] }]> = [
    ['directory mode', { config: { mode: 'directory' } }],
    ['direct mode', { config: false }],
    ['a pinned tool', { config: { mode: 'tools' }, visible: ['mcp:slow:echo_text'] }],
  ];
  for (const [what, options] of waiting) {
    it(`still waits for the start-up with waitForStartup false for ${what} (the surface depends on it)`, async () => {
      const shared = await host({ sources: { mcp: [mcpFixtureConfig('slow', { startDelayMs: 800 })] }, startupTimeoutMs: 10_000 });
      const session = await shared.openSession({ ...options, waitForStartup: false });
      expect(shared.status().servers[0]?.state).toBe('ready');
      if (what === 'a pinned tool') expect(session.modelSurface().tools.map((tool) => tool.name)).toContain('echo_text');
    });
  }

  it('tells a session when the catalog changed, and session.tool reads only what its policy admits', async () => {
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('slow', { startDelayMs: 500 })], openclaw: CORE }, startupTimeoutMs: 50 });
    let changes = 0;
    const session = await shared.openSession({ config: { mode: 'tools' }, policy: { deny: ['mcp:slow:add_numbers', 'send_email'] }, onCatalogChange: () => (changes += 1) });
    expect(session.tool('mcp:slow:echo_text')).toBeUndefined();
    await until(() => changes > 0, 'the slow server to join');
    expect(changes).toBe(1);
    expect(session.tool('mcp:slow:echo_text')).toMatchObject({ id: 'mcp:slow:echo_text', name: 'echo_text', source: 'mcp', owner: 'slow', trusted: false });
    expect(session.tool('mcp:slow:add_numbers')).toBeUndefined();
    expect(session.tool('openclaw:core:send_email')).toBeUndefined();
    expect(session.tool('openclaw:core:read_file')).toMatchObject({ description: 'Read the contents of a file.' });
    expect(session.tool('openclaw:core:nothing')).toBeUndefined();
    expect(session.telemetry().counts).toMatchObject({ searches: 0, describes: 0, calls: 0 });
  });

  it('indexes a server\'s instructions as context of its tools', async () => {
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('wiki', { instructions: 'Tools of the quartermaster archive.' }), mcpFixtureConfig('plain')] } });
    const session = await shared.openSession({ config: { mode: 'tools' } });
    const hits = await hitIds(session, 'quartermaster');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((id) => id.startsWith('mcp:wiki:'))).toBe(true);
  });

  it("indexes a server's title as context of its tools, and the server map summarises a server by it", async () => {
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('wiki', { title: 'Quartermaster Ledger' }), mcpFixtureConfig('plain')] } });
    const session = await shared.openSession({ config: { mode: 'tools' } });
    const hits = await hitIds(session, 'quartermaster ledger');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((id) => id.startsWith('mcp:wiki:'))).toBe(true);
    const servers = JSON.parse((await call(session, 'tool_search', {})).content) as { servers: Array<{ owner: string; summary: string }> };
    expect(servers.servers.find((server) => server.owner === 'wiki')?.summary).toBe('Quartermaster Ledger');
    expect(servers.servers.find((server) => server.owner === 'plain')?.summary).toMatch(/^Tools such as /);
  });

  it('leaves no server running when it is closed, and refuses new sessions', async () => {
    const shared = await createToolSearchHost({ sources: { mcp: [mcpFixtureConfig('fixture')] }, startupTimeoutMs: STARTUP_TIMEOUT_MS });
    const session = await shared.openSession({ config: { mode: 'tools' } });
    const pid = Number((await call(session, 'tool_call', { id: 'mcp:fixture:server_pid', args: {} }) as { result: unknown }).result);
    await shared.close();
    await until(() => !existsSync(`/proc/${pid}`), 'the server process to exit');
    await expect(session.execute({ name: 'tool_search', args: {}, toolCallId: 'late' })).rejects.toMatchObject({ code: 'session_closed' });
    await expect(shared.openSession({ config: { mode: 'tools' } })).rejects.toMatchObject({ code: 'session_closed' });
  });

  it('stops a server still starting when it is closed, before close resolves', async () => {
    const shared = await createToolSearchHost({ sources: { mcp: [mcpFixtureConfig('slow', { startDelayMs: 30_000 })] } });
    const fixtureChildren = () =>
      execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes(MCP_FIXTURE_SERVER_PATH))
        .map((line) => Number(line.trim().split(/\s+/)[0]));
    await until(() => fixtureChildren().length === 1, 'the server process to be spawned');
    const [pid] = fixtureChildren();
    expect(shared.status().servers[0]?.state).toBe('starting');
    await shared.close();
    expect(existsSync(`/proc/${pid}`)).toBe(false);
  });
});

describe('createToolSearchHost: many sessions at once', () => {
  it('runs 20 concurrent sessions, each open, 3 searches, 1 describe, 1 call, close, with exact isolation', async () => {
    const shared = await host({ sources: { openclaw: CORE } });
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const denied = CORE[index % 4]!.name;
        const session = await shared.openSession({ config: { mode: 'tools' }, policy: { deny: [denied] }, client: [{ name: `client_tool_${index}` }], sessionId: `s${index}` });
        const searches = [await hitIds(session, 'file'), await hitIds(session, 'email'), await hitIds(session, denied.replace('_', ' '))];
        const described = await call(session, 'tool_describe', { id: `openclaw:core:${denied}` });
        const called = await call(session, 'tool_call', { id: CORE[(index + 1) % 4]!.name, args: { text: `from ${index}` } });
        const telemetry = session.telemetry();
        await session.close();
        return { index, denied, searches, described, called, telemetry };
      }),
    );
    for (const { index, denied, searches, described, called, telemetry } of results) {
      expect(searches.flat()).not.toContain(`openclaw:core:${denied}`);
      expect(described).toMatchObject({ status: 'error', code: 'unknown_tool' });
      expect(called).toMatchObject({ status: 'ok', result: `${CORE[(index + 1) % 4]!.name}:{"text":"from ${index}"}` });
      expect(telemetry.sessionId).toBe(`s${index}`);
      expect(telemetry.counts).toMatchObject({ searches: 3, describes: 1, calls: 1, errors: 1 });
      expect(telemetry.calls).toEqual([expect.objectContaining({ toolId: `openclaw:core:${CORE[(index + 1) % 4]!.name}`, status: 'ok' })]);
      expect(telemetry.catalog).toMatchObject({ size: 3, clientTools: 1 });
    }
    expect(shared.status().sessions).toBe(0);
  });
});

describe('createToolSearchHost: likely tools up front', () => {
  it('declares the tools the ranking is confident about for the request, in directory mode only, never a denied one', async () => {
    const tools = [
      tool('create_calendar_event', 'Create an event in the calendar with a title and a date.'),
      tool('delete_file', 'Delete a file from the workspace.'),
      tool('send_email', 'Send an email message.'),
    ];
    const shared = await host({ sources: { openclaw: tools } });
    const request = 'Create a calendar event called standup for tomorrow';
    const names = (session: ToolSearchSession) => session.surface('openai-responses').tools.map((declared) => ('name' in declared ? declared.name : ''));
    const directory = await shared.openSession({ config: { mode: 'directory' }, request });
    expect(names(directory)).toEqual(['tool_search', 'tool_describe', 'tool_call', 'create_calendar_event']);
    expect(await call(directory, 'create_calendar_event', { text: 'standup' })).toMatchObject({ status: 'ok', tool: { id: 'openclaw:core:create_calendar_event' } });
    // Byte-stable for the same request.
    const again = await shared.openSession({ config: { mode: 'directory' }, request });
    expect(JSON.stringify(again.surface('openai-responses'))).toBe(JSON.stringify(directory.surface('openai-responses')));
    const denied = await shared.openSession({ config: { mode: 'directory' }, request, policy: { deny: ['create_calendar_event'] } });
    expect(names(denied)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    const tools_ = await shared.openSession({ config: { mode: 'tools' }, request });
    expect(names(tools_)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    // A vague request is not confident enough for anything.
    const vague = await shared.openSession({ config: { mode: 'directory' }, request: 'help me with my stuff' });
    expect(names(vague)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
  });
});
