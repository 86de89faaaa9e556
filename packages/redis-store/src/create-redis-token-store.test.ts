import { describe, expect, it } from 'vitest';
import { createRedisTokenStore, type RedisKeyValue } from './create-redis-token-store.js';

/** A fake Redis that records the commands it receives. */
function fakeRedis(): RedisKeyValue & { commands: string[]; values: Map<string, string> } {
  const values = new Map<string, string>();
  const commands: string[] = [];
  return {
    commands,
    values,
    async get(key) {
      commands.push(`GET ${key}`);
      return values.get(key) ?? null;
    },
    async set(key, value, options) {
      commands.push(`SET ${key}${options === undefined ? '' : ' NX'}`);
      if (options !== undefined && values.has(key)) return null;
      values.set(key, value);
      return 'OK';
    },
    async eval(_script, options) {
      commands.push(`EVAL ${options.keys.join(' ')}`);
      if (values.get(options.keys[0] as string) === options.arguments[0]) values.delete(options.keys[0] as string);
      return 1;
    },
    async del(key) {
      commands.push(`DEL ${key}`);
      return values.delete(key) ? 1 : 0;
    },
  };
}

describe('createRedisTokenStore', () => {
  it('keeps each server under its own prefixed key, as JSON, and forgets it on delete', async () => {
    const redis = fakeRedis();
    const store = createRedisTokenStore(redis, { keyPrefix: 'gw1:' });
    const state = { serverUrl: 'https://mcp.example/mcp', tokens: { access_token: 'a', token_type: 'bearer', refresh_token: 'r' } };
    await store.save('linear', state);
    expect(await store.load('linear')).toEqual(state);
    expect(await store.load('github')).toBeUndefined();
    await store.delete('linear');
    expect(await store.load('linear')).toBeUndefined();
    expect(redis.commands).toEqual(['SET gw1:oauth:linear', 'GET gw1:oauth:linear', 'GET gw1:oauth:github', 'DEL gw1:oauth:linear', 'GET gw1:oauth:linear']);
  });

  it('reads unreadable state as absent (the user is asked again) and uses the default prefix', async () => {
    const redis = fakeRedis();
    redis.values.set('tool-search:oauth:broken', '{not json');
    redis.values.set('tool-search:oauth:foreign', JSON.stringify({ tokens: {} }));
    const store = createRedisTokenStore(redis);
    expect(await store.load('broken')).toBeUndefined();
    expect(await store.load('foreign')).toBeUndefined();
  });
});
