// npm install @tool-search/redis-store @tool-search/gateway-adapter   (Node >= 20.3), then: node readme-example.mjs
// It needs a Redis: REDIS_URL, else one on 127.0.0.1:6379.
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { connectRedisStore, isRedisStoreError } from '@tool-search/redis-store';

// The secret every replica shares (at least 32 bytes): it signs the 2026-07-28 requestState and every message on Redis.
const requestStateSecret = process.env.TOOL_SEARCH_STATE_SECRET ?? 'an example secret: use 32 random bytes of your own';
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'; // e.g. rediss://gateway:password@redis.internal:6380

// Each replica, at its start. Fails at once (RedisStoreError 'unreachable') when Redis does not answer: nothing is left running.
async function startReplica() {
  const redis = await connectRedisStore(url, { secret: requestStateSecret, keyPrefix: 'gateway-eu:' });
  const host = await createToolSearchHost({ sources: { mcp: [] /* your MCP servers */ }, mcpClient: { oauth: { store: redis.tokenStore } } });
  // Its MCP front (@tool-search/mcp-server) takes the answers and list changes that cross replicas from Redis too:
  // createToolSearchHttpHandler({ host, config, allowedHosts, requestStateSecret, inputCallRendezvous: redis.rendezvous, eventBus: redis.eventBus })
  return { redis, host };
}
const [first, second] = [await startReplica(), await startReplica()];
// A token one replica saves (after a refresh) is the one the other sends.
await first.redis.tokenStore.save('github', { serverUrl: 'https://api.example/mcp', tokens: { access_token: 'refreshed', token_type: 'Bearer' } });
console.log((await second.redis.tokenStore.load('github'))?.tokens?.access_token);
await first.redis.tokenStore.delete('github');
for (const { host, redis } of [first, second]) {
  await host.close();
  await redis.close();
}

await connectRedisStore('redis://127.0.0.1:1', { secret: requestStateSecret }).catch((error) => console.log(isRedisStoreError(error), error.code));
