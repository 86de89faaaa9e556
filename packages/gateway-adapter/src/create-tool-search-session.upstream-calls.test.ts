// `execute`'s onUpstreamCall: the session tells its caller each call to an upstream MCP server, from its start to
// its end, whether the model called the tool directly, through tool_call, or from code-mode code; and code-mode
// calls run in the async context of the run that made them (what an MCP front's relay reads to know whose call it is).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRunner, probeRuntime, type Runner } from '@tool-search/sandbox-runner';
import { mcpFixtureConfig } from '@tool-search/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchSession } from './create-tool-search-session.js';
import type { ToolSearchSession } from './tool-search-session.js';
import { scaledTimeout } from '@tool-search/property-settings';

let runner: Runner;
let tools: ToolSearchSession;
let code: ToolSearchSession;
beforeAll(async () => {
  const probe = await probeRuntime();
  if (!probe.ok) throw new Error(`the workspace's pinned Node runtime should pass the probe: ${probe.reason}`);
  // A warm child, spawned here, outside every call: its stream's callbacks are not in any call's context.
  runner = createRunner({ nodePath: probe.nodePath, pool: { size: 1 } });
  const sources = { mcp: [mcpFixtureConfig('fixture')] };
  tools = await createToolSearchSession({ config: { mode: 'tools' }, sources, callTimeoutMs: 10_000 });
  code = await createToolSearchSession({ config: true, sources, runner, probe: async () => probe, callTimeoutMs: 10_000 });
}, scaledTimeout(60_000));
afterAll(async () => {
  await tools?.close();
  await code?.close();
  await runner?.close();
});

/** Records each upstream call's start and end, and the async context each start was told in. */
function recorder(scope?: AsyncLocalStorage<string>) {
  const events: string[] = [];
  return {
    events,
    onUpstreamCall: ({ server, toolId }: { server: string; toolId: string }) => {
      events.push(`start ${server} ${toolId}${scope === undefined ? '' : ` in ${scope.getStore() ?? 'no call'}`}`);
      return ({ abandoned }: { abandoned: boolean }) => void events.push(`end ${server} ${toolId}${abandoned ? ' abandoned' : ''}`);
    },
  };
}

describe('session.execute onUpstreamCall', () => {
  it('tells the start and end of a tool_call to an MCP server', async () => {
    const seen = recorder();
    const outcome = await tools.execute({ name: 'tool_call', args: { id: 'mcp:fixture:add_numbers', args: { a: 1, b: 2 } }, toolCallId: 'c1' }, { onUpstreamCall: seen.onUpstreamCall });
    expect(outcome).toMatchObject({ status: 'ok' });
    expect(seen.events).toEqual(['start fixture mcp:fixture:add_numbers', 'end fixture mcp:fixture:add_numbers']);
  });

  it('tells an upstream call the caller cancelled as abandoned (the server may still be working on it)', async () => {
    const seen = recorder();
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 300);
    const outcome = await tools.execute({ name: 'tool_call', args: { id: 'mcp:fixture:never_answers', args: {} }, toolCallId: 'c3' }, { signal: cancel.signal, onUpstreamCall: seen.onUpstreamCall });
    expect(outcome).toMatchObject({ status: 'error', code: 'cancelled' });
    expect(seen.events).toEqual(['start fixture mcp:fixture:never_answers', 'end fixture mcp:fixture:never_answers abandoned']);
  });

  it('tells nothing for a call that never reaches a server (an unknown tool)', async () => {
    const seen = recorder();
    await tools.execute({ name: 'tool_call', args: { id: 'mcp:fixture:no_such_tool', args: {} }, toolCallId: 'c2' }, { onUpstreamCall: seen.onUpstreamCall });
    expect(seen.events).toEqual([]);
  });

  it("tells each upstream call of a code-mode run, in that run's own async context", { timeout: scaledTimeout(60_000) }, async () => {
    const scope = new AsyncLocalStorage<string>();
    const body = "return await tools.call('mcp:fixture:add_numbers', { a: 2, b: 3 });";
    for (const label of ['first call', 'second call']) {
      const seen = recorder(scope);
      const outcome = await scope.run(label, () => code.execute({ name: 'tool_search_code', args: { code: body }, toolCallId: label.replace(' ', '_') }, { onUpstreamCall: seen.onUpstreamCall }));
      expect(outcome).toMatchObject({ status: 'ok' });
      expect(seen.events).toEqual([`start fixture mcp:fixture:add_numbers in ${label}`, 'end fixture mcp:fixture:add_numbers']);
    }
  });
});
