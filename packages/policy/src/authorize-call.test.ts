import { pino } from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { authorizeCall } from './authorize-call';
import { createPolicy } from './create-policy';
import type { ApprovalProvider, ApprovalRequest, BeforeToolCallEvent, BeforeToolCallHook, PolicyTool } from './types';

const write: PolicyTool = { id: 'openclaw:core:write', name: 'write', source: 'openclaw', owner: 'core' };
const read: PolicyTool = { id: 'openclaw:core:read', name: 'read', source: 'openclaw', owner: 'core' };
const secret: PolicyTool = { id: 'openclaw:core:gateway', name: 'gateway', source: 'openclaw', owner: 'core', ownerOnly: true };

/** A hook that records the events it saw and answers with `answer(event)`. */
function recordingHook(id: string, answer: (event: BeforeToolCallEvent, signal: AbortSignal) => unknown = () => undefined) {
  const events: BeforeToolCallEvent[] = [];
  const signals: AbortSignal[] = [];
  const hook = {
    id,
    run(event: BeforeToolCallEvent, { signal }: { signal: AbortSignal }) {
      events.push(event);
      signals.push(signal);
      return answer(event, signal);
    },
  } as BeforeToolCallHook;
  return { hook, events, signals };
}

/** An approval provider that records requests and answers with `answer()`. */
function recordingApprovals(answer: (request: ApprovalRequest) => unknown) {
  const requests: ApprovalRequest[] = [];
  const signals: AbortSignal[] = [];
  const provider = {
    requestApproval(request: ApprovalRequest, { signal }: { signal: AbortSignal }) {
      requests.push(request);
      signals.push(signal);
      return answer(request);
    },
  } as ApprovalProvider;
  return { provider, requests, signals };
}

const never = () => new Promise<never>(() => {});
const policy = createPolicy({ deny: ['exec'], requireApproval: ['write'] });

describe('authorizeCall', () => {
  it('allows an eligible call that needs no approval, returning a copy of the args', async () => {
    const args = { path: 'a.txt', nested: { n: 1 } };
    const decision = await authorizeCall({ policy, tool: read, args, context: {} });
    expect(decision).toEqual({ status: 'allowed', args: { path: 'a.txt', nested: { n: 1 } } });
    expect(decision.status === 'allowed' && decision.args).not.toBe(args);
  });

  it('takes undefined args as an empty object', async () => {
    expect(await authorizeCall({ policy, tool: read, args: undefined, context: {} })).toEqual({ status: 'allowed', args: {} });
  });

  it.each([[42], ['x'], [[1, 2]], [null], [new Date(0)], [{ when: new Date(0) }], [{ n: Number.NaN }]])(
    'rejects with a PolicyError when the args are not a plain JSON object: %j',
    async (args) => {
      await expect(authorizeCall({ policy, tool: read, args, context: {} })).rejects.toMatchObject({ code: 'invalid_argument', path: 'args' });
    },
  );

  it('blocks a call the policy rejects, without running hooks or asking for approval', async () => {
    const recorded = recordingHook('h');
    const approvals = recordingApprovals(() => ({ decision: 'allow' }));
    const tool: PolicyTool = { id: 'openclaw:core:exec', name: 'exec', source: 'openclaw', owner: 'core' };
    const decision = await authorizeCall({ policy, tool, args: {}, context: {}, hooks: [recorded.hook], approvals: approvals.provider });
    expect(decision).toEqual({
      status: 'blocked',
      by: 'policy',
      layer: 'global',
      rule: 'deny:exec',
      reason: "tool 'openclaw:core:exec' is denied by 'exec' in global",
    });
    expect(recorded.events).toEqual([]);
    expect(approvals.requests).toEqual([]);
  });

  it('blocks an owner-only tool for a non-owner and allows it for the owner', async () => {
    expect(await authorizeCall({ policy, tool: secret, args: {}, context: { isOwner: false } })).toMatchObject({ status: 'blocked', by: 'owner-only' });
    expect(await authorizeCall({ policy, tool: secret, args: {}, context: { isOwner: true } })).toMatchObject({ status: 'allowed' });
  });

  describe('hooks', () => {
    it('runs hooks in order, each seeing the args the previous one returned', async () => {
      const first = recordingHook('first', (event) => ({ args: { ...event.args, a: 1 } }));
      const second = recordingHook('second', (event) => ({ args: { ...event.args, b: 2 } }));
      const decision = await authorizeCall({ policy, tool: read, args: { x: 0 }, context: {}, hooks: [first.hook, second.hook] });
      expect(second.events[0]?.args).toEqual({ x: 0, a: 1 });
      expect(decision).toEqual({ status: 'allowed', args: { x: 0, a: 1, b: 2 } });
    });

    it('passes the tool, a private copy of the args and the context', async () => {
      const recorded = recordingHook('h', (event) => {
        (event.args as { x: number }).x = 99;
      });
      const decision = await authorizeCall({ policy, tool: read, args: { x: 1 }, context: { agentId: 'main', senderId: 'u1' }, hooks: [recorded.hook] });
      expect(recorded.events[0]).toEqual({ tool: read, args: { x: 99 }, context: { agentId: 'main', senderId: 'u1' } });
      expect(decision).toEqual({ status: 'allowed', args: { x: 1 } });
    });

    it('passes the trust flag and a frozen copy of the annotations policy reads', async () => {
      const recorded = recordingHook('h');
      const annotations = { title: 'Remove', destructiveHint: true, vendorExtra: { x: 1 } };
      const tool = { id: 'mcp:fs:remove', name: 'remove', source: 'mcp', owner: 'fs', trusted: false, annotations } as const;
      await authorizeCall({ policy, tool, args: {}, context: {}, hooks: [recorded.hook] });
      const seen = recorded.events[0]!.tool;
      expect(seen).toEqual({ id: 'mcp:fs:remove', name: 'remove', source: 'mcp', owner: 'fs', trusted: false, annotations: { title: 'Remove', destructiveHint: true } });
      expect(Object.isFrozen(seen.annotations)).toBe(true);
      expect(seen.annotations).not.toBe(annotations);
    });

    it('stops at a hook that blocks, with its reason and id', async () => {
      const blocker = recordingHook('guard', () => ({ block: true, reason: 'path outside the workspace' }));
      const after = recordingHook('after');
      const decision = await authorizeCall({ policy, tool: read, args: {}, context: {}, hooks: [blocker.hook, after.hook] });
      expect(decision).toEqual({ status: 'blocked', by: 'hook', hookId: 'guard', reason: 'path outside the workspace' });
      expect(after.events).toEqual([]);
    });

    it('blocks when a hook throws synchronously', async () => {
      const hook = recordingHook('boom', () => {
        throw new Error('secret detail');
      }).hook;
      const decision = await authorizeCall({ policy, tool: read, args: {}, context: {}, hooks: [hook] });
      expect(decision).toEqual({ status: 'blocked', by: 'hook', hookId: 'boom', reason: "before_tool_call hook 'boom' threw an error; the call is blocked" });
    });

    it('blocks when a hook rejects', async () => {
      const hook = recordingHook('boom', () => Promise.reject(new Error('nope'))).hook;
      expect(await authorizeCall({ policy, tool: read, args: {}, context: {}, hooks: [hook] })).toMatchObject({ status: 'blocked', by: 'hook', hookId: 'boom' });
    });

    it('blocks when a hook hangs past its timeout, and aborts its signal', async () => {
      const recorded = recordingHook('slow', never);
      const decision = await authorizeCall({ policy, tool: read, args: {}, context: {}, hooks: [recorded.hook], timeoutMs: { hook: 5 } });
      expect(decision).toEqual({ status: 'blocked', by: 'hook', hookId: 'slow', reason: "before_tool_call hook 'slow' did not answer within 5 ms; the call is blocked" });
      expect(recorded.signals[0]?.aborted).toBe(true);
    });

    it.each([
      ['a number', 1],
      ['a string', 'ok'],
      ['true', true],
      ['an empty object', {}],
      ['block without a reason', { block: true }],
      ['block with an empty reason', { block: true, reason: ' ' }],
      ['block: false', { block: false }],
      ['args and extra keys', { args: {}, note: 'x' }],
      ['args that are an array', { args: [1] }],
      ['args with a function', { args: { f: () => 1 } }],
      ['args that are a class instance', { args: new Map() }],
    ])('blocks when a hook returns %s', async (_label, value) => {
      const hook = recordingHook('odd', () => value).hook;
      const decision = await authorizeCall({ policy, tool: read, args: {}, context: {}, hooks: [hook] });
      expect(decision).toMatchObject({ status: 'blocked', by: 'hook', hookId: 'odd' });
      expect(decision.status === 'blocked' && decision.reason).toMatch(/malformed/);
    });

    it('blocks when reading a hook result throws (a hostile proxy)', async () => {
      const hostile = new Proxy(
        {},
        {
          ownKeys() {
            throw new Error('trap');
          },
          // `then` must read as absent, or promise resolution itself fails first.
          get(_target, key) {
            if (key === 'then') return undefined;
            throw new Error('trap');
          },
        },
      );
      const hook = recordingHook('proxy', () => hostile).hook;
      const decision = await authorizeCall({ policy, tool: read, args: {}, context: {}, hooks: [hook] });
      expect(decision).toMatchObject({ status: 'blocked', by: 'hook', hookId: 'proxy' });
      expect(decision.status === 'blocked' && decision.reason).toContain('could not be read');
    });

    it('treats null like undefined: no change', async () => {
      const hook = recordingHook('quiet', () => null).hook;
      expect(await authorizeCall({ policy, tool: read, args: { a: 1 }, context: {}, hooks: [hook] })).toEqual({ status: 'allowed', args: { a: 1 } });
    });

    it('rejects with a PolicyError for a hook without a run function', async () => {
      const hooks = [{ id: 'x' }] as unknown as BeforeToolCallHook[];
      await expect(authorizeCall({ policy, tool: read, args: {}, context: {}, hooks })).rejects.toMatchObject({ code: 'invalid_argument', path: 'hooks[0]' });
    });
  });

  describe('approvals', () => {
    it('blocks a call that needs approval when no provider is configured', async () => {
      expect(await authorizeCall({ policy, tool: write, args: {}, context: {} })).toEqual({
        status: 'blocked',
        by: 'approval',
        layer: 'global',
        rule: 'requireApproval:write',
        reason: "tool 'openclaw:core:write' requires approval (requireApproval:write in global) and no approval provider is configured",
      });
    });

    it('says, when a hint rule requires the approval of a tool that states no annotations, that MCP defaults the hint', async () => {
      const byHint = createPolicy({ requireApproval: ['hint:destructive'] });
      const bare: PolicyTool = { id: 'mcp:github:get_me', name: 'get_me', source: 'mcp', owner: 'github' };
      expect(await authorizeCall({ policy: byHint, tool: bare, args: {}, context: {} })).toEqual({
        status: 'blocked',
        by: 'approval',
        layer: 'global',
        rule: 'requireApproval:hint:destructive',
        reason:
          "tool 'mcp:github:get_me' requires approval (requireApproval:hint:destructive in global; no annotations: MCP's default destructiveHint is true) and no approval provider is configured",
      });
      const approvals = recordingApprovals(() => ({ decision: 'allow' }));
      await authorizeCall({ policy: byHint, tool: bare, args: {}, context: {}, approvals: approvals.provider });
      expect(approvals.requests.map((request) => request.requirement)).toEqual([
        { layer: 'global', rule: 'hint:destructive', note: "no annotations: MCP's default destructiveHint is true" },
      ]);
    });

    it('asks the provider with the final args after hooks, and allows on allow', async () => {
      const approvals = recordingApprovals(() => ({ decision: 'allow' }));
      const hook = recordingHook('rewrite', () => ({ args: { path: 'safe.txt' } })).hook;
      const decision = await authorizeCall({ policy, tool: write, args: { path: 'x' }, context: { agentId: 'a' }, hooks: [hook], approvals: approvals.provider });
      expect(approvals.requests).toEqual([
        { tool: write, args: { path: 'safe.txt' }, context: { agentId: 'a' }, requirement: { layer: 'global', rule: 'write' } },
      ]);
      expect(decision).toEqual({ status: 'allowed', args: { path: 'safe.txt' } });
    });

    it('does not ask for approval when no rule applies', async () => {
      const approvals = recordingApprovals(() => ({ decision: 'deny' }));
      expect(await authorizeCall({ policy, tool: read, args: {}, context: {}, approvals: approvals.provider })).toMatchObject({ status: 'allowed' });
      expect(approvals.requests).toEqual([]);
    });

    it('blocks on deny, with the provider reason', async () => {
      const approvals = recordingApprovals(() => Promise.resolve({ decision: 'deny', reason: 'not now' }));
      expect(await authorizeCall({ policy, tool: write, args: {}, context: {}, approvals: approvals.provider })).toEqual({
        status: 'blocked',
        by: 'approval',
        layer: 'global',
        rule: 'requireApproval:write',
        reason: 'not now',
      });
    });

    it('blocks when the provider throws', async () => {
      const approvals = recordingApprovals(() => {
        throw new Error('ui down');
      });
      const decision = await authorizeCall({ policy, tool: write, args: {}, context: {}, approvals: approvals.provider });
      expect(decision).toMatchObject({ status: 'blocked', by: 'approval', reason: 'the approval provider threw an error; the call is blocked' });
    });

    it('blocks when the provider does not answer in time, and aborts its signal', async () => {
      const approvals = recordingApprovals(never);
      const decision = await authorizeCall({ policy, tool: write, args: {}, context: {}, approvals: approvals.provider, timeoutMs: 5 });
      expect(decision).toMatchObject({ status: 'blocked', by: 'approval', reason: 'the approval provider did not answer within 5 ms; the call is blocked' });
      expect(approvals.signals[0]?.aborted).toBe(true);
    });

    it.each([[undefined], [true], ['allow'], [{ decision: 'yes' }], [{ decision: 'allow', extra: 1 }], [{ approved: true }]])(
      'blocks when the provider answers %j',
      async (answer) => {
        const approvals = recordingApprovals(() => answer);
        const decision = await authorizeCall({ policy, tool: write, args: {}, context: {}, approvals: approvals.provider });
        expect(decision).toMatchObject({ status: 'blocked', by: 'approval' });
        expect(decision.status === 'blocked' && decision.reason).toMatch(/malformed/);
      },
    );

    it('blocks when reading the provider answer throws (a hostile proxy)', async () => {
      const trap = () => {
        throw new Error('trap');
      };
      const hostile = new Proxy({}, { get: (_target, key) => (key === 'then' ? undefined : trap()), ownKeys: trap, has: trap });
      const approvals = recordingApprovals(() => hostile);
      expect(await authorizeCall({ policy, tool: write, args: {}, context: {}, approvals: approvals.provider })).toMatchObject({ status: 'blocked', by: 'approval' });
    });

    it('blocks when the caller cancels a pending approval', async () => {
      const controller = new AbortController();
      const approvals = recordingApprovals(() => {
        controller.abort();
        return never();
      });
      const decision = await authorizeCall({ policy, tool: write, args: {}, context: {}, approvals: approvals.provider, signal: controller.signal });
      expect(decision).toMatchObject({ status: 'blocked', by: 'approval', reason: 'the approval provider was cancelled before it answered; the call is blocked' });
    });
  });

  it('rejects with a PolicyError for an invalid timeout', async () => {
    await expect(authorizeCall({ policy, tool: read, args: {}, context: {}, timeoutMs: 0 })).rejects.toMatchObject({ code: 'invalid_argument', path: 'timeoutMs' });
  });

  it('logs the decision with the arg keys but never the arg values', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    await authorizeCall({ policy, tool: write, args: { token: 'hunter2' }, context: {}, logger: pino({ level: 'info' }, stream) });
    const entry = JSON.parse(lines.find((line) => line.includes('tool call blocked'))!) as Record<string, unknown>;
    expect(entry).toMatchObject({ toolId: 'openclaw:core:write', by: 'approval', layer: 'global', rule: 'requireApproval:write', argKeys: ['token'] });
    expect(typeof entry.durationMs).toBe('number');
    expect(lines.join('')).not.toContain('hunter2');
  });
});

describe('policy.authorizeCall', () => {
  it('runs the default hooks before the per-call hooks', async () => {
    const order: string[] = [];
    const hook = (id: string): BeforeToolCallHook => ({ id, run: () => void order.push(id) });
    const withDefaults = createPolicy({}, { hooks: [hook('default')] });
    await withDefaults.authorizeCall({ tool: read, args: {}, context: {}, hooks: [hook('call')] });
    expect(order).toEqual(['default', 'call']);
  });

  it('uses the default approval provider unless the call passes its own', async () => {
    const fallback = recordingApprovals(() => ({ decision: 'deny', reason: 'default says no' }));
    const own = recordingApprovals(() => ({ decision: 'allow' }));
    const withDefaults = createPolicy({ requireApproval: ['write'] }, { approvals: fallback.provider });
    expect(await withDefaults.authorizeCall({ tool: write, args: {}, context: {} })).toMatchObject({ reason: 'default says no' });
    expect(await withDefaults.authorizeCall({ tool: write, args: {}, context: {}, approvals: own.provider })).toMatchObject({ status: 'allowed' });
  });

  it('rejects with a PolicyError when the standalone function gets no policy', async () => {
    const options = { tool: read, args: {}, context: {} } as unknown as Parameters<typeof authorizeCall>[0];
    await expect(authorizeCall(options)).rejects.toMatchObject({ code: 'invalid_argument', path: 'policy' });
  });
});
