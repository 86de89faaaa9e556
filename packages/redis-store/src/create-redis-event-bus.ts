// List changes shared by replicas, on Redis pub/sub: a `ServerEventBus` (the seam `subscriptions/listen` streams
// follow in `@tool-search/mcp-server`) whose events reach the listeners of this process at once, as the in-process
// bus's do, and the listeners of every other replica through one channel. Each message is signed with the secret the
// replicas share (the rendezvous' format, internal/create-message-signer.ts): one that fails the check, is older than
// five minutes or was heard already is logged and dropped. Each carries the publishing bus's origin, so a replica
// never hears its own events twice. Events are hints to list again: one that two replicas both saw (the same
// upstream change) may reach a listener twice, which costs a re-list and nothing else.
import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';
import type { RedisPubSub } from './create-redis-rendezvous.js';
import { DEFAULT_KEY_PREFIX } from './create-redis-token-store.js';
import { createMessageSigner } from './internal/create-message-signer.js';

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
/** How old an event may be when heard (pub/sub delivers at once; a message older is a replay). */
const MAX_EVENT_AGE_MS = 300_000;
/** Event ids remembered against replays (within `MAX_EVENT_AGE_MS`), at most. */
const MAX_REMEMBERED_EVENTS = 10_000;

/**
 * Creates the bus on `publisher` and `subscriber` (as the rendezvous: a subscribed client takes no other command)
 * and resolves once it hears the channel. `secret` (at least 32 bytes, the replicas' `requestStateSecret`) signs and
 * checks every event; `logger` hears (warn) the messages refused. `onError` hears a failed publish or a throwing
 * listener; neither stops delivery to the others. Throws `RedisStoreError('invalid_options')` without a usable secret.
 */
export async function createRedisEventBus(
  clients: { publisher: Pick<RedisPubSub, 'publish'>; subscriber: Pick<RedisPubSub, 'subscribe' | 'unsubscribe'> },
  options: { secret: string; keyPrefix?: string | undefined; onError?: ((error: Error) => void) | undefined; logger?: Logger | undefined },
): Promise<RedisEventBus> {
  const signer = createMessageSigner(options?.secret);
  const log = (options.logger ?? pino({ level: 'silent' })).child({ component: 'redis-event-bus' });
  const { publisher, subscriber } = clients;
  const channel = `${options.keyPrefix ?? DEFAULT_KEY_PREFIX}events`;
  const origin = randomUUID();
  /** Ids of the events heard, with when: a replayed message is dropped. */
  const heard = new Map<string, number>();
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
  const refuse = (reason: string) => log.warn({ kind: 'event', reason, where: channel }, 'redis message refused: it failed the signature check');
  await subscriber.subscribe(channel, (message) => {
    if (message.length > MAX_MESSAGE_CHARS) return refuse('too_long');
    const opened = signer.open(message, { kind: 'event', to: channel, maxAgeMs: MAX_EVENT_AGE_MS });
    if (!opened.ok) return refuse(opened.reason);
    if (heard.has(opened.message.id)) return refuse('replayed');
    remember(opened.message.id, opened.message.at);
    const received = parseBody(opened.message.body);
    if (received === undefined) return refuse('malformed');
    if (received.origin !== origin) deliver(received.event);
  });
  function remember(id: string, at: number): void {
    heard.set(id, at);
    if (heard.size <= MAX_REMEMBERED_EVENTS) return;
    const oldest = Date.now() - MAX_EVENT_AGE_MS - 60_000;
    for (const [key, when] of heard) if (when < oldest || heard.size > MAX_REMEMBERED_EVENTS) heard.delete(key);
  }
  return {
    publish(event) {
      deliver(event);
      publisher.publish(channel, signer.sign('event', channel, { origin, event })).catch(report);
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

/** The body of a signed event another bus published; `undefined` when it is not one. */
function parseBody(body: unknown): { origin: string; event: RedisServerEvent } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = body as { origin?: unknown; event?: { kind?: unknown; uri?: unknown; params?: unknown } };
  const event = value.event;
  if (typeof value.origin !== 'string' || typeof event !== 'object' || event === null || typeof event.kind !== 'string' || !KINDS.has(event.kind)) return undefined;
  if (event.kind === 'resource_updated' && typeof event.uri !== 'string') return undefined;
  if (event.params !== undefined && (typeof event.params !== 'object' || event.params === null || Array.isArray(event.params))) return undefined;
  return { origin: value.origin, event: event as RedisServerEvent };
}
