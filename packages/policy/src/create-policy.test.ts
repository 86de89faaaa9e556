import { pino } from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createPolicy } from './create-policy';
import { isPolicyError } from './errors';
import type { PolicyContext, PolicyTool } from './types';

function tool(id: string, extra: Partial<PolicyTool> = {}): PolicyTool {
  const [source, owner, name] = id.split(':') as [PolicyTool['source'], string, string];
  return { id, source, owner, name, ...extra };
}

const exec = tool('openclaw:core:exec');
const read = tool('openclaw:core:read');
const githubIssue = tool('mcp:github:create_issue');
const githubList = tool('mcp:github:list_issues');
const browserOpen = tool('plugin:acme:browser_open');
const clientPick = tool('client:app:pick_file');

describe('createPolicy', () => {
  it('admits every tool when the config is empty', () => {
    const policy = createPolicy({});
    expect(policy.check(exec, {})).toEqual({ allowed: true });
    expect(policy.filter([exec, read, githubIssue], {})).toEqual([exec, read, githubIssue]);
  });

  it('rejects a tool denied by name in the global layer, naming the layer and rule', () => {
    const policy = createPolicy({ deny: ['exec'] });
    expect(policy.check(exec, {})).toEqual({
      allowed: false,
      by: 'policy',
      layer: 'global',
      rule: 'deny:exec',
      reason: "tool 'openclaw:core:exec' is denied by 'exec' in global",
    });
  });

  it('matches an id pattern with a glob in the owner segment', () => {
    const policy = createPolicy({ deny: ['mcp:*:create_*'] });
    expect(policy.check(githubIssue, {}).allowed).toBe(false);
    expect(policy.check(githubList, {}).allowed).toBe(true);
  });

  it('matches a name glob against the name only', () => {
    const policy = createPolicy({ deny: ['browser_*'] });
    expect(policy.check(browserOpen, {}).allowed).toBe(false);
    expect(policy.check(tool('plugin:browser_co:open'), {}).allowed).toBe(true);
  });

  it('never lets a name pose as an id: an id pattern matches the source, owner and name fields', () => {
    const policy = createPolicy({ allow: ['openclaw:*:exec'] });
    const impostor = { id: 'mcp:evil:openclaw:core:exec', source: 'mcp', owner: 'evil', name: 'openclaw:core:exec' } as const;
    expect(policy.check(impostor, {})).toMatchObject({ allowed: false, rule: 'allow' });
    expect(policy.check(exec, {}).allowed).toBe(true);
  });

  it('denies a tool whose name contains colons through a source-wide pattern', () => {
    const policy = createPolicy({ deny: ['group:mcp'] });
    const odd = { id: 'mcp:srv:a:b', source: 'mcp', owner: 'srv', name: 'a:b' } as const;
    expect(policy.check(odd, {})).toMatchObject({ allowed: false, rule: 'deny:group:mcp' });
  });

  it('matches case-insensitively', () => {
    const policy = createPolicy({ deny: ['EXEC', 'MCP:GitHub:*'] });
    expect(policy.check(exec, {}).allowed).toBe(false);
    expect(policy.check(githubList, {}).allowed).toBe(false);
  });

  it('lets deny beat allow within a layer', () => {
    const policy = createPolicy({ allow: ['mcp:github:*'], deny: ['mcp:github:create_issue'] });
    expect(policy.check(githubIssue, {})).toMatchObject({ allowed: false, rule: 'deny:mcp:github:create_issue' });
    expect(policy.check(githubList, {}).allowed).toBe(true);
  });

  it('admits only what an allow list names', () => {
    const policy = createPolicy({ allow: ['read'] });
    expect(policy.check(read, {}).allowed).toBe(true);
    expect(policy.check(exec, {})).toMatchObject({ allowed: false, layer: 'global', rule: 'allow' });
  });

  it('admits nothing through an empty allow list', () => {
    const policy = createPolicy({ allow: [] });
    expect(policy.filter([exec, read, githubIssue], {})).toEqual([]);
  });

  it('expands built-in groups', () => {
    const policy = createPolicy({ allow: ['group:fs'] });
    expect(policy.filter([exec, read, githubIssue], {})).toEqual([read]);
  });

  it('scopes the OpenClaw built-in groups to the openclaw source', () => {
    const policy = createPolicy({ deny: ['group:runtime'] });
    expect(policy.check(exec, {}).allowed).toBe(false);
    expect(policy.check(tool('mcp:shell:exec'), {}).allowed).toBe(true);
  });

  it('expands user-defined groups from the config and from the groups option, nested', () => {
    const policy = createPolicy(
      { groups: { 'group:github-read': ['mcp:github:list_*', 'group:host-tools'] }, allow: ['group:github-read'] },
      { groups: { 'group:host-tools': ['pick_file'] } },
    );
    expect(policy.filter([githubIssue, githubList, clientPick, exec], {})).toEqual([githubList, clientPick]);
  });

  it('reports the group as written as the rule', () => {
    const policy = createPolicy({ groups: { 'group:risky': ['exec', 'browser_*'] }, deny: ['read', 'group:risky'] });
    expect(policy.check(browserOpen, {})).toMatchObject({ rule: 'deny:group:risky' });
  });

  describe('layers', () => {
    const policy = createPolicy({
      agents: { main: { deny: ['exec'] }, '*': { deny: ['read'] } },
      profiles: { messaging: { allow: ['group:mcp'] } },
      sandboxes: { '*': { deny: ['group:runtime'] }, box1: { deny: ['mcp:github:*'] } },
      channels: { discord: { deny: ['list_issues'] } },
      runtimes: { node: { deny: ['pick_file'] } },
      sessions: { s1: { allow: ['browser_*'] } },
    });

    it('applies a keyed layer only when the context field equals its key', () => {
      expect(policy.check(exec, { agentId: 'main' })).toMatchObject({ allowed: false, layer: 'agents.main' });
      expect(policy.check(exec, { agentId: 'other' }).allowed).toBe(true);
    });

    it('applies the * layer whenever the context field is set', () => {
      expect(policy.check(read, { agentId: 'other' })).toMatchObject({ allowed: false, layer: 'agents["*"]' });
      expect(policy.check(read, {}).allowed).toBe(true);
      expect(policy.check(exec, { sandboxId: 'any' })).toMatchObject({ allowed: false, layer: 'sandboxes["*"]' });
    });

    it('applies per-profile, per-sandbox, per-channel, per-runtime and per-session layers', () => {
      expect(policy.check(exec, { profile: 'messaging' })).toMatchObject({ allowed: false, layer: 'profiles.messaging', rule: 'allow' });
      expect(policy.check(githubIssue, { sandboxId: 'box1' })).toMatchObject({ allowed: false, layer: 'sandboxes.box1' });
      expect(policy.check(githubList, { channel: 'discord' })).toMatchObject({ allowed: false, layer: 'channels.discord' });
      expect(policy.check(clientPick, { runtime: 'node' })).toMatchObject({ allowed: false, layer: 'runtimes.node' });
      expect(policy.check(read, { sessionId: 's1' })).toMatchObject({ allowed: false, layer: 'sessions.s1', rule: 'allow' });
      expect(policy.check(browserOpen, { sessionId: 's1' }).allowed).toBe(true);
    });

    it('requires every applicable layer to admit the tool', () => {
      const context: PolicyContext = { profile: 'messaging', channel: 'discord' };
      expect(policy.check(githubIssue, context).allowed).toBe(true);
      expect(policy.check(githubList, context)).toMatchObject({ allowed: false, layer: 'channels.discord' });
      expect(policy.check(exec, context)).toMatchObject({ allowed: false, layer: 'profiles.messaging' });
    });
  });

  describe('owner-only tools', () => {
    const policy = createPolicy({});
    const secret = tool('openclaw:core:gateway', { ownerOnly: true });

    it('admits an owner-only tool to the owner', () => {
      expect(policy.check(secret, { isOwner: true })).toEqual({ allowed: true });
    });

    it('rejects an owner-only tool for a non-owner or an unknown caller', () => {
      const rejected = {
        allowed: false,
        by: 'owner-only',
        layer: 'owner-only',
        rule: 'ownerOnly',
        reason: "tool 'openclaw:core:gateway' is owner-only and the caller is not the owner",
      };
      expect(policy.check(secret, { isOwner: false })).toEqual(rejected);
      expect(policy.check(secret, {})).toEqual(rejected);
    });

    it('still applies the layers to the owner', () => {
      const strict = createPolicy({ deny: ['gateway'] });
      expect(strict.check(secret, { isOwner: true })).toMatchObject({ allowed: false, by: 'policy' });
    });
  });

  describe('malformed tools', () => {
    const policy = createPolicy({});

    it('rejects a tool whose id disagrees with its fields', () => {
      const forged = { id: 'openclaw:core:read', source: 'mcp', owner: 'evil', name: 'read' } as const;
      expect(policy.check(forged, {})).toMatchObject({ allowed: false, by: 'policy', layer: 'tool', rule: 'malformed' });
    });

    it('rejects a tool with an unknown source or a non-boolean ownerOnly', () => {
      const badSource = { id: 'web:x:y', source: 'web', owner: 'x', name: 'y' } as unknown as PolicyTool;
      const badOwnerOnly = { ...exec, ownerOnly: 'no' } as unknown as PolicyTool;
      expect(policy.check(badSource, {}).allowed).toBe(false);
      expect(policy.check(badOwnerOnly, {}).allowed).toBe(false);
    });

    it('drops a malformed tool from filter and keeps the rest', () => {
      const forged = { id: 'x', source: 'mcp', owner: 'a', name: 'b' } as const;
      expect(policy.filter([read, forged, exec], {})).toEqual([read, exec]);
    });
  });

  describe('filter', () => {
    it('keeps input order and returns the same objects', () => {
      const policy = createPolicy({ deny: ['read'] });
      const tools = [githubList, read, exec, browserOpen];
      const admitted = policy.filter(tools, {});
      expect(admitted).toEqual([githubList, exec, browserOpen]);
      expect(admitted[0]).toBe(githubList);
    });

    it('throws a PolicyError for a misspelt context field', () => {
      const policy = createPolicy({ agents: { main: { deny: ['exec'] } } });
      let caught: unknown;
      try {
        policy.filter([exec], { agentID: 'main' } as unknown as PolicyContext);
      } catch (error) {
        caught = error;
      }
      expect(isPolicyError(caught)).toBe(true);
      expect(caught).toMatchObject({ code: 'invalid_argument' });
    });
  });

  describe('filter over many layer combinations', () => {
    it('stays exact after more combinations than it keeps fused', () => {
      const agents = Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`a${index}`, { deny: [`tool_${index}`] }]));
      const policy = createPolicy({ agents, sessions: { s: { deny: ['tool_1'] } } });
      const tools = [tool('mcp:x:tool_0'), tool('mcp:x:tool_1'), tool('mcp:x:tool_299')];
      for (const round of [0, 1]) {
        for (let index = 0; index < 300; index++) {
          const admitted = policy.filter(tools, { agentId: `a${index}`, sessionId: round === 0 ? 's' : 'other' }).map((admittedTool) => admittedTool.name);
          const expected = tools.map((candidate) => candidate.name).filter((name) => name !== `tool_${index}` && (round === 1 || name !== 'tool_1'));
          expect(admitted).toEqual(expected);
        }
      }
    });
  });

  describe('approvalRequirement', () => {
    it('returns the first applicable requireApproval rule and its layer', () => {
      const policy = createPolicy({ requireApproval: ['write'], agents: { main: { requireApproval: ['group:runtime'] } } });
      expect(policy.approvalRequirement(exec, { agentId: 'main' })).toEqual({ layer: 'agents.main', rule: 'group:runtime' });
      expect(policy.approvalRequirement(exec, {})).toBeUndefined();
    });
  });

  describe('hint patterns', () => {
    const mcp = (name: string, extra: Partial<PolicyTool> = {}) => tool(`mcp:fs:${name}`, extra);
    const deleteFile = mcp('delete_file', { annotations: { destructiveHint: true } });
    const addNote = mcp('add_note', { annotations: { destructiveHint: false, openWorldHint: false } });
    const readFile = mcp('read_file', { annotations: { readOnlyHint: true } });
    const bare = mcp('bare');
    const trustedRead = tool('plugin:acme:lookup', { trusted: true, annotations: { readOnlyHint: true } });

    it('denies an untrusted tool whose hint says so', () => {
      const policy = createPolicy({ deny: ['hint:destructive'] });
      expect(policy.check(deleteFile, {})).toEqual({
        allowed: false,
        by: 'policy',
        layer: 'global',
        rule: 'deny:hint:destructive',
        reason: "tool 'mcp:fs:delete_file' is denied by 'hint:destructive' in global",
      });
      expect(policy.check(addNote, {})).toEqual({ allowed: true });
    });

    it('reads an absent hint as the spec default in deny: destructive and open-world unless stated otherwise', () => {
      const destructive = createPolicy({ deny: ['hint:destructive'] });
      const openWorld = createPolicy({ deny: ['hint:openWorld'] });
      expect(destructive.check(bare, {})).toMatchObject({ allowed: false, rule: 'deny:hint:destructive' });
      expect(openWorld.check(bare, {})).toMatchObject({ allowed: false, rule: 'deny:hint:openWorld' });
      expect(openWorld.check(addNote, {}).allowed).toBe(true);
      // The defaults apply whatever the trust: the host's own tools need annotations to pass.
      expect(destructive.check(exec, {})).toMatchObject({ allowed: false, rule: 'deny:hint:destructive' });
    });

    it("says when a hint rule refused a tool by the spec's default, not by what the tool states", () => {
      const destructive = createPolicy({ deny: ['hint:destructive'] });
      expect(destructive.check(bare, {})).toMatchObject({
        reason: "tool 'mcp:fs:bare' is denied by 'hint:destructive' in global (no annotations: MCP's default destructiveHint is true)",
      });
      const partly = mcp('partly', { annotations: { openWorldHint: false } });
      expect(destructive.check(partly, {})).toMatchObject({
        reason: "tool 'mcp:fs:partly' is denied by 'hint:destructive' in global (not stated in its annotations: MCP's default destructiveHint is true)",
      });
      expect(createPolicy({ deny: ['hint:openWorld'] }).check(bare, {})).toMatchObject({
        reason: "tool 'mcp:fs:bare' is denied by 'hint:openWorld' in global (no annotations: MCP's default openWorldHint is true)",
      });
      // A stated hint needs no note.
      expect(destructive.check(deleteFile, {})).toMatchObject({ reason: "tool 'mcp:fs:delete_file' is denied by 'hint:destructive' in global" });
    });

    it('reads an absent hint as the spec default in deny: not read-only and not idempotent', () => {
      expect(createPolicy({ deny: ['hint:readOnly'] }).check(bare, {}).allowed).toBe(true);
      expect(createPolicy({ deny: ['hint:idempotent'] }).check(bare, {}).allowed).toBe(true);
      expect(createPolicy({ deny: ['hint:readOnly'] }).check(readFile, {}).allowed).toBe(false);
    });

    it('reads a read-only tool that states nothing more as not destructive and idempotent', () => {
      expect(createPolicy({ deny: ['hint:destructive'] }).check(readFile, {}).allowed).toBe(true);
      expect(createPolicy({ deny: ['hint:idempotent'] }).check(readFile, {}).allowed).toBe(false);
    });

    it('requires approval by hint, absent hints read as the spec default', () => {
      const policy = createPolicy({ agents: { main: { requireApproval: ['hint:destructive'] } } });
      expect(policy.approvalRequirement(deleteFile, { agentId: 'main' })).toEqual({ layer: 'agents.main', rule: 'hint:destructive' });
      expect(policy.approvalRequirement(bare, { agentId: 'main' })).toEqual({
        layer: 'agents.main',
        rule: 'hint:destructive',
        note: "no annotations: MCP's default destructiveHint is true",
      });
      expect(policy.approvalRequirement(mcp('partly', { annotations: { openWorldHint: false } }), { agentId: 'main' })).toEqual({
        layer: 'agents.main',
        rule: 'hint:destructive',
        note: "not stated in its annotations: MCP's default destructiveHint is true",
      });
      expect(policy.approvalRequirement(readFile, { agentId: 'main' })).toBeUndefined();
      expect(policy.approvalRequirement(addNote, { agentId: 'main' })).toBeUndefined();
    });

    it('never admits an untrusted tool through an allow hint, and says why', () => {
      const policy = createPolicy({ allow: ['hint:readOnly'] });
      expect(policy.check(readFile, {})).toEqual({
        allowed: false,
        by: 'policy',
        layer: 'global',
        rule: 'allow',
        reason:
          "tool 'mcp:fs:read_file' is not in the allow list of global (its annotation hints do not count toward an allow list: the tool is not trusted)",
      });
      expect(policy.check({ ...readFile, trusted: false }, {}).allowed).toBe(false);
    });

    it('admits a trusted tool through an allow hint it states', () => {
      const policy = createPolicy({ allow: ['hint:readOnly'] });
      expect(policy.check(trustedRead, {})).toEqual({ allowed: true });
      expect(policy.check({ ...trustedRead, annotations: { readOnlyHint: false } }, {})).toMatchObject({ allowed: false, rule: 'allow' });
      // readOnly defaults to false, so a trusted tool without annotations is not admitted by it.
      expect(policy.check(tool('plugin:acme:x', { trusted: true }), {})).toMatchObject({ allowed: false, rule: 'allow' });
    });

    it('composes with name, id and group patterns in the same list', () => {
      const policy = createPolicy({ allow: ['hint:readOnly', 'mcp:fs:add_*', 'group:fs'] });
      expect(policy.filter([readFile, addNote, read, exec, trustedRead], {})).toEqual([addNote, read, trustedRead]);
    });

    it('gives a hint inside a group the meaning of the list that uses the group', () => {
      const policy = createPolicy({
        groups: { 'group:safe': ['hint:readOnly', 'list_*'] },
        allow: ['group:safe'],
        agents: { main: { deny: ['group:safe'] } },
      });
      expect(policy.check(readFile, {})).toMatchObject({ allowed: false, rule: 'allow' });
      expect(policy.check(trustedRead, {}).allowed).toBe(true);
      expect(policy.check(trustedRead, { agentId: 'main' })).toMatchObject({ allowed: false, rule: 'deny:group:safe' });
    });

    it('lets an untrusted hint tighten but not loosen: deny by hint still beats an id allow', () => {
      const policy = createPolicy({ allow: ['mcp:fs:*'], deny: ['hint:destructive'] });
      expect(policy.filter([deleteFile, addNote, readFile, bare], {})).toEqual([addNote, readFile]);
    });

    it('rejects a tool with malformed annotations or trust as malformed', () => {
      const policy = createPolicy({});
      const badHint = { ...bare, annotations: { readOnlyHint: 'yes' } } as unknown as PolicyTool;
      const badTrust = { ...bare, trusted: 1 } as unknown as PolicyTool;
      expect(policy.check(badHint, {})).toMatchObject({ allowed: false, layer: 'tool', rule: 'malformed' });
      expect(policy.check(badTrust, {})).toMatchObject({ allowed: false, layer: 'tool', rule: 'malformed' });
      expect(policy.filter([badHint, bare, badTrust], {})).toEqual([bare]);
    });
  });

  describe('scopeKey', () => {
    const policy = createPolicy({
      agents: { main: { deny: ['exec'] }, '*': { deny: ['write'] } },
      sessions: { s1: { allow: ['read'] } },
    });

    it('ignores context fields that select no layer', () => {
      const base = policy.scopeKey({ agentId: 'main' });
      expect(policy.scopeKey({ agentId: 'main', sessionId: 'other', senderId: 'u1', channel: 'x' })).toBe(base);
      expect(policy.scopeKey({ agentId: 'main', isOwner: false })).toBe(base);
    });

    it('differs when the applicable layers differ', () => {
      const keys = [{}, { agentId: 'main' }, { agentId: 'other' }, { agentId: 'main', sessionId: 's1' }].map((context) => policy.scopeKey(context));
      expect(new Set(keys).size).toBe(4);
    });

    it('differs for the owner', () => {
      expect(policy.scopeKey({ isOwner: true })).not.toBe(policy.scopeKey({}));
    });

    it('never matches a key of another policy object, even one built from the same config', () => {
      const twin = createPolicy(policy.config);
      expect(twin.scopeKey({})).not.toBe(policy.scopeKey({}));
      expect(policy.scopeKey({})).toBe(policy.scopeKey({}));
    });

    it('throws a PolicyError for a misspelt context field', () => {
      let caught: unknown;
      try {
        policy.scopeKey({ sessionID: 's1' } as unknown as PolicyContext);
      } catch (error) {
        caught = error;
      }
      expect(isPolicyError(caught)).toBe(true);
      expect(caught).toMatchObject({ code: 'invalid_argument', message: 'invalid policy context at context: Unrecognized key: "sessionID"' });
    });
  });

  describe('logging', () => {
    it('logs a verdict with toolId, by, layer, rule and durationMs', () => {
      const lines: Record<string, unknown>[] = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          callback();
        },
      });
      const policy = createPolicy({ deny: ['exec'] }, { logger: pino({ level: 'debug' }, stream) });
      policy.check(exec, {});
      const line = lines.find((entry) => entry.msg === 'tool rejected');
      expect(line).toMatchObject({ pkg: 'policy', toolId: 'openclaw:core:exec', by: 'policy', layer: 'global', rule: 'deny:exec' });
      expect(typeof line?.durationMs).toBe('number');
    });
  });

  it('exposes the validated config and every known group', () => {
    const policy = createPolicy({ groups: { 'group:Mine': ['x'] } });
    expect(policy.groups['group:mine']).toEqual(['x']);
    expect(policy.groups['group:fs']).toContain('openclaw:*:read');
    expect(policy.config).toEqual({ groups: { 'group:Mine': ['x'] } });
  });

  it('throws at construction for broken default hooks', () => {
    expect(() => createPolicy({}, { hooks: [{ id: '', run: () => undefined }] })).toThrow(/options\.hooks\[0\]/);
  });
});
