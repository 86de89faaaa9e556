// The host's OAuth token store on Redis: one key per MCP server holding its state (tokens, registered client,
// discovery) as JSON. Replicas on the same Redis share it: a token one of them refreshed is the one the others read
// (the OAuth provider reads the store before each request).
import type { OAuthTokenStore, StoredOAuthState } from '@tool-search/gateway-adapter';

/** The Redis commands the token store uses (a node-redis client has them; a test may pass a fake). */
export interface RedisKeyValue {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

/** The default prefix of every key this package writes. */
export const DEFAULT_KEY_PREFIX = 'tool-search:';

/** Creates the store on `redis`; `keyPrefix` (default `tool-search:`) lets several gateways share one Redis. */
export function createRedisTokenStore(redis: RedisKeyValue, options: { keyPrefix?: string | undefined } = {}): OAuthTokenStore {
  const keyOf = (server: string) => `${options.keyPrefix ?? DEFAULT_KEY_PREFIX}oauth:${server}`;
  return {
    async load(server) {
      const text = await redis.get(keyOf(server));
      if (text === null) return undefined;
      try {
        const state = JSON.parse(text) as unknown;
        // Unreadable state is absent (as in the file store): the user is asked again rather than the host failing.
        return typeof state === 'object' && state !== null && typeof (state as StoredOAuthState).serverUrl === 'string' ? (state as StoredOAuthState) : undefined;
      } catch {
        return undefined;
      }
    },
    async save(server, state) {
      await redis.set(keyOf(server), JSON.stringify(state));
    },
    async delete(server) {
      await redis.del(keyOf(server));
    },
  };
}
