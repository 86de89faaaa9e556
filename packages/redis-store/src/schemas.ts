// What crosses this package's boundary: the Redis URL and the options of connectRedisStore (the secret is checked
// by the message signer, which names it).
import { z } from 'zod';

/** `redis://[user:password@]host[:port][/db]` or `rediss://…` (TLS). */
export const RedisUrlSchema = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  } catch {
    return false;
  }
}, 'expected redis://host:port or rediss://host:port');

/** The options of `connectRedisStore`. */
export const ConnectRedisStoreOptionsSchema = z.strictObject({
  /** Put before every key, so several gateways can share one Redis. Default `tool-search:`. */
  keyPrefix: z.string().min(1).optional(),
  /** How long the first connection may take before `unreachable`. Default 5,000 ms. */
  connectTimeoutMs: z.number().int().positive().optional(),
  /** How often the rendezvous refreshes this replica's heartbeat; a holder silent for five is dead. Default 1,000 ms. */
  heartbeatMs: z.number().int().min(50).max(60_000).optional(),
});
