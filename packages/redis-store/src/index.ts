// @tool-search/redis-store: Redis behind Tool Search's store interfaces, for replicas of one gateway. Every export
// here is public API: adding one is a change of the package's contract.
export { connectRedisStore } from './connect-redis-store.js';
export type { RedisStore } from './connect-redis-store.js';
export { createRedisEventBus } from './create-redis-event-bus.js';
export type { RedisEventBus, RedisServerEvent } from './create-redis-event-bus.js';
export { createRedisRendezvous } from './create-redis-rendezvous.js';
export type { RedisPubSub, RedisRendezvous, RedisRendezvousCommands, RedisRendezvousReply } from './create-redis-rendezvous.js';
export { createRedisTokenStore, DEFAULT_KEY_PREFIX } from './create-redis-token-store.js';
export type { RedisKeyValue } from './create-redis-token-store.js';
export { isRedisStoreError, RedisStoreError } from './errors.js';
export type { RedisStoreErrorCode } from './errors.js';
