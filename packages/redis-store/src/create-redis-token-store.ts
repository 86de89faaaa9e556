// The host's OAuth token store on Redis: one key per MCP server holding its state (tokens, registered client,
// discovery) as JSON. Replicas on the same Redis share it: a token one of them refreshed is the one the others read
// (the OAuth provider reads the store before each request), and a refresh lock (SET NX with an expiry, released
// only by its holder) keeps two replicas from spending one rotating refresh token.
import { randomUUID } from 'node:crypto';
import type { OAuthTokenStore, StoredOAuthState } from '@tool-search/gateway-adapter';

/** The Redis commands the token store uses (a node-redis client has them; a test may pass a fake). */
export interface RedisKeyValue {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options?: { condition: 'NX'; expiration: { type: 'PX'; value: number } }): Promise<string | null>;
  del(key: string): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** A refresh holds the lock at most this long (a replica that dies holding it frees it then). */
const LOCK_TTL_MS = 15_000;
/** How long a refresh waits for the lock before it goes ahead anyway (it still reads the store first). */
const LOCK_WAIT_MS = 10_000;
const LOCK_RETRY_MS = 20;
/** Deletes the lock only if this holder still holds it (it may have expired and been taken by another). */
const RELEASE_LOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

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
    async withRefreshLock(server, refresh) {
      const lock = `${keyOf(server)}:refresh-lock`;
      const holder = randomUUID();
      const deadline = Date.now() + LOCK_WAIT_MS;
      let held = false;
      while (!(held = (await redis.set(lock, holder, { condition: 'NX', expiration: { type: 'PX', value: LOCK_TTL_MS } })) === 'OK') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
      }
      try {
        return await refresh();
      } finally {
        if (held) await redis.eval(RELEASE_LOCK, { keys: [lock], arguments: [holder] });
      }
    },
  };
}
