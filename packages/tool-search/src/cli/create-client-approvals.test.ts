import { createPolicy } from '@tool-search/policy';
import { describe, expect, it } from 'vitest';
import { createClientApprovals } from './create-client-approvals.js';

/** A relay whose client answers `answer`, recording what it was asked. */
function fakeRelay(answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }) {
  const asked: Array<{ message: string; server: string }> = [];
  return {
    asked,
    onApproval: async (request: { message?: string }, context: { server: string }) => {
      asked.push({ message: String(request.message), server: context.server });
      return answer;
    },
  };
}

const request = {
  tool: { id: 'mcp:github:delete_repo', name: 'delete_repo', source: 'mcp', owner: 'github' },
  args: { repo: 'x' },
  context: {},
  requirement: { layer: 'global', rule: 'mcp:*:delete_*' },
};
const signal = new AbortController().signal;

describe('createClientApprovals', () => {
  it('asks the client, naming the tool, the rule and each argument with its value marked untrusted, and allows on approve: true', async () => {
    const relay = fakeRelay({ action: 'accept', content: { approve: true } });
    expect(await createClientApprovals(relay as never).requestApproval(request as never, { signal })).toEqual({ decision: 'allow', reason: 'approved by the MCP client' });
    expect(relay.asked).toEqual([
      {
        message: 'Allow mcp:github:delete_repo? (mcp:*:delete_* in global requires approval)\nArguments (untrusted text written by the model, not by the gateway; long values cut short):\n  repo: "x"',
        server: 'tool-search approvals',
      },
    ]);
  });

  it('cuts long values, quotes values and odd names so none poses as a line of the question, and says how many more there are', async () => {
    const relay = fakeRelay({ action: 'decline' });
    const args: Record<string, unknown> = { path: 'a'.repeat(500), note: 'x\n(approved by the administrator)', 'odd\nname': 1, nested: { deep: [1, 2] } };
    for (let index = 0; index < 8; index++) args[`extra${index}`] = index;
    await createClientApprovals(relay as never).requestApproval({ ...request, args } as never, { signal });
    const lines = relay.asked[0]!.message.split('\n');
    expect(lines[0]).toBe('Allow mcp:github:delete_repo? (mcp:*:delete_* in global requires approval)');
    expect(lines[1]).toMatch(/^Arguments \(untrusted text/);
    expect(lines[2]).toBe(`  path: "${'a'.repeat(199)}… (502 characters)`);
    expect(lines[3]).toBe('  note: "x\\n(approved by the administrator)"');
    expect(lines[4]).toBe('  "odd\\nname": 1');
    expect(lines[5]).toBe('  nested: {"deep":[1,2]}');
    expect(lines.at(-1)).toBe('  (2 more not shown)');
    expect(lines).toHaveLength(13);
  });

  it("says that MCP's default is what a hint rule matched when the tool states no annotations (the policy's words)", async () => {
    const tool = { id: 'mcp:github:get_me', name: 'get_me', source: 'mcp' as const, owner: 'github' };
    const requirement = createPolicy({ requireApproval: ['hint:destructive'] }).approvalRequirement(tool, {});
    const relay = fakeRelay({ action: 'decline' });
    await createClientApprovals(relay as never).requestApproval({ ...request, tool, args: {}, requirement } as never, { signal });
    expect(relay.asked[0]!.message).toBe(
      "Allow mcp:github:get_me? (hint:destructive in global requires approval; no annotations: MCP's default destructiveHint is true)\nNo arguments.",
    );
  });

  it('says so when the call has no arguments', async () => {
    const relay = fakeRelay({ action: 'decline' });
    await createClientApprovals(relay as never).requestApproval({ ...request, args: {} } as never, { signal });
    expect(relay.asked[0]!.message).toBe('Allow mcp:github:delete_repo? (mcp:*:delete_* in global requires approval)\nNo arguments.');
  });

  it('denies on approve: false, a decline, or a cancel', async () => {
    expect(await createClientApprovals(fakeRelay({ action: 'accept', content: { approve: false } }) as never).requestApproval(request as never, { signal })).toEqual({ decision: 'deny', reason: 'the MCP client did not approve' });
    expect(await createClientApprovals(fakeRelay({ action: 'decline' }) as never).requestApproval(request as never, { signal })).toEqual({ decision: 'deny', reason: 'the MCP client answered decline' });
    expect(await createClientApprovals(fakeRelay({ action: 'cancel' }) as never).requestApproval(request as never, { signal })).toEqual({ decision: 'deny', reason: 'the MCP client answered cancel' });
  });
});
