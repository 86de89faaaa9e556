import { describe, expect, it } from 'vitest';
import { compilePatternSet, toMatchTarget } from './compile-pattern-set';
import { parsePattern, type ParsedPattern } from './pattern-syntax';
import { HINT_BITS, type HintName } from './tool-hints';

function set(...patterns: string[]) {
  return compilePatternSet(patterns.map((pattern) => ({ pattern, leaves: [parsePattern(pattern) as ParsedPattern] })), 'restrict');
}

const target = (id: string) => {
  const [source, owner, ...rest] = id.split(':');
  return toMatchTarget(source!, owner!, rest.join(':'));
};

describe('compilePatternSet', () => {
  it.each([
    ['*', 'mcp:github:anything', true],
    ['*:*:*', 'client:app:x', true],
    ['read', 'openclaw:core:read', true],
    ['read', 'openclaw:core:reader', false],
    ['read_*', 'openclaw:core:read_file', true],
    ['*_file', 'openclaw:core:read_file', true],
    ['mcp:*:*', 'mcp:github:x', true],
    ['mcp:*:*', 'plugin:github:x', false],
    ['mcp:github:*', 'mcp:github:x', true],
    ['mcp:github:*', 'mcp:gitlab:x', false],
    ['mcp:github:create_issue', 'mcp:github:create_issue', true],
    ['mcp:github:create_issue', 'mcp:github:create_issues', false],
    ['plugin:*:browser_*', 'plugin:acme:browser_open', true],
    ['plugin:*:browser_*', 'plugin:acme:open_browser', false],
    ['*:git*:*', 'mcp:github:x', true],
    ['*:git*:*', 'mcp:bitbucket:x', false],
    ['mcp:*:*', 'mcp:srv:a:b', true],
    ['mcp:srv:a', 'mcp:srv:a:b', false],
    ['a.b', 'mcp:srv:aXb', false],
    ['a.b', 'mcp:srv:a.b', true],
  ])('matches %j against %j: %s', (pattern, id, expected) => {
    expect(set(pattern).matches(target(id))).toBe(expected);
  });

  it('returns the first matching pattern as written', () => {
    const patterns = set('exec', 'MCP:GitHub:*', 'mcp:*:*');
    expect(patterns.firstMatch(target('mcp:github:list'))).toBe('MCP:GitHub:*');
    expect(patterns.firstMatch(target('plugin:x:y'))).toBeUndefined();
  });

  it('never lets a glob in one field reach into the next', () => {
    expect(set('mcp:git*:list').matches(target('mcp:github:x:list'))).toBe(false);
  });
});

describe('compilePatternSet buckets', () => {
  it.each([
    ['*x*', 'mcp:s:x', true],
    ['*x*', 'mcp:s:axb', true],
    ['*x*', 'mcp:s:ab', false],
    ['**', 'mcp:s:ab', true],
    ['a*b', 'mcp:s:ab', true],
    ['a*b', 'mcp:s:axxb', true],
    ['a*b', 'mcp:s:ba', false],
    ['*a*b*', 'mcp:s:xaybz', true],
    ['*a*b*', 'mcp:s:ba', false],
    ['openclaw:*:exec', 'openclaw:core:exec', true],
    ['openclaw:*:exec', 'openclaw:core:exec2', false],
    ['openclaw:*:exec', 'plugin:core:exec', false],
  ])('matches %j against %j: %s', (pattern, id, expected) => {
    const leaf = pattern === '**' ? ({ kind: 'name', name: '**' } as const) : (parsePattern(pattern) as ParsedPattern);
    expect(compilePatternSet([{ pattern, leaves: [leaf] }], 'restrict').matches(target(id))).toBe(expected);
  });
});

describe('compilePatternSet id buckets by source', () => {
  it.each([
    ['mcp:github:create_*', 'mcp:github:create_issue', true],
    ['mcp:github:create_*', 'mcp:gitlab:create_issue', false],
    ['mcp:github:create_*', 'plugin:github:create_issue', false],
    ['mcp:server2*:*', 'mcp:server21:x', true],
    ['mcp:server2*:*', 'mcp:server3:x', false],
    ['mcp:server2*:*', 'client:server21:x', false],
    ['plugin:*:run_*', 'plugin:a:run_job', true],
    ['plugin:*:run_*', 'mcp:a:run_job', false],
    ['mcp:git*:list', 'mcp:github:list', true],
    ['mcp:git*:list', 'mcp:github:lists', false],
    ['mcp:git*:l*t', 'mcp:github:list', true],
    ['*:github:*', 'client:github:x', true],
    ['*:github:*', 'client:gitlab:x', false],
  ])('matches %j against %j: %s', (pattern, id, expected) => {
    expect(set(pattern).matches(target(id))).toBe(expected);
  });
});

describe('compilePatternSet hints', () => {
  const destructive = (trusted: boolean) => toMatchTarget('mcp', 'fs', 'rm', HINT_BITS.destructive, trusted);
  const hint = (name: HintName) => ({ pattern: `hint:${name}`, leaves: [{ kind: 'hint', hint: name } as const] });

  it('counts stated hints in a restricting set, trusted or not', () => {
    const deny = compilePatternSet([hint('destructive')], 'restrict');
    expect(deny.matches(destructive(false))).toBe(true);
    expect(deny.matches(destructive(true))).toBe(true);
    expect(deny.firstMatch(destructive(false))).toBe('hint:destructive');
  });

  it('counts hints in an admitting set only for a trusted tool', () => {
    const allow = compilePatternSet([hint('destructive')], 'admit');
    expect(allow.matches(destructive(true))).toBe(true);
    expect(allow.matches(destructive(false))).toBe(false);
    expect(allow.firstMatch(destructive(false))).toBeUndefined();
    expect(allow.matchesStated(destructive(false))).toBe(true);
  });

  it('matches no tool whose hint bits lack the named hint', () => {
    expect(compilePatternSet([hint('readOnly')], 'restrict').matches(destructive(true))).toBe(false);
  });
});
