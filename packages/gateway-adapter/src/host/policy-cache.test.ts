import { createCatalog, type CatalogView } from '@tool-search/catalog';
import { createPolicy, isPolicyError, type Policy } from '@tool-search/policy';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { PolicyCache } from './policy-cache.js';

const catalog = createCatalog([
  { name: 'read_file', source: 'openclaw', owner: 'core', description: 'Read a file.' },
  { name: 'write_file', source: 'openclaw', owner: 'core', description: 'Write a file.' },
]);

/** A cache over a real catalog that records every view it had to build. */
function recordingCache(capacity: number) {
  const built: Array<{ policy: Policy; context: object }> = [];
  const cache = new PolicyCache({
    capacity,
    logger: pino({ level: 'silent' }),
    buildView: (policy, context, limits): CatalogView => {
      built.push({ policy, context });
      return catalog.view((tool) => policy.check(tool, context).allowed, limits);
    },
  });
  return { cache, built };
}

describe('PolicyCache', () => {
  it('finds the same compiled policy and view for equal content, and builds another for another scope', () => {
    const { cache, built } = recordingCache(4);
    const first = cache.resolve({ deny: ['read_file'], agents: { main: { deny: ['write_file'] } } });
    const second = cache.resolve({ agents: { main: { deny: ['write_file'] } }, deny: ['read_file'] });
    expect(second.shared).toBe(first.shared);
    expect(second.key).toBe(first.key);
    const view = cache.view(first, {}, {});
    expect(cache.view(second, { sessionId: 'another' }, {})).toBe(view);
    expect(view.list().map((tool) => tool.id)).toEqual(['openclaw:core:write_file']);
    expect(cache.view(second, { agentId: 'main' }, {}).size).toBe(0);
    expect(cache.view(second, {}, { searchDefaultLimit: 3 })).not.toBe(view);
    expect(built).toHaveLength(3);
    expect(cache.status()).toEqual({ policies: 1, views: 3, capacity: 4 });
  });

  it('evicts the least recently used entry: a hit makes an entry recent again', () => {
    const { cache } = recordingCache(2);
    const a = cache.resolve({ deny: ['a'] }).shared;
    const b = cache.resolve({ deny: ['b'] }).shared;
    expect(cache.resolve({ deny: ['a'] }).shared).toBe(a);
    cache.resolve({ deny: ['c'] });
    expect(cache.resolve({ deny: ['a'] }).shared).toBe(a);
    expect(cache.resolve({ deny: ['b'] }).shared).not.toBe(b);
    expect(cache.status().policies).toBe(2);
  });

  it('keeps nothing at capacity 0, and still answers', () => {
    const { cache, built } = recordingCache(0);
    const first = cache.resolve({ deny: ['read_file'] });
    expect(cache.resolve({ deny: ['read_file'] }).shared).not.toBe(first.shared);
    expect(cache.view(first, {}, {}).list().map((tool) => tool.id)).toEqual(['openclaw:core:write_file']);
    cache.view(first, {}, {});
    expect(built).toHaveLength(2);
    expect(cache.status()).toEqual({ policies: 0, views: 0, capacity: 0 });
  });

  it('never finds a view built for a policy object that left the cache, even for the same content', () => {
    const { cache, built } = recordingCache(1);
    const first = cache.resolve({ deny: ['read_file'] });
    cache.view(first, {}, {});
    cache.resolve({ deny: ['write_file'] });
    const again = cache.resolve({ deny: ['read_file'] });
    expect(again.shared).not.toBe(first.shared);
    cache.view(again, {}, {});
    expect(built.map((entry) => entry.policy)).toEqual([first.shared, again.shared]);
  });

  it('throws the policy package\'s error for an invalid config, and caches nothing for it', () => {
    const { cache } = recordingCache(2);
    let thrown: unknown;
    try {
      cache.resolve({ deny: ['a:b'] });
    } catch (error) {
      thrown = error;
    }
    expect(isPolicyError(thrown) && thrown.path).toBe('deny[0]');
    expect(cache.status().policies).toBe(0);
  });

  it('hands out a canonical copy that compiles to what the shared policy answers', () => {
    const { cache } = recordingCache(2);
    const resolved = cache.resolve({ deny: ['read_file'] });
    const tool = { id: 'openclaw:core:read_file', name: 'read_file', source: 'openclaw', owner: 'core' } as const;
    expect(createPolicy(resolved.config).check(tool, {})).toEqual(resolved.shared.check(tool, {}));
    expect(Object.isFrozen(resolved.config)).toBe(true);
  });
});
