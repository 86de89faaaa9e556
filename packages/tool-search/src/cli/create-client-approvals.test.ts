import { describe, expect, it } from 'vitest';
import { createClientApprovals } from './create-client-approvals.js';

/** A relay whose client answers `answer`, recording what it was asked. */
function fakeRelay(answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }) {
  const asked: Array<{ message: string; server: string }> = [];
  return {
    asked,
    onElicitation: async (request: { message?: string }, context: { server: string }) => {
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
  it('asks the client, naming the tool, its argument names and the rule, and allows on approve: true', async () => {
    const relay = fakeRelay({ action: 'accept', content: { approve: true } });
    expect(await createClientApprovals(relay as never).requestApproval(request as never, { signal })).toEqual({ decision: 'allow', reason: 'approved by the MCP client' });
    expect(relay.asked).toEqual([{ message: 'Allow mcp:github:delete_repo with repo? (mcp:*:delete_* in global requires approval)', server: 'tool-search approvals' }]);
  });

  it('denies on approve: false, a decline, or a cancel', async () => {
    expect(await createClientApprovals(fakeRelay({ action: 'accept', content: { approve: false } }) as never).requestApproval(request as never, { signal })).toEqual({ decision: 'deny', reason: 'the MCP client did not approve' });
    expect(await createClientApprovals(fakeRelay({ action: 'decline' }) as never).requestApproval(request as never, { signal })).toEqual({ decision: 'deny', reason: 'the MCP client answered decline' });
    expect(await createClientApprovals(fakeRelay({ action: 'cancel' }) as never).requestApproval(request as never, { signal })).toEqual({ decision: 'deny', reason: 'the MCP client answered cancel' });
  });
});
