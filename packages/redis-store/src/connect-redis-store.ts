// Connects to Redis once, for every store of one gateway process. The first connection must succeed (a bad URL or
// an unreachable Redis is an error at start-up, with nothing left running); after it, a dropped connection is
// re-established in the background and the commands in between wait for it. Nothing starts without the secret the
// replicas share: it signs every message the rendezvous and the event bus put on Redis.
import type { OAuthTokenStore } from '@tool-search/gateway-adapter';
import pino, { type Logger } from 'pino';
import { createClient } from 'redis';
import { createRedisEventBus, type RedisEventBus } from './create-redis-event-bus.js';
import { createRedisRendezvous, type RedisRendezvous } from './create-redis-rendezvous.js';
import { createRedisTokenStore } from './create-redis-token-store.js';
import { RedisStoreError } from './errors.js';
import { createMessageSigner } from './internal/create-message-signer.js';
import { ConnectRedisStoreOptionsSchema, RedisUrlSchema } from './schemas.js';

/** The stores of one gateway process on one Redis connection. */
export interface RedisStore {
  /** The host's OAuth token store (`oauth.store` of the MCP client options). */
  readonly tokenStore: OAuthTokenStore;
  /** Where replicas pass a client's answers to the replica holding its call (`inputCallRendezvous` of the MCP server); signed. */
  readonly rendezvous: RedisRendezvous;
  /** List changes heard by every replica (`eventBus` of the MCP server's HTTP handler); signed. */
  readonly eventBus: RedisEventBus;
  /** Closes the connections (the commands sent before it finish first). */
  close(): Promise<void>;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/** Longest pause between two reconnection attempts once connected. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * Connects to `url`. `secret` (required, at least 32 bytes: the replicas' `requestStateSecret`) signs and checks every
 * rendezvous and event-bus message. Throws `RedisStoreError` (`invalid_url`, `invalid_options`, `unreachable`) naming
 * the URL without its password.
 */
export async function connectRedisStore(
  url: string,
  options: { secret: string; keyPrefix?: string; connectTimeoutMs?: number; heartbeatMs?: number; logger?: Logger },
): Promise<RedisStore> {
  const { logger, secret, ...rest } = options ?? ({} as Partial<typeof options>);
  const log = (logger ?? pino({ level: 'silent' })).child({ pkg: 'redis-store' });
  // The secret first: a store that could not sign anything never connects.
  createMessageSigner(secret);
  const checkedUrl = RedisUrlSchema.safeParse(url);
  if (!checkedUrl.success) throw new RedisStoreError('invalid_url', `Not a Redis URL: ${JSON.stringify(redact(url).slice(0, 200))}; expected redis://host:port or rediss://host:port`, { path: 'url' });
  const checked = ConnectRedisStoreOptionsSchema.safeParse(rest);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = issue?.path.join('.') ?? '';
    throw new RedisStoreError('invalid_options', `connectRedisStore options: ${path === '' ? '' : `${path}: `}${issue?.message ?? 'invalid'}`, { path });
  }
  const shown = redact(url);
  let connected = false;
  const client = createClient({
    url,
    socket: {
      connectTimeout: checked.data.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      // Before the first connection: give up at once (start-up reports it); after: retry with a bounded backoff.
      reconnectStrategy: (retries: number, cause: Error) => (connected ? Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS) : cause),
    },
  });
  client.on('error', (error: Error) => {
    if (connected) log.warn({ redis: shown, err: error.message.slice(0, 300) }, 'redis connection error');
  });
  // Pub/sub needs a connection of its own (a subscribed client takes no other command).
  const subscriber = client.duplicate();
  subscriber.on('error', (error: Error) => {
    if (connected) log.warn({ redis: shown, err: error.message.slice(0, 300) }, 'redis subscriber connection error');
  });
  try {
    await client.connect();
    await client.ping();
    await subscriber.connect();
  } catch (error) {
    client.destroy();
    subscriber.destroy();
    throw new RedisStoreError('unreachable', `Redis at ${shown} cannot be reached: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`, { cause: error, path: 'url' });
  }
  connected = true;
  const eventBus = await createRedisEventBus(
    { publisher: client, subscriber },
    {
      secret: secret as string,
      keyPrefix: checked.data.keyPrefix,
      logger: log,
      onError: (error) => log.warn({ redis: shown, err: error.message.slice(0, 300) }, 'redis event bus: a publish or a listener failed'),
    },
  );
  const rendezvous = createRedisRendezvous({ publisher: client, subscriber }, { secret: secret as string, keyPrefix: checked.data.keyPrefix, heartbeatMs: checked.data.heartbeatMs, logger: log });
  log.info({ redis: shown }, 'redis store connected');
  return {
    tokenStore: createRedisTokenStore(client, { keyPrefix: checked.data.keyPrefix }),
    rendezvous,
    eventBus,
    async close() {
      await rendezvous.close().catch(() => undefined);
      connected = false;
      await eventBus.close().catch(() => undefined);
      await Promise.all([client.close(), subscriber.close()]);
    },
  };
}

/** The URL without its password, for messages and logs. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}
