// One server's `list_changed` on a host with a large catalog and live sessions: the shared index takes the server's
// added and removed tools in place, and no session's view is rebuilt: each view asks its policy about the tools that
// changed only (a rebuild would ask about every tool of the catalog again), and sees the change at its next read.
import { createPolicy, type Policy } from '@tool-search/policy';
import { scaledTimeout } from '@tool-search/property-settings';
import { mcpFixtureConfig, until } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';

const hosts: ToolSearchHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

const LOCAL_TOOLS = 2_000;
const localTools = (): ExecutableTool[] =>
  Array.from({ length: LOCAL_TOOLS }, (_, index) => ({
    name: `task_${index}`,
    owner: `team${index % 40}`,
    description: `Record task ${index} of the team ledger.`,
    inputSchema: { type: 'object', properties: { note: { type: 'string' } } },
    execute: () => 'ok',
  }));

/** A compiled policy whose every verdict is recorded (the tool ids it was asked about, in order). */
function recordingPolicy(): { policy: Policy; asked: string[] } {
  const compiled = createPolicy({ deny: ['openclaw:team3:*'] });
  const asked: string[] = [];
  // The compiled policy is frozen: the recording one inherits from it and shadows `check` only.
  const policy = Object.create(compiled) as Policy;
  Object.defineProperty(policy, 'check', {
    value: (tool: Parameters<Policy['check']>[0], context: Parameters<Policy['check']>[1]) => {
      asked.push(tool.id);
      return compiled.check(tool, context);
    },
  });
  return { policy, asked };
}

describe('createToolSearchHost: one server changes its tools', () => {
  it('updates the shared index in place and rebuilds no session view: each view is asked about the changed tools only', { timeout: scaledTimeout(60_000) }, async () => {
    const host = await createToolSearchHost({ sources: { openclaw: localTools(), mcp: [mcpFixtureConfig('fixture')] }, startupTimeoutMs: scaledTimeout(30_000) });
    hosts.push(host);
    const { policy, asked } = recordingPolicy();
    // Twenty live sessions in two scopes of the policy (two views), each having searched once.
    const sessions = await Promise.all(Array.from({ length: 20 }, (_, index) => host.openSession({ config: { mode: 'tools' }, policy, context: { agentId: index % 2 === 0 ? 'main' : 'ops' } })));
    for (const session of sessions) await session.execute({ name: 'tool_search', args: { query: 'reverse a word' }, toolCallId: 'before' });
    expect(new Set(asked.filter((id) => id.includes(':team'))).size).toBeGreaterThanOrEqual(LOCAL_TOOLS);
    asked.length = 0;

    // The fixture's change_tools removes remove_me and adds added_later, then tells the host (list_changed).
    const caller = sessions[0]!;
    await caller.execute({ name: 'tool_call', args: { id: 'mcp:fixture:change_tools', args: {} }, toolCallId: 'change' });
    await until(() => caller.tool('mcp:fixture:added_later') !== undefined, 'the list change to reach the catalog', scaledTimeout(4_000));
    for (const session of sessions) {
      const found = await session.execute({ name: 'tool_search', args: { query: 'reverse a word' }, toolCallId: 'after' });
      expect(found.content).toContain('mcp:fixture:added_later');
      expect(session.tool('mcp:fixture:remove_me')).toBeUndefined();
    }
    // Asked about: the changed tools only (the added one once per view; the removed one when a session asks for it
    // by id), never one of the 2,000 that did not change.
    expect(asked.filter((id) => id !== 'mcp:fixture:added_later' && id !== 'mcp:fixture:remove_me' && id !== 'mcp:fixture:change_tools')).toEqual([]);
    // Once per view as it catches up, and once per session as its search shows the hit: O(changed), not O(catalog).
    expect(asked.filter((id) => id === 'mcp:fixture:added_later').length).toBeLessThanOrEqual(2 + sessions.length);
  });
});
