import { describe, expect, it } from 'vitest';
import type { PolicyTool } from '../types';
import { checkToolShape } from './check-tool-shape';

const valid: PolicyTool = { id: 'mcp:github:list_issues', source: 'mcp', owner: 'github', name: 'list_issues' };

describe('checkToolShape', () => {
  it('accepts a tool whose id is <source>:<owner>:<name>', () => {
    expect(checkToolShape(valid)).toBeUndefined();
    expect(checkToolShape({ ...valid, ownerOnly: true })).toBeUndefined();
  });

  it.each([
    ['a shifted separator', 'mcp:githu:blist_issues'],
    ['a missing separator', 'mcp:githublist_issues'],
    ['a different owner', 'mcp:gitlab:list_issues'],
    ['a longer id', 'mcp:github:list_issues2'],
    ['a different source', 'plugin:github:list_issues'],
  ])('rejects %s', (_label, id) => {
    expect(checkToolShape({ ...valid, id })).toBe("the id does not equal '<source>:<owner>:<name>'");
  });

  it('rejects a non-string id, an empty owner, a NUL in a name and an unknown source', () => {
    expect(checkToolShape({ ...valid, id: 42 } as unknown as PolicyTool)).toBeDefined();
    expect(checkToolShape({ ...valid, owner: '', id: 'mcp::list_issues' })).toBeDefined();
    expect(checkToolShape({ ...valid, name: 'a\u0000b', id: 'mcp:github:a\u0000b' })).toBeDefined();
    expect(checkToolShape({ ...valid, source: 'web' } as unknown as PolicyTool)).toBeDefined();
  });

  it('rejects a non-boolean trusted flag and malformed annotations', () => {
    expect(checkToolShape({ ...valid, trusted: 'yes' } as unknown as PolicyTool)).toBe('trusted must be a boolean when present');
    expect(checkToolShape({ ...valid, annotations: { destructiveHint: 'no' } } as unknown as PolicyTool)).toBe(
      'annotations.destructiveHint must be a boolean when present',
    );
    expect(checkToolShape({ ...valid, trusted: false, annotations: { readOnlyHint: true } })).toBeUndefined();
  });
});
