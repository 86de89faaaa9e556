import { describe, expect, it } from 'vitest';
import { assignModelNames, MODEL_NAME_PATTERN, toSafeName } from './assign-model-names.js';

describe('toSafeName', () => {
  it('keeps a name that fits', () => {
    expect(toSafeName('create_issue-v2')).toBe('create_issue-v2');
  });

  it('replaces dots, slashes and spaces with underscores', () => {
    expect(toSafeName('facebook/bart.large cnn')).toBe('facebook_bart_large_cnn');
  });

  it('cuts a long name to 64 characters with a stable hash tag', () => {
    const name = toSafeName('n'.repeat(90));
    expect(name).toHaveLength(64);
    expect(name).toMatch(MODEL_NAME_PATTERN);
    expect(toSafeName('n'.repeat(90))).toBe(name);
    expect(toSafeName('n'.repeat(91))).not.toBe(name);
  });
});

describe('assignModelNames', () => {
  it('qualifies every catalog tool sharing a name with its owner', () => {
    const names = assignModelNames(
      [
        { id: 'plugin:jira:search', name: 'search', owner: 'jira', pinned: false },
        { id: 'mcp:linear:search', name: 'search', owner: 'linear', pinned: false },
      ],
      new Set(),
    );
    expect([...names]).toEqual([
      ['mcp:linear:search', 'linear__search'],
      ['plugin:jira:search', 'jira__search'],
    ]);
  });

  it('never hands out a reserved name', () => {
    const names = assignModelNames([{ id: 'plugin:x:tool_call', name: 'tool_call', owner: 'x', pinned: false }], new Set(['tool_call']));
    expect(names.get('plugin:x:tool_call')).toBe('x__tool_call');
  });

  it('falls back to a hash when the qualified name is taken too', () => {
    const names = assignModelNames(
      [
        { id: 'plugin:a:b.c', name: 'b.c', owner: 'a', pinned: false },
        { id: 'plugin:a:b_c', name: 'b_c', owner: 'a', pinned: false },
        { id: 'plugin:z:a__b_c', name: 'a__b_c', owner: 'z', pinned: true },
      ],
      new Set(),
    );
    const assigned = [...names.values()];
    expect(new Set(assigned).size).toBe(3);
    expect(names.get('plugin:z:a__b_c')).toBe('a__b_c');
    expect(assigned.every((name) => MODEL_NAME_PATTERN.test(name))).toBe(true);
  });

  it('does not depend on input order', () => {
    const requests = [
      { id: 'plugin:a:x.y', name: 'x.y', owner: 'a', pinned: false },
      { id: 'plugin:b:x_y', name: 'x_y', owner: 'b', pinned: false },
      { id: 'client:c:x_y', name: 'x_y', owner: 'c', pinned: true },
    ];
    expect([...assignModelNames(requests, new Set())].sort()).toEqual([...assignModelNames([...requests].reverse(), new Set())].sort());
  });
});
