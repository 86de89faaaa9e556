import { describe, expect, it } from 'vitest';
import { createPolicy } from './create-policy';
import { isPolicy } from './is-policy';

describe('isPolicy', () => {
  it('tells a compiled policy from its config and from anything else', () => {
    const config = { deny: ['mcp:*:delete_*'] };
    expect(isPolicy(createPolicy(config))).toBe(true);
    expect(isPolicy(config)).toBe(false);
    expect(isPolicy({ check: () => ({ allowed: true }) })).toBe(false);
    for (const other of [undefined, null, 'policy', 42, []]) expect(isPolicy(other)).toBe(false);
  });
});
