import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createToolSearchSession, type CreateToolSearchSessionOptions } from './create-tool-search-session.js';
import type { ToolSearchSession } from './tool-search-session.js';
import { isGatewayAdapterError } from './errors.js';
import type { ExecutableTool } from './executable-tool.js';
import { createFakeRunner } from '@tool-search/sandbox-runner/testing';
import { WEAK_GUESSES } from '@tool-search/modes';

const folder = mkdtempSync(join(tmpdir(), 'gw-session-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const pluginPath = join(folder, 'calendar.mjs');
writeFileSync(
  pluginPath,
  `export const name = 'calendar';
export const tools = [
  {
    name: 'create_event',
    description: 'Create a calendar event with a title and a date.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' }, date: { type: 'string' } }, required: ['title', 'date'], additionalProperties: false },
    execute: (args) => 'created ' + args.title + ' on ' + args.date,
  },
  {
    name: 'delete_event',
    description: 'Delete a calendar event by id.',
    inputSchema: { type: 'object', properties: { eventId: { type: 'string' } }, required: ['eventId'] },
    execute: () => 'deleted',
  },
];
`,
);

/** Records every execute call of the OpenClaw tools. */
const executed: { name: string; args: Record<string, unknown> }[] = [];
const openclawTools: ExecutableTool[] = [
  {
    name: 'read_file',
    description: 'Read a text file from the workspace.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    execute: (args) => {
      executed.push({ name: 'read_file', args });
      return { text: `contents of ${String(args['path'])}` };
    },
  },
  {
    name: 'exec_shell',
    description: 'Run a shell command on the host.',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    execute: (args) => {
      executed.push({ name: 'exec_shell', args });
      return 'ran';
    },
  },
  {
    name: 'explode',
    description: 'A tool that always throws an exception.',
    execute: () => {
      throw new Error('kaboom');
    },
  },
  {
    name: 'hang_forever',
    description: 'A tool that never finishes.',
    execute: () => new Promise(() => undefined),
  },
  {
    name: 'admin_reset',
    description: 'Reset the whole agent state (owner only).',
    ownerOnly: true,
    execute: () => 'reset',
  },
];

const sessions: ToolSearchSession[] = [];
afterEach(async () => {
  executed.length = 0;
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

async function session(overrides: Partial<CreateToolSearchSessionOptions> = {}) {
  const created = await createToolSearchSession({
    config: { mode: 'tools' },
    policy: { deny: ['exec_shell'] },
    context: { isOwner: false },
    sources: {
      openclaw: openclawTools,
      plugins: [pluginPath],
      client: [{ name: 'show_toast', description: 'Show a toast in the UI.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
    },
    callTimeoutMs: 500,
    probe: async () => ({ ok: true, engine: 'node', nodePath: process.execPath, version: '26.12.1', isolation: 'node-only' }),
    ...overrides,
  });
  sessions.push(created);
  return created;
}

let callIds = 0;
const call = (s: ToolSearchSession, name: string, args: unknown) => s.execute({ name, args, toolCallId: `call_${++callIds}` });

describe('createToolSearchSession: catalog and surface', () => {
  it('builds the catalog from allowed tools only, client tools kept out of it', async () => {
    const s = await session();
    expect(s.telemetry().catalog).toEqual({
      size: 5,
      sources: { openclaw: 3, plugin: 2, mcp: 0, client: 0 },
      clientTools: 1,
      visibleTools: 0,
      unavailableServers: [],
    });
  });

  it('renders tools mode as the three control tools plus the client tool', async () => {
    const s = await session();
    const surface = s.surface('openai-chat');
    expect(surface.mode).toBe('tools');
    expect((surface.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual([
      'tool_search',
      'tool_describe',
      'tool_call',
      'show_toast',
    ]);
    expect(surface.instructions).toContain('5 more tools are available');
    expect(s.telemetry().surface).toMatchObject({ format: 'openai-chat', toolsDeclared: 4, schemasUpFront: 1 });
  });

  it('renders every allowed schema in direct mode', async () => {
    const s = await session({ config: false });
    const names = (s.surface('anthropic').tools as { name: string }[]).map((tool) => tool.name).sort();
    expect(names).toEqual(['create_event', 'delete_event', 'explode', 'hang_forever', 'read_file', 'show_toast']);
    expect(s.telemetry()).toMatchObject({ mode: 'direct', directReason: 'disabled', surface: { schemasUpFront: 6 } });
  });

  it('keeps pinned tools directly visible, but never a tool the policy denies', async () => {
    const s = await session({ visible: ['read_file', 'openclaw:core:exec_shell'] });
    const names = (s.surface('openai-responses').tools as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(['tool_search', 'tool_describe', 'tool_call', 'show_toast', 'read_file']);
    expect(s.telemetry().catalog.visibleTools).toBe(1);
  });

  it('rejects a client tool whose name collides with a catalog tool', async () => {
    const error = await session({ sources: { openclaw: openclawTools, client: [{ name: 'read_file' }] } }).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain('client:client:read_file');
    expect((error as Error).message).toContain('openclaw:core:read_file');
  });

  it('rejects an invalid MCP server config with its path', async () => {
    const error = await session({ sources: { mcp: [{ name: 'x', transport: 'stdio' } as never] } }).catch((caught: unknown) => caught);
    expect(isGatewayAdapterError(error) && error.path).toBe('sources.mcp[0].command');
  });
});

describe('createToolSearchSession: tools mode routing', () => {
  it('searches the catalog and returns hits', async () => {
    const s = await session();
    const outcome = await call(s, 'tool_search', { query: 'create calendar event' });
    expect(outcome).toMatchObject({ status: 'ok', kind: 'search' });
    const hits = JSON.parse(outcome.content) as { id: string }[];
    expect(hits[0]?.id).toBe('plugin:calendar:create_event');
    expect(s.telemetry().counts.searches).toBe(1);
  });

  it('runs several queries at once', async () => {
    const s = await session();
    const outcome = await call(s, 'tool_search', { queries: ['read a file', 'delete event'], limit: 2 });
    const results = JSON.parse(outcome.content) as { query: string; hits: { id: string }[] }[];
    expect(results.map((r) => [r.query, r.hits[0]?.id])).toEqual([
      ['read a file', 'openclaw:core:read_file'],
      ['delete event', 'plugin:calendar:delete_event'],
    ]);
    expect(s.telemetry().counts.searches).toBe(2);
  });

  it('answers a search whose hits are guesses with the note and the server map, never a bare nothing', async () => {
    const s = await session();
    const outcome = await call(s, 'tool_search', { query: 'remember that alice likes green tea' });
    const answer = JSON.parse(outcome.content) as { evidence: string; note: string; hits: unknown[]; servers: { servers: { owner: string; tools: string[] }[] } };
    expect(answer.evidence).toBe('weak');
    expect(answer.note).toContain('tool_search({ server })');
    expect(Array.isArray(answer.hits)).toBe(true);
    expect(answer.servers.servers.find((server) => server.owner === 'calendar')?.tools).toContain('create_event');
  });

  it('names a weak answer\'s first guesses with a one-line description and the input signature, the same ones a search ranks first', async () => {
    const s = await session();
    const query = 'file an event about tea';
    const ranked = s.search(query);
    const answer = JSON.parse((await call(s, 'tool_search', { query })).content) as { evidence: string; hits: unknown[] };
    expect(answer.evidence).toBe('weak');
    expect(ranked.length).toBeGreaterThan(0);
    // A guess's input is its parameter names (these signatures have no nested types): `{ title: string }` → `{ title }`.
    expect(answer.hits).toEqual(ranked.slice(0, WEAK_GUESSES).map((hit) => ({ id: hit.id, description: hit.description, input: hit.input.replace(/: [^;}]+?(?=;| })/g, '') })));
    expect(answer.hits).toContainEqual({ id: 'plugin:calendar:create_event', description: 'Create a calendar event with a title and a date.', input: '{ title; date }' });
  });

  it('searches within one server, and lists its tools when none of them match', async () => {
    const s = await session();
    const within = JSON.parse((await call(s, 'tool_search', { server: 'calendar', query: 'remove an event', limit: 1 })).content) as { server: string; matched: number; toolCount: number; hits: Array<{ id: string; owner: string }> };
    // Both calendar tools match "event"; the answer says so though the limit shows one.
    expect(within).toMatchObject({ server: 'plugin:calendar', matched: 2, toolCount: 2 });
    expect(within.hits.map((hit) => hit.id)).toEqual(['plugin:calendar:delete_event']);
    const none = JSON.parse((await call(s, 'tool_search', { server: 'plugin:calendar', query: 'zzzz qqqq', limit: 1 })).content) as { note: string; owner: string; tools: Array<{ id: string }>; nextOffset?: number };
    expect(none).toMatchObject({ owner: 'calendar', tools: [{ id: 'plugin:calendar:create_event' }], nextOffset: 1 });
    expect(none.note).toContain('No tool of plugin:calendar matches');
    const unknown = await call(s, 'tool_search', { server: 'calender', query: 'remove an event' });
    expect(unknown).toMatchObject({ status: 'error', code: 'invalid_request', suggestions: ['plugin:calendar'] });
  });

  it('lists the servers, and one server\'s tools a page at a time', async () => {
    const s = await session();
    const servers = JSON.parse((await call(s, 'tool_search', {})).content) as { servers: { owner: string }[] };
    expect(servers.servers.map((server) => server.owner)).toContain('calendar');
    const page = JSON.parse((await call(s, 'tool_search', { server: 'calendar', limit: 1 })).content) as { owner: string; tools: { id: string }[]; nextOffset?: number };
    expect(page).toMatchObject({ owner: 'calendar', tools: [{ id: 'plugin:calendar:create_event' }], nextOffset: 1 });
  });

  it('describes a tool with its full schema', async () => {
    const s = await session();
    const outcome = await call(s, 'tool_describe', { id: 'plugin:calendar:create_event' });
    expect(outcome.status).toBe('ok');
    expect(JSON.parse(outcome.content)).toMatchObject({ id: 'plugin:calendar:create_event', inputSchema: { required: ['title', 'date'] } });
  });

  it('describes a tool without a search score (it was asked for by id, not ranked)', async () => {
    const s = await session();
    const outcome = await call(s, 'tool_describe', { id: 'plugin:calendar:create_event' });
    expect(outcome.content).not.toContain('"score"');
  });

  it('answers a describe miss with suggestions', async () => {
    const s = await session();
    const outcome = await call(s, 'tool_describe', { id: 'plugin:calendar:create_evnt' });
    expect(outcome).toMatchObject({ status: 'error', code: 'unknown_tool' });
    // The nearest id first (the catalog decides how many more it suggests).
    expect(outcome.status === 'error' && outcome.suggestions?.[0]).toBe('plugin:calendar:create_event');
    // Said once: the message names the suggestions, and the answer does not repeat them.
    expect(outcome.content.split('plugin:calendar:create_event').length - 1).toBe(1);
    expect(outcome.content).toContain('did you mean plugin:calendar:create_event');
  });

  it('runs a tool through tool_call and reports the tool and source', async () => {
    const s = await session();
    const outcome = await call(s, 'tool_call', { id: 'plugin:calendar:create_event', args: { title: 'Standup', date: '2026-01-05' } });
    expect(outcome).toMatchObject({
      status: 'ok',
      tool: { id: 'plugin:calendar:create_event', source: 'plugin', owner: 'calendar', name: 'create_event' },
      result: 'created Standup on 2026-01-05',
      content: 'created Standup on 2026-01-05',
      untrusted: false,
    });
    expect(s.telemetry().calls).toEqual([
      expect.objectContaining({ toolId: 'plugin:calendar:create_event', source: 'plugin', via: 'tool_call', status: 'ok' }),
    ]);
  });

  it('accepts a unique tool name as the tool_call id', async () => {
    const s = await session();
    const outcome = await call(s, 'tool_call', { id: 'read_file', args: { path: 'a.txt' } });
    expect(outcome).toMatchObject({ status: 'ok', tool: { id: 'openclaw:core:read_file' } });
  });

  it('repairs flattened tool_call arguments', async () => {
    const s = await session();
    const outcome = await call(s, 'tool_call', { id: 'plugin:calendar:create_event', title: 'Lunch', date: 'today' });
    expect(outcome).toMatchObject({ status: 'ok', result: 'created Lunch on today' });
  });

  it('takes arguments given as JSON text', async () => {
    const s = await session();
    const outcome = await call(s, 'tool_call', JSON.stringify({ id: 'read_file', args: { path: 'b.txt' } }));
    expect(outcome).toMatchObject({ status: 'ok', result: { text: 'contents of b.txt' } });
  });

  it('rejects invalid args for a trusted tool with suggestions and the signature, without running it', async () => {
    const s = await session();
    const outcome = await call(s, 'tool_call', { id: 'plugin:calendar:create_event', args: { titel: 'x', date: 'd' } });
    expect(outcome).toMatchObject({ status: 'error', code: 'invalid_args', suggestions: ['title'] });
    expect(outcome.content).toContain('missing required parameter "title"');
    expect(outcome.content).toContain('"titel": did you mean "title"?');
    expect(outcome.content).toContain('Expected: { title: string; date: string }');
  });

  it('reports a tool that throws as tool_failed', async () => {
    const s = await session();
    expect(await call(s, 'tool_call', { id: 'explode', args: {} })).toMatchObject({
      status: 'error',
      code: 'tool_failed',
      message: 'Tool openclaw:core:explode failed: kaboom',
    });
  });

  it('times out a tool that never finishes', async () => {
    const s = await session({ callTimeoutMs: 100 });
    expect(await call(s, 'tool_call', { id: 'hang_forever', args: {} })).toMatchObject({
      status: 'error',
      code: 'timeout',
      message: 'Tool openclaw:core:hang_forever did not finish within 100 ms',
    });
  });

  it('does not run a hidden tool called by its bare name in tools mode', async () => {
    const s = await session();
    const outcome = await call(s, 'read_file', { path: 'x' });
    expect(outcome).toMatchObject({ status: 'error', code: 'unknown_tool' });
    expect(executed).toEqual([]);
  });

  it('refuses control tools of another mode', async () => {
    const s = await session();
    expect(await call(s, 'tool_search_code', { code: 'return 1' })).toMatchObject({ status: 'error', code: 'wrong_mode' });
  });

  it('answers malformed control arguments with invalid_request', async () => {
    const s = await session();
    expect(await call(s, 'tool_search', { queries: ['read'], server: 'core' })).toMatchObject({ status: 'error', code: 'invalid_request' });
    expect(await call(s, 'tool_search', { server: 'nobody' })).toMatchObject({ status: 'error', code: 'invalid_request' });
    expect(await call(s, 'tool_call', { args: {} })).toMatchObject({ status: 'error', code: 'invalid_request' });
    expect(await call(s, 'tool_call', '{not json')).toMatchObject({ status: 'error', code: 'invalid_request' });
  });

  it('returns client tool calls for the host to forward, after authorisation', async () => {
    const s = await session();
    const outcome = await call(s, 'show_toast', { text: 'hi' });
    expect(outcome).toMatchObject({ status: 'client', name: 'show_toast', args: { text: 'hi' }, tool: { id: 'client:client:show_toast', source: 'client' } });
  });
});

describe('createToolSearchSession: fail closed', () => {
  it('never finds, describes or calls a denied tool on any path', async () => {
    const s = await session();
    const searched = await call(s, 'tool_search', { query: 'run a shell command on the host' });
    const answer = JSON.parse(searched.content) as { id: string }[] | { hits: { id: string }[] };
    expect((Array.isArray(answer) ? answer : answer.hits).map((hit) => hit.id)).not.toContain('openclaw:core:exec_shell');
    // Nor in a weak answer's server map, the server list or a browse of its owner.
    expect(searched.content).not.toContain('exec_shell');
    expect((await call(s, 'tool_search', {})).content).not.toContain('exec_shell');
    expect((await call(s, 'tool_search', { server: 'core', limit: 100 })).content).not.toContain('exec_shell');
    expect(await call(s, 'tool_describe', { id: 'openclaw:core:exec_shell' })).toMatchObject({ status: 'error' });
    expect(await call(s, 'tool_call', { id: 'openclaw:core:exec_shell', args: { command: 'id' } })).toMatchObject({ status: 'error', code: 'unknown_tool' });
    expect(await call(s, 'exec_shell', { command: 'id' })).toMatchObject({ status: 'error', code: 'unknown_tool' });
    const direct = await session({ config: false });
    expect(await call(direct, 'exec_shell', { command: 'id' })).toMatchObject({ status: 'error', code: 'unknown_tool' });
    const directory = await session({ config: { mode: 'directory' } });
    expect(await call(directory, 'exec_shell', { command: 'id' })).toMatchObject({ status: 'error', code: 'unknown_tool' });
    const code = await session({ config: true, runner: createFakeRunner() });
    const run = await call(code, 'tool_search_code', { code: 'return await tools.call("openclaw:core:exec_shell", { command: "id" })' });
    expect(run).toMatchObject({ status: 'ok', result: { value: { status: 'error', code: 'unknown_tool' } } });
    expect(executed).toEqual([]);
  });

  it('keeps owner-only tools out for a non-owner and in for the owner', async () => {
    const stranger = await session();
    expect(await call(stranger, 'tool_call', { id: 'admin_reset', args: {} })).toMatchObject({ status: 'error', code: 'unknown_tool' });
    const owner = await session({ context: { isOwner: true } });
    expect(await call(owner, 'tool_call', { id: 'admin_reset', args: {} })).toMatchObject({ status: 'ok', result: 'reset' });
  });

  it('reports a call blocked by a hook, without running the tool', async () => {
    const s = await session({ hooks: [{ id: 'no-secrets', run: () => ({ block: true, reason: 'secrets are off limits' }) }] });
    const outcome = await call(s, 'tool_call', { id: 'read_file', args: { path: '.env' } });
    expect(outcome).toMatchObject({ status: 'blocked', by: 'hook', hookId: 'no-secrets', reason: 'secrets are off limits' });
    expect(outcome.content).toContain('Blocked (hook)');
    expect(executed).toEqual([]);
    expect(s.telemetry().counts.blocked).toBe(1);
  });

  it('runs the tool with the arguments a hook rewrote', async () => {
    const s = await session({ hooks: [{ id: 'sandbox-path', run: ({ args }) => ({ args: { ...args, path: `/sandbox/${String(args['path'])}` } }) }] });
    await call(s, 'tool_call', { id: 'read_file', args: { path: 'a.txt' } });
    expect(executed).toEqual([{ name: 'read_file', args: { path: '/sandbox/a.txt' } }]);
  });

  it('reports a call an approval provider denied', async () => {
    const s = await session({
      policy: { deny: ['exec_shell'], requireApproval: ['read_file'] },
      approvals: { requestApproval: () => ({ decision: 'deny', reason: 'not now' }) },
    });
    const outcome = await call(s, 'tool_call', { id: 'read_file', args: { path: 'a' } });
    expect(outcome).toMatchObject({ status: 'blocked', by: 'approval' });
    expect(executed).toEqual([]);
  });

  it('gates calls made from code exactly like direct calls', async () => {
    const s = await session({ config: true, runner: createFakeRunner(), hooks: [{ id: 'deny-all', run: () => ({ block: true, reason: 'no' }) }] });
    const outcome = await call(s, 'tool_search_code', { code: 'return await tools.call("read_file", { path: "a" })' });
    expect(outcome).toMatchObject({ status: 'ok', result: { value: { status: 'blocked', by: 'hook', reason: 'no' } } });
    expect(executed).toEqual([]);
  });
});

describe('createToolSearchSession: session.search', () => {
  it('ranks the allowed catalog, never a denied tool, within the session limits', async () => {
    const s = await session({ config: { native: true, searchDefaultLimit: 2, maxSearchLimit: 3 } });
    expect(s.searchLimits).toEqual({ searchDefaultLimit: 2, maxSearchLimit: 3 });
    expect(s.search('create calendar event')[0]?.id).toBe('plugin:calendar:create_event');
    expect(s.search('run a shell command on the host').map((hit) => hit.id)).not.toContain('openclaw:core:exec_shell');
    expect(s.search('event file tool a the', {})).toHaveLength(2);
    expect(s.search('event file tool a the', { limit: 50 })).toHaveLength(3);
    expect(s.search('')).toEqual([]);
  });

  it('counts and logs each search with via session, and throws on a bad limit or after close', async () => {
    const logPath = join(folder, 'native-search.jsonl');
    const s = await session({ config: { native: true }, sessionLog: { path: logPath } });
    s.search('read a file', { toolCallId: 'ts_1' });
    s.search('calendar');
    expect(s.telemetry().counts.searches).toBe(2);
    expect(() => s.search('x', { limit: 0 })).toThrow(/Invalid search limit 0/);
    await s.close();
    expect(() => s.search('x')).toThrow(expect.objectContaining({ code: 'session_closed' }));
    const searches = readFileSync(logPath, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['event'] === 'search');
    expect(searches).toEqual([
      expect.objectContaining({ toolCallId: 'ts_1', via: 'session', query: 'read a file', hitIds: ['openclaw:core:read_file'] }),
      expect.objectContaining({ via: 'session', query: 'calendar' }),
    ]);
    expect(searches[1]).not.toHaveProperty('toolCallId');
  });
});

describe('createToolSearchSession: code mode', () => {
  it('gives code a weak search\'s server map on its hits, and the run\'s answer the map when every search was weak', async () => {
    const s = await session({ config: { mode: 'code' }, runner: createFakeRunner() });
    const outcome = await call(s, 'tool_search_code', { code: 'const hits = await tools.search("remember that alice likes green tea"); return [hits.evidence, hits.servers.servers.map((server) => server.owner).includes("calendar")];' });
    expect(outcome).toMatchObject({ status: 'ok', result: { value: ['weak', true], evidence: 'weak', servers: { servers: expect.arrayContaining([expect.objectContaining({ owner: 'calendar' })]) } } });
    const strong = await call(s, 'tool_search_code', { code: 'const hits = await tools.search("create calendar event"); return [hits.evidence ?? null, hits[0].id];' });
    expect(strong).toMatchObject({ status: 'ok', result: { value: [null, 'plugin:calendar:create_event'], calls: [], logs: [] } });
  });

  it('runs the body through the runner with the configured timeout and summarises inner calls', async () => {
    const runner = createFakeRunner();
    const s = await session({ config: { mode: 'code', codeTimeoutMs: 4_000 }, runner });
    expect((s.surface('openai-responses').tools as { name: string }[]).map((tool) => tool.name)).toEqual(['tool_search_code', 'show_toast']);
    const outcome = await call(s, 'tool_search_code', {
      code: 'const hits = await tools.search("create calendar event"); console.log(hits.length); const r = await tools.call(hits[0].id, { title: "A", date: "B" }); return r.result;',
    });
    expect(runner.runs).toEqual([expect.objectContaining({ timeoutMs: 4_000 })]);
    expect(outcome).toMatchObject({
      status: 'ok',
      kind: 'code',
      result: { value: 'created A on B', calls: [{ id: 'plugin:calendar:create_event', status: 'ok' }] },
      untrusted: false,
    });
    expect(JSON.parse(outcome.content)).toMatchObject({ value: 'created A on B', logs: [{ level: 'log' }] });
    expect(s.telemetry()).toMatchObject({ counts: { searches: 1, calls: 1, codeRuns: 1 }, calls: [{ via: 'code', source: 'plugin' }] });
  });

  it('reports a failed run as an error with its logs', async () => {
    const s = await session({ config: true, runner: createFakeRunner() });
    const outcome = await call(s, 'tool_search_code', { code: 'console.log("before"); throw new Error("bad body")' });
    expect(outcome).toMatchObject({ status: 'error', code: 'code_failed', message: 'tool_search_code failed (runtime): bad body' });
    expect(outcome.content).toContain('before');
  });

  it('falls back to tools mode with the reason when the runtime probe fails', async () => {
    const s = await session({ config: true, probe: async () => ({ ok: false, reason: 'no sandbox runtime' }) });
    expect(s.decision).toEqual({ mode: 'tools', requestedMode: 'code', fallbackReason: 'no sandbox runtime' });
    expect(s.telemetry()).toMatchObject({ mode: 'tools', requestedMode: 'code', fallbackReason: 'no sandbox runtime' });
    expect(await call(s, 'tool_call', { id: 'read_file', args: { path: 'x' } })).toMatchObject({ status: 'ok' });
  });
});

describe('createToolSearchSession: directory mode', () => {
  it('hydrates an exact hidden name and logs it', async () => {
    const logPath = join(folder, 'directory.jsonl');
    const s = await session({ config: { mode: 'directory' }, sessionLog: { path: logPath } });
    expect(s.surface('openai-chat').instructions).toContain('- create_event (calendar): Create a calendar event');
    const outcome = await call(s, 'create_event', { title: 'T', date: 'D' });
    expect(outcome).toMatchObject({ status: 'ok', result: 'created T on D' });
    expect(s.telemetry()).toMatchObject({ counts: { hydrations: 1 }, calls: [{ via: 'hydrated' }] });
    const events = readFileSync(logPath, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { event: string });
    expect(events.map((line) => line.event)).toContain('hydration');
  });
});

describe('createToolSearchSession: session log and close', () => {
  it('writes events that answer schemas up front, searches, describes and the final tool and source', async () => {
    const logPath = join(folder, 'answers.jsonl');
    const s = await session({ sessionLog: { path: logPath } });
    s.surface('openai-responses');
    await call(s, 'tool_search', { query: 'create calendar event' });
    await call(s, 'tool_describe', { id: 'plugin:calendar:create_event' });
    await call(s, 'tool_call', { id: 'plugin:calendar:create_event', args: { title: 'x', date: 'y' } });
    await s.close();
    const lines = readFileSync(logPath, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line['event'])).toEqual(['session.start', 'surface', 'search', 'describe', 'call', 'session.summary']);
    expect(lines.find((line) => line['event'] === 'surface')).toMatchObject({ schemasUpFront: 1, toolsDeclared: 4, mode: 'tools' });
    expect(lines.find((line) => line['event'] === 'call')).toMatchObject({
      toolId: 'plugin:calendar:create_event',
      source: 'plugin',
      via: 'tool_call',
      decision: 'allowed',
      status: 'ok',
    });
    expect(lines.at(-1)).toMatchObject({ counts: { searches: 1, describes: 1, calls: 1 }, finalCalls: [{ toolId: 'plugin:calendar:create_event', source: 'plugin' }] });
    expect(JSON.stringify(lines)).not.toContain('"title":"x"');
  });

  it('closes an owned-by-caller runner never, and refuses calls after close', async () => {
    const runner = createFakeRunner();
    const s = await session({ config: true, runner });
    await s.close();
    expect(runner.closed).toBe(false);
    const error = await call(s, 'tool_search', { query: 'x' }).catch((caught: unknown) => caught);
    expect(isGatewayAdapterError(error) && error.code).toBe('session_closed');
  });
});
