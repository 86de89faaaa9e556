// List changes shared by replicas, on Redis pub/sub: a `ServerEventBus` (the seam `subscriptions/listen` streams
// follow in `@tool-search/mcp-server`) whose events reach the listeners of this process at once, as the in-process
// bus's do, and the listeners of every other replica through one channel. Each message carries the publishing bus's
// origin, so a replica never hears its own events twice. Events are hints to list again: one that two replicas both
// saw (the same upstream change) may reach a listener twice, which costs a re-list and nothing else.
import { randomUUID } from 'node:crypto';
import type { RedisPubSub } from './create-redis-rendezvous.js';
import { DEFAULT_KEY_PREFIX } from './create-redis-token-store.js';

/**
 * One change event, in the shape of `@tool-search/mcp-server`'s `ServerEvent` (kept structural here, so this package
 * does not load the MCP SDK).
 */
export type RedisServerEvent = ({ kind: 'tools_list_changed' } | { kind: 'prompts_list_changed' } | { kind: 'resources_list_changed' } | { kind: 'resource_updated'; uri: string }) & {
  params?: Record<string, unknown> | undefined;
};

/** A `ServerEventBus` over Redis (`eventBus` of `createToolSearchHttpHandler`). */
export interface RedisEventBus {
  publish(event: RedisServerEvent): void;
  /** Registers a listener; returns an idempotent unsubscribe function. */
  subscribe(listener: (event: RedisServerEvent) => void): () => void;
  /** Stops hearing other replicas (the connections are the store's). */
  close(): Promise<void>;
}

const KINDS: ReadonlySet<string> = new Set(['tools_list_changed', 'prompts_list_changed', 'resources_list_changed', 'resource_updated']);
/** Longest message read from the channel (a change event is a few hundred bytes). */
const MAX_MESSAGE_CHARS = 16_384;

/**
 * Creates the bus on `publisher` and `subscriber` (as the rendezvous: a subscribed client takes no other command)
 * and resolves once it hears the channel. `onError` hears a failed publish or a throwing listener; neither stops
 * delivery to the others.
 */
export async function createRedisEventBus(
  clients: { publisher: Pick<RedisPubSub, 'publish'>; subscriber: Pick<RedisPubSub, 'subscribe' | 'unsubscribe'> },
  options: { keyPrefix?: string | undefined; onError?: ((error: Error) => void) | undefined } = {},
): Promise<RedisEventBus> {
  const { publisher, subscriber } = clients;
  const channel = `${options.keyPrefix ?? DEFAULT_KEY_PREFIX}events`;
  const origin = randomUUID();
  const listeners = new Set<(event: RedisServerEvent) => void>();
  const report = (error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error)));
  const deliver = (event: RedisServerEvent) => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        report(error);
      }
    }
  };
  await subscriber.subscribe(channel, (message) => {
    const received = parseMessage(message);
    if (received !== undefined && received.origin !== origin) deliver(received.event);
  });
  return {
    publish(event) {
      deliver(event);
      publisher.publish(channel, JSON.stringify({ origin, event })).catch(report);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await subscriber.unsubscribe(channel);
    },
  };
}

/** A message another bus published; anything else on the channel is ignored. */
function parseMessage(message: string): { origin: string; event: RedisServerEvent } | undefined {
  if (message.length > MAX_MESSAGE_CHARS) return undefined;
  try {
    const value = JSON.parse(message) as { origin?: unknown; event?: { kind?: unknown; uri?: unknown; params?: unknown } };
    const event = value.event;
    if (typeof value.origin !== 'string' || typeof event !== 'object' || event === null || typeof event.kind !== 'string' || !KINDS.has(event.kind)) return undefined;
    if (event.kind === 'resource_updated' && typeof event.uri !== 'string') return undefined;
    if (event.params !== undefined && (typeof event.params !== 'object' || event.params === null || Array.isArray(event.params))) return undefined;
    return { origin: value.origin, event: event as RedisServerEvent };
  } catch {
    return undefined;
  }
}
