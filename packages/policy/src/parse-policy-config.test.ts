import { describe, expect, it } from 'vitest';
import { isPolicyError, type PolicyError } from './errors';
import { parsePolicyConfig } from './parse-policy-config';

function configError(input: unknown, groups?: Record<string, string[]>): PolicyError {
  try {
    parsePolicyConfig(input, { groups });
  } catch (error) {
    if (isPolicyError(error)) return error;
    throw error;
  }
  throw new Error('expected parsePolicyConfig to throw');
}

describe('parsePolicyConfig', () => {
  it('returns a clean copy of a valid config', () => {
    const input = { allow: ['group:fs'], agents: { main: { deny: ['exec'], requireApproval: ['write'] } } };
    const parsed = parsePolicyConfig(input);
    expect(parsed).toEqual(input);
    expect(parsed).not.toBe(input);
  });

  it('rejects an unknown key, naming its path', () => {
    const error = configError({ agents: { main: { denny: ['exec'] } } });
    expect(error.code).toBe('invalid_config');
    expect(error.path).toBe('agents.main');
    expect(error.message).toContain('agents.main');
    expect(error.message).toContain('denny');
  });

  it('rejects a non-string pattern, naming its index', () => {
    expect(configError({ deny: ['exec', 42] }).path).toBe('deny[1]');
  });

  it('rejects an unknown group, naming its path and listing the known ones', () => {
    const error = configError({ sandboxes: { box: { deny: ['group:fss'] } } });
    expect(error.path).toBe('sandboxes.box.deny[0]');
    expect(error.message).toContain("unknown group 'group:fss'");
    expect(error.message).toContain('group:fs');
  });

  it.each([
    ['', 'must not be empty'],
    ['has space', 'whitespace'],
    ['mcp:github', '2 segments'],
    ['a:b:c:d', '4 segments'],
    ['mcp::x', 'owner segment is empty'],
    ['web:x:y', "unknown source 'web'"],
    ['exe?', "'?' is not supported"],
    ['mcp:**:x', "'**' is not supported"],
    ['[ab]', "'[' is not supported"],
  ])('rejects the invalid pattern %j', (pattern, message) => {
    const error = configError({ channels: { 'my channel': { allow: [pattern] } } });
    expect(error.path).toBe('channels["my channel"].allow[0]');
    expect(error.message).toContain(message);
  });

  it('rejects an unknown hint, naming its path and the hints it expected', () => {
    const error = configError({ allow: ['read', 'write', 'hint:destrutive'] });
    expect(error.path).toBe('allow[2]');
    expect(error.message).toBe(
      "invalid policy config at allow[2]: invalid pattern 'hint:destrutive': unknown hint 'destrutive'; expected one of 'readOnly', 'destructive', 'idempotent', 'openWorld'",
    );
  });

  it.each([['hint:'], ['hint:*'], ['hint:read*'], ['hint:destructive:x']])('rejects the hint pattern %j', (pattern) => {
    const error = configError({ agents: { main: { requireApproval: [pattern] } } });
    expect(error.path).toBe('agents.main.requireApproval[0]');
    expect(error.message).toContain('unknown hint');
  });

  it('tells a user who wrote the annotation key which hint to write', () => {
    expect(configError({ deny: ['hint:destructiveHint'] }).message).toContain("write 'hint:destructive'");
  });

  it('rejects an unknown hint inside a group, naming the member', () => {
    expect(configError({ groups: { 'group:risky': ['exec', 'hint:openword'] } }).path).toBe('groups["group:risky"][1]');
  });

  it('accepts every hint in any case, in every list and in groups', () => {
    const input = {
      groups: { 'group:risky': ['hint:destructive', 'exec'] },
      allow: ['hint:readOnly', 'hint:READONLY'],
      deny: ['hint:openworld'],
      requireApproval: ['hint:Idempotent', 'group:risky'],
    };
    expect(parsePolicyConfig(input)).toEqual(input);
  });

  it('accepts a glob in the source segment', () => {
    expect(parsePolicyConfig({ deny: ['*:*:delete_*'] })).toEqual({ deny: ['*:*:delete_*'] });
  });

  it('rejects a group that redefines a built-in one', () => {
    const error = configError({ groups: { 'group:fs': ['read'] } });
    expect(error.path).toBe('groups["group:fs"]');
    expect(error.message).toContain('redefines a built-in group');
  });

  it('rejects a config group that redefines a host group', () => {
    const error = configError({ groups: { 'group:mine': ['a'] } }, { 'group:MINE': ['b'] });
    expect(error.path).toBe('groups["group:mine"]');
    expect(error.message).toContain('options.groups');
  });

  it('rejects a malformed group key', () => {
    expect(configError({ groups: { fs2: ['read'] } }).message).toContain("'group:<name>'");
  });

  it('rejects a group cycle, naming the member that closes it', () => {
    const error = configError({ groups: { 'group:a': ['x', 'group:b'], 'group:b': ['group:a'] } });
    expect(error.message).toContain('cycle');
    expect(error.path).toMatch(/^groups\["group:[ab]"\]\[\d\]$/);
  });

  it('rejects an invalid pattern inside a group, naming the member', () => {
    expect(configError({ groups: { 'group:a': ['ok', 'mcp:x'] } }).path).toBe('groups["group:a"][1]');
  });

  it('validates host groups under options.groups', () => {
    expect(configError({}, { 'group:host': ['a b'] }).path).toBe('options.groups["group:host"][0]');
  });

  it('collects every problem in issues', () => {
    const error = configError({ deny: ['group:nope'], agents: { a: { allow: ['x:y'] } } });
    expect(error.issues.map((issue) => issue.path)).toEqual(['deny[0]', 'agents.a.allow[0]']);
    expect(error.message).toContain('and 1 more problem');
  });

  it('rejects a non-object config', () => {
    expect(configError(['deny']).code).toBe('invalid_config');
    expect(configError(null).code).toBe('invalid_config');
  });
});
