import { describe, expect, it } from 'vitest';
import { compilePatternSet, toMatchTarget } from './compile-pattern-set';
import { parsePattern, type ParsedPattern } from './pattern-syntax';

function set(...patterns: string[]) {
  return compilePatternSet(patterns.map((pattern) => ({ pattern, leaves: [parsePattern(pattern) as ParsedPattern] })));
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
    expect(compilePatternSet([{ pattern, leaves: [leaf] }]).matches(target(id))).toBe(expected);
  });
});
