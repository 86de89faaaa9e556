// The failure behaviours, through the real gateway, provider and MCP server: for both OpenAI wire formats, and
// the leak check of native mode for both formats that defer tools (OpenAI Responses, Anthropic Messages).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparisonScript, comparisonTask, idPattern } from './comparison-script.js';
import { fakeSchemaTokens, writeFakePlugin, type WrittenFakePlugin } from './write-fake-plugin.js';
import { startMockProvider, type MockProvider } from './start-mock-provider.js';
import type { ScriptRule } from './resolve-script-reply.js';
import { CLIENT_TOOLS } from './run-comparison.js';
import { runScenario, type ScenarioResult } from './run-scenario.js';

const FORMATS = [
  { api: 'responses' as const, stream: true },
  { api: 'chat' as const, stream: false },
];

function expectRun(result: ScenarioResult): Extract<ScenarioResult, { ok: true }> {
  if (!result.ok) throw new Error(`run failed: ${String(result.error)}`);
  return result;
}

/** The tool results the model got back, in order (from the last provider request). */
function toolOutputs(result: Extract<ScenarioResult, { ok: true }>): string {
  return result.requests.at(-1)!.body;
}

/** One temp folder, one fake plugin and one mock provider per describe block, torn down after it. */
function useFailureFixture(prefix: string) {
  let scenario = 0;
  const fixture = {
    dir: '',
    plugin: undefined as unknown as WrittenFakePlugin,
    provider: undefined as unknown as MockProvider,
    nextDir: () => join(fixture.dir, `scenario-${(scenario += 1)}`),
    task: () => comparisonTask(fixture.plugin.tools[421]!),
  };
  beforeAll(async () => {
    fixture.dir = await mkdtemp(join(tmpdir(), prefix));
    fixture.plugin = await writeFakePlugin({ dir: join(fixture.dir, 'plugins') });
    fixture.provider = await startMockProvider({ script: [] });
  });
  afterAll(async () => {
    await fixture.provider.close();
    await rm(fixture.dir, { recursive: true, force: true });
  });
  return fixture;
}

describe.each(FORMATS)('gateway failure behaviour over $api (stream: $stream)', ({ api, stream }) => {
  const fixture = useFailureFixture(`e2e-failures-${api}-`);
  const { nextDir, task } = fixture;
  // Only the MCP scenario needs the MCP server; the others skip its start-up and shutdown.
  const base = () => ({ provider: fixture.provider, api, stream, pluginPath: fixture.plugin.path, mcp: false as const });

  it('[F1] a tool denied by policy is never returned by search nor callable', async () => {
    const { target, query, marker } = task();
    const guessedId = `plugin:fakeplugin:${target.name}`;
    fixture.provider.setScript([
      { id: 'search', when: { toolResults: 0, declaresTool: /^tool_search$/ }, reply: { toolCalls: [{ name: 'tool_search', arguments: { query } }] } },
      {
        id: 'call-anyway',
        when: { lastToolName: /^tool_search$/ },
        reply: { toolCalls: [{ name: 'tool_call', arguments: { id: guessedId, args: { marker } } }] },
      },
      { id: 'report', when: { minToolResults: 1 }, reply: { text: 'REPORT {{lastOutput}}' } },
    ]);
    const result = expectRun(
      await runScenario({ ...base(), dir: nextDir(), mode: 'tools', prompt: task().prompt, policy: { deny: [guessedId] } }),
    );
    const searchLine = result.log.lines.find((line) => line.event === 'search')!;
    expect(searchLine.hitIds).not.toContain(guessedId);
    expect((searchLine.hitIds as string[]).length).toBeGreaterThan(0);
    expect(result.log.finalCall).toMatchObject({ toolId: guessedId, status: 'error' });
    // To the model, a denied tool does not exist: an unknown tool, with suggestions that never name it.
    expect(result.text).toMatch(new RegExp(`^REPORT Error \\(unknown_tool\\): .*"${guessedId}"`));
    expect(result.text.split('Did you mean:')[1] ?? '').not.toContain(guessedId);
    expect(result.text).not.toContain('FAKE_PLUGIN_OK');
    expect(result.record.telemetry.calls.every((call) => call.status !== 'ok')).toBe(true);
  });

  it('[F1] a denied tool is invisible to code mode search and its call fails', async () => {
    const { target, query, marker } = task();
    const guessedId = `plugin:fakeplugin:${target.name}`;
    const code = [
      `const hits = await tools.search(${JSON.stringify(query)}, { limit: 20 });`,
      `const listed = hits.some((hit) => hit.id === ${JSON.stringify(guessedId)});`,
      `const outcome = await tools.call(${JSON.stringify(guessedId)}, { marker: ${JSON.stringify(marker)} });`,
      'return { listed, status: outcome.status };',
    ].join('\n');
    fixture.provider.setScript([
      { id: 'code', when: { toolResults: 0 }, reply: { toolCalls: [{ name: 'tool_search_code', arguments: { code } }] } },
      { id: 'report', when: { minToolResults: 1 }, reply: { text: 'REPORT {{lastOutput}}' } },
    ]);
    const result = expectRun(await runScenario({ ...base(), dir: nextDir(), mode: 'code', prompt: task().prompt, policy: { deny: [guessedId] } }));
    expect(result.text).toContain('"value":{"listed":false,"status":"error"}');
    expect(result.text).toContain('"detail":"unknown_tool"');
    expect(result.text).not.toContain('FAKE_PLUGIN_OK');
  });

  it('[F2] a tool whose MCP server was killed fails its call with a clear error', async () => {
    const pidFile = join(fixture.dir, `mcp-${api}.pid`);
    const mcpId = idPattern('wiki_get');
    const script: ScriptRule[] = [
      {
        id: 'search',
        when: { toolResults: 0, declaresTool: /^tool_search$/ },
        reply: { toolCalls: [{ name: 'tool_search', arguments: { query: 'fetch internal wiki pages' } }] },
      },
      {
        id: 'call-after-kill',
        when: { lastToolName: /^tool_search$/, lastToolResult: new RegExp(mcpId) },
        reply: { toolCalls: [{ name: 'tool_call', arguments: { id: '{{id}}', args: { query: 'onboarding' } } }] },
      },
      { id: 'report', when: { minToolResults: 1 }, reply: { text: 'REPORT {{lastOutput}}' } },
    ];
    fixture.provider.setScript(script, async (ruleId) => {
      if (ruleId !== 'call-after-kill') return;
      const pid = Number(await readFile(pidFile, 'utf8'));
      process.kill(pid, 'SIGKILL');
      // Wait until the process is gone, so the call really meets a dead server.
      for (let attempt = 0; attempt < 1_000; attempt += 1) {
        try {
          process.kill(pid, 0);
        } catch {
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`MCP fixture ${pid} did not exit`);
    });
    const result = expectRun(
      await runScenario({ ...base(), dir: nextDir(), mode: 'tools', prompt: 'Fetch the onboarding wiki page.', mcp: { pidFile } }),
    );
    expect(result.requests.map((request) => request.ruleId)).toEqual(['search', 'call-after-kill', 'report']);
    expect(result.log.finalCall).toMatchObject({ toolId: 'mcp:fixture:wiki_get', source: 'mcp', status: 'error' });
    expect(result.record.telemetry.calls).toEqual([expect.objectContaining({ toolId: 'mcp:fixture:wiki_get', status: 'error', detail: 'unavailable' })]);
    // The model is told which server went away, and that the tool is unavailable.
    expect(result.text).toMatch(/^REPORT Error \(unavailable\): MCP server "fixture" is unavailable/);
  });

  it('[F3] a call blocked by a hook reports the block', async () => {
    const current = comparisonTask(fixture.plugin.tools[421]!, 'forbidden-marker');
    fixture.provider.setScript(comparisonScript(current));
    const result = expectRun(
      await runScenario({
        ...base(),
        dir: nextDir(),
        mode: 'tools',
        prompt: current.prompt,
        hooks: [
          {
            id: 'no-forbidden-markers',
            run: ({ args }) => (args.marker === 'forbidden-marker' ? { block: true, reason: 'marker is on the test deny list' } : undefined),
          },
        ],
      }),
    );
    expect(result.log.finalCall).toMatchObject({ toolId: `plugin:fakeplugin:${current.target.name}`, status: 'blocked' });
    expect(result.record.telemetry.calls[0]).toMatchObject({ status: 'blocked', detail: 'hook' });
    // The model is told who blocked the call and why (the rest of the wording belongs to the adapter).
    expect(result.text).toMatch(/^GAVE_UP: Blocked \(hook\): marker is on the test deny list\b/);
    expect(toolOutputs(result)).not.toContain('FAKE_PLUGIN_OK');
  });

  it('[F4] a call blocked by an approval reports the block', async () => {
    const current = task();
    fixture.provider.setScript(comparisonScript(current));
    const approvalRequests: string[] = [];
    const result = expectRun(
      await runScenario({
        ...base(),
        dir: nextDir(),
        mode: 'code',
        prompt: current.prompt,
        policy: { requireApproval: [`plugin:fakeplugin:${current.target.name}`] },
        approvals: {
          id: 'test-approver',
          requestApproval: (request) => {
            approvalRequests.push(request.tool.id);
            return { decision: 'deny', reason: 'the test approver said no' };
          },
        },
      }),
    );
    expect(approvalRequests).toEqual([`plugin:fakeplugin:${current.target.name}`]);
    expect(result.record.telemetry.calls[0]).toMatchObject({ via: 'code', status: 'blocked', detail: 'approval' });
    expect(result.text).toMatch(/^GAVE_UP: /);
    expect(result.text).toContain('"outcome":{"status":"blocked","by":"approval","reason":"the test approver said no"}');
  });

  it('[F5] code mode falls back to tools mode when the sandbox runtime cannot start, and still completes', async () => {
    const current = task();
    fixture.provider.setScript(comparisonScript(current));
    const result = expectRun(
      await runScenario({
        ...base(),
        dir: nextDir(),
        mode: 'code',
        prompt: current.prompt,
        sandboxNodePath: join(fixture.dir, 'no-such-node-binary'),
      }),
    );
    expect(result.record.telemetry).toMatchObject({ requestedMode: 'code', mode: 'tools' });
    // The reason names the runtime that could not start.
    expect(result.record.telemetry.fallbackReason).toContain('no-such-node-binary');
    expect(result.log.fallbackReason).toEqual(result.record.telemetry.fallbackReason);
    expect(result.requests.map((request) => request.ruleId)).toEqual(['search', 'describe', 'call', 'finish']);
    expect(result.text).toBe(`Done: ${current.target.name} answered FAKE_PLUGIN_OK.`);
  });

  it('[F6] an exact hidden name called directly in directory mode is hydrated', async () => {
    const current = task();
    fixture.provider.setScript([
      {
        id: 'call-by-name',
        when: { toolResults: 0, declaresTool: /^tool_search$/, lacksTool: /^fake_/, userText: /(?<name>fake_[a-z_]+)/ },
        reply: { toolCalls: [{ name: '{{name}}', arguments: { marker: current.marker } }] },
      },
      ...comparisonScript(current),
    ]);
    const result = expectRun(
      await runScenario({ ...base(), dir: nextDir(), mode: 'directory', prompt: `Run ${current.target.name} with marker "${current.marker}".` }),
    );
    expect(result.requests.map((request) => request.ruleId)).toEqual(['call-by-name', 'finish']);
    expect(result.log.hydrations).toBe(1);
    expect(result.log.finalCall).toMatchObject({ toolId: `plugin:fakeplugin:${current.target.name}`, via: 'hydrated', status: 'ok' });
    expect(result.text).toBe(`Done: ${current.target.name} answered FAKE_PLUGIN_OK.`);
  });

});

// A colliding client tool is rejected before the provider is ever asked, so the wire format does not apply.
describe('gateway client tool checks', () => {
  const fixture = useFailureFixture('e2e-client-tools-');
  const { nextDir, task } = fixture;
  const base = () => ({ provider: fixture.provider, api: 'responses' as const, pluginPath: fixture.plugin.path, mcp: false as const });

  it('[F7] a client tool colliding with a catalog name is rejected', async () => {
    const current = task();
    fixture.provider.setScript(comparisonScript(current));
    const colliding = { ...CLIENT_TOOLS[0]!, name: current.target.name };
    const result = await runScenario({ ...base(), dir: nextDir(), mode: 'tools', prompt: current.prompt, clientTools: [colliding] });
    expect(result.ok).toBe(false);
    expect(result.requests).toEqual([]);
    expect(result.ok ? undefined : result.error).toMatchObject({ status: 400 });
    expect(String((result as { error: Error }).error.message)).toContain(current.target.name);
  });

  it('[F7] a client tool using a control tool name is rejected', async () => {
    const current = task();
    fixture.provider.setScript(comparisonScript(current));
    const result = await runScenario({
      ...base(),
      dir: nextDir(),
      mode: 'tools',
      prompt: current.prompt,
      clientTools: [{ ...CLIENT_TOOLS[0]!, name: 'tool_search' }],
    });
    expect(result.ok ? undefined : result.error).toMatchObject({ status: 400 });
    expect(result.requests).toEqual([]);
  });
});

// The policy of the leak check: 50 of the 1,000 fake tools denied.
const DENY_AUDITS = { deny: ['plugin:fakeplugin:fake_audit_*'] };

describe.each([
  { api: 'responses' as const, stream: false },
  { api: 'anthropic' as const, stream: true },
])('native mode over $api (stream: $stream)', ({ api, stream }) => {
  const fixture = useFailureFixture(`e2e-native-leak-${api}-`);
  const base = () => ({ provider: fixture.provider, api, stream, pluginPath: fixture.plugin.path, mcp: false as const, mode: 'native' as const, policy: DENY_AUDITS });
  const denied = () => fixture.plugin.tools.filter((tool) => tool.name.startsWith('fake_audit_'));
  const allowed = () => fixture.plugin.tools.filter((tool) => !tool.name.startsWith('fake_audit_'));

  it('[N5] a denied tool never appears in any request of a native run, even when the model searches for it', async () => {
    // The model asks for a denied tool in that tool's own words: the search runs, and loads only allowed tools.
    const current = comparisonTask(denied()[21]!);
    fixture.provider.setScript(comparisonScript(current));
    const result = expectRun(await runScenario({ ...base(), dir: fixture.nextDir(), prompt: current.prompt }));
    expect(result.requests.map((request) => request.ruleId)).toEqual(['native-search', 'give-up']);
    expect(result.log.nativeLoadedIds.length).toBeGreaterThan(0);
    expect(result.log.nativeLoadedIds.filter((id) => id.includes(':fake_audit_'))).toEqual([]);
    expect(result.record.telemetry.catalog.size).toBe(950);
    const deniedTokens = new Set(denied().map((tool) => tool.schemaToken));
    const allowedTokens = allowed().map((tool) => tool.schemaToken).sort();
    for (const request of result.requests) {
      const tokens = fakeSchemaTokens(request.body);
      // Every allowed schema is declared (deferred), in every request; not one denied schema, nor a denied name.
      expect([...tokens].filter((token) => deniedTokens.has(token))).toEqual([]);
      expect([...tokens].sort()).toEqual(allowedTokens);
      expect(denied().filter((tool) => request.body.includes(tool.name)).map((tool) => tool.name)).toEqual([]);
    }
  });

  it('[N5] a denied tool called by its exact name in native mode is an unknown tool, and its schema is never sent', async () => {
    const target = denied()[3]!;
    const marker = 'denied-marker';
    fixture.provider.setScript([
      { id: 'call-denied', when: { toolResults: 0 }, reply: { toolCalls: [{ name: target.name, arguments: { marker } }] } },
      { id: 'report', when: { minToolResults: 1 }, reply: { text: 'REPORT {{lastOutput}}' } },
    ]);
    const result = expectRun(await runScenario({ ...base(), dir: fixture.nextDir(), prompt: `Run ${target.name} with marker "${marker}".` }));
    expect(result.text).toMatch(/^REPORT Error \(unknown_tool\)/);
    expect(result.text).not.toContain('FAKE_PLUGIN_OK');
    expect(result.log.finalCall).toMatchObject({ status: 'error' });
    for (const request of result.requests) expect(fakeSchemaTokens(request.body).has(target.schemaToken)).toBe(false);
  });
});
