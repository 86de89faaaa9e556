import { describe, expect, it } from 'vitest';
import { isTrustedByDefault } from './is-trusted-by-default.js';
import { TOOL_SOURCES } from './tool-id.js';

describe('isTrustedByDefault', () => {
  it('trusts the host-installed sources openclaw and plugin', () => {
    expect(isTrustedByDefault('openclaw')).toBe(true);
    expect(isTrustedByDefault('plugin')).toBe(true);
  });

  it('does not trust mcp or client tools', () => {
    expect(isTrustedByDefault('mcp')).toBe(false);
    expect(isTrustedByDefault('client')).toBe(false);
  });

  it('answers for every source with a boolean', () => {
    expect(TOOL_SOURCES.map((source) => typeof isTrustedByDefault(source))).toEqual(['boolean', 'boolean', 'boolean', 'boolean']);
  });
});
