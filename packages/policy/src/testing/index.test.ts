import { describe, expect, it } from 'vitest';
import { createPolicy } from '../create-policy';
import type { PolicyTool } from '../types';
import { createFakeApprovalProvider, createRecordingHook } from './index';

const write: PolicyTool = { id: 'openclaw:core:write', name: 'write', source: 'openclaw', owner: 'core' };

describe('createFakeApprovalProvider', () => {
  it('records each request and answers with the given answer', async () => {
    const approvals = createFakeApprovalProvider({ decision: 'deny', reason: 'no' });
    const policy = createPolicy({ requireApproval: ['write'] }, { approvals });
    expect(await policy.authorizeCall({ tool: write, args: { a: 1 }, context: {} })).toMatchObject({ status: 'blocked', reason: 'no' });
    expect(approvals.requests).toEqual([{ tool: write, args: { a: 1 }, context: {}, requirement: { layer: 'global', rule: 'write' } }]);
  });
});

describe('createRecordingHook', () => {
  it('records each event and answers with respond', async () => {
    const hook = createRecordingHook('h', () => ({ args: { b: 2 } }));
    const policy = createPolicy({});
    expect(await policy.authorizeCall({ tool: write, args: { a: 1 }, context: {}, hooks: [hook] })).toEqual({ status: 'allowed', args: { b: 2 } });
    expect(hook.events).toEqual([{ tool: write, args: { a: 1 }, context: {} }]);
  });
});
