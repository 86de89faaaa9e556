import { describe, expect, it } from 'vitest';
import { canonicalizePolicyConfig } from './canonicalize-policy-config';
import { createPolicy } from './create-policy';
import { isPolicyError } from './errors';

describe('canonicalizePolicyConfig', () => {
  it('gives configs that differ only in key order and undefined fields one key', () => {
    const first = canonicalizePolicyConfig({ deny: ['exec'], agents: { main: { allow: ['read'], deny: ['write'] }, ops: {} } });
    const second = canonicalizePolicyConfig({ agents: { ops: {}, main: { deny: ['write'], allow: ['read'], requireApproval: undefined } }, allow: undefined, deny: ['exec'] });
    expect(second.key).toBe(first.key);
    expect(second.config).toEqual(first.config);
  });

  it('keeps the order of pattern lists, which names the rule a verdict reports', () => {
    const first = canonicalizePolicyConfig({ deny: ['exec', 'openclaw:*:*'] });
    const second = canonicalizePolicyConfig({ deny: ['openclaw:*:*', 'exec'] });
    expect(second.key).not.toBe(first.key);
    const tool = { id: 'openclaw:core:exec', source: 'openclaw', owner: 'core', name: 'exec' } as const;
    expect(createPolicy(first.config).check(tool, {})).toMatchObject({ rule: 'deny:exec' });
    expect(createPolicy(second.config).check(tool, {})).toMatchObject({ rule: 'deny:openclaw:*:*' });
  });

  it('tells configs apart that differ in a layer key, a pattern, a group or the groups option', () => {
    const keys = [
      canonicalizePolicyConfig({ agents: { main: { deny: ['exec'] } } }).key,
      canonicalizePolicyConfig({ agents: { Main: { deny: ['exec'] } } }).key,
      canonicalizePolicyConfig({ channels: { main: { deny: ['exec'] } } }).key,
      canonicalizePolicyConfig({ agents: { main: { deny: ['Exec'] } } }).key,
      canonicalizePolicyConfig({ agents: { main: { allow: ['exec'] } } }).key,
      canonicalizePolicyConfig({ agents: { main: { deny: ['exec'] } }, groups: { 'group:x': ['read'] } }).key,
      canonicalizePolicyConfig({ agents: { main: { deny: ['exec'] } } }, { groups: { 'group:x': ['read'] } }).key,
      canonicalizePolicyConfig({ agents: { main: { deny: ['exec'] } } }, { groups: { 'group:x': ['write'] } }).key,
      canonicalizePolicyConfig({ agents: { main: { deny: [] } } }).key,
      canonicalizePolicyConfig({ agents: { main: {} } }).key,
      canonicalizePolicyConfig({}).key,
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('returns a frozen copy whose content is exactly what the key names, whatever a getter answers later', () => {
    let reads = 0;
    const input = {
      get deny() {
        reads += 1;
        return reads === 1 ? ['exec'] : ['nothing'];
      },
    };
    const { config, key } = canonicalizePolicyConfig(input);
    expect(JSON.parse(key)).toEqual({ config });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.deny)).toBe(true);
    expect(() => (config.deny as string[]).push('read')).toThrow(TypeError);
    expect(canonicalizePolicyConfig(input).key).not.toBe(key);
  });

  it('validates like parsePolicyConfig, naming the path', () => {
    try {
      canonicalizePolicyConfig({ agents: { main: { deny: ['a:b'] } } });
      expect.unreachable('expected a PolicyError');
    } catch (error) {
      expect(isPolicyError(error) && error.code === 'invalid_config' && error.path).toBe('agents.main.deny[0]');
    }
  });
});
