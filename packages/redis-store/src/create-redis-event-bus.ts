// List changes shared by replicas, on Redis pub/sub: a `ServerEventBus` (the seam `subscriptions/listen` streams
// follow in `@tool-search/mcp-server`) whose events reach the listeners of this process at once, as the in-process
// bus's do, and the listeners of every other replica through one channel. Each message is signed with the secret the
// replicas share (the rendezvous' format, internal/create-message-signer.ts): one that fails the check, is older than
// five minutes or was heard already is logged and dropped. Each carries the publishing bus's origin, so a replica
// never hears its own events twice. A change two replicas both saw (the same upstream change) is told once: its
// publisher gives it a `changeId` every replica agrees on (a digest of the new list), carried inside the signed body.
// A change from another replica whose id this bus told last (for that list) is dropped; one not told yet waits
// `CHANGE_SETTLE_MS` for this replica's own sighting of it, which replaces it (told at once, so a listener that lists
// again sees the new list here). An own sighting that comes later than that is told again: a second re-list, never a
// lost one. Events without an id are told as they come.
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
  /** The same for every replica that sees the same change (never sent to clients): a change told once per bus. */
  changeId?: string | undefined;
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
/** How long a change from another replica waits for this replica's own sighting of the same change. */
const CHANGE_SETTLE_MS = 1_000;
/** How long a told change id keeps the same change (from another replica) from being told again. */
const CHANGE_WINDOW_MS = 30_000;
/** Longest change id read from the channel. */
const MAX_CHANGE_ID_CHARS = 128;

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
  const changes = createChangeDedupe(deliver);
  const refuse = (reason: string) => log.warn({ kind: 'event', reason, where: channel }, 'redis message refused: it failed the signature check');
  await subscriber.subscribe(channel, (message) => {
    if (message.length > MAX_MESSAGE_CHARS) return refuse('too_long');
    const opened = signer.open(message, { kind: 'event', to: channel, maxAgeMs: MAX_EVENT_AGE_MS });
    if (!opened.ok) return refuse(opened.reason);
    if (heard.has(opened.message.id)) return refuse('replayed');
    remember(opened.message.id, opened.message.at);
    const received = parseBody(opened.message.body);
    if (received === undefined) return refuse('malformed');
    if (received.origin === origin) return;
    if (received.changeId === undefined) deliver(received.event);
    else changes.heard(received.event, received.changeId);
  });
  function remember(id: string, at: number): void {
    heard.set(id, at);
    if (heard.size <= MAX_REMEMBERED_EVENTS) return;
    const oldest = Date.now() - MAX_EVENT_AGE_MS - 60_000;
    for (const [key, when] of heard) if (when < oldest || heard.size > MAX_REMEMBERED_EVENTS) heard.delete(key);
  }
  return {
    publish(published) {
      const { changeId, ...event } = published;
      if (changeId === undefined) deliver(event);
      else changes.own(event, changeId);
      publisher.publish(channel, signer.sign('event', channel, { origin, event, ...(changeId === undefined ? {} : { changeId }) })).catch(report);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      changes.close();
      await subscriber.unsubscribe(channel);
    },
  };
}

/**
 * Tells each change once on this bus: `own` (this replica's sighting) is told at once unless a listener could not
 * have seen it yet; `heard` (another replica's) is dropped when its id was told last for its list, else waits for
 * the own sighting of the same id.
 */
function createChangeDedupe(deliver: (event: RedisServerEvent) => void) {
  /** The last change id told per list, with when and whether it was this replica's own. */
  const told = new Map<string, { id: string; at: number; own: boolean }>();
  /** Changes from other replicas waiting for the own sighting, by list and id. */
  const waiting = new Map<string, ReturnType<typeof setTimeout>>();
  const listOf = (event: RedisServerEvent) => (event.kind === 'resource_updated' ? `${event.kind} ${event.uri}` : event.kind);
  return {
    own(event: RedisServerEvent, id: string): void {
      const list = listOf(event);
      const held = waiting.get(`${list}\n${id}`);
      if (held !== undefined) {
        clearTimeout(held);
        waiting.delete(`${list}\n${id}`);
      }
      const last = told.get(list);
      // Told already from this replica's own sighting: the same change again.
      if (last?.own === true && last.id === id && Date.now() - last.at <= CHANGE_WINDOW_MS) return;
      told.set(list, { id, at: Date.now(), own: true });
      deliver(event);
    },
    heard(event: RedisServerEvent, id: string): void {
      const list = listOf(event);
      const last = told.get(list);
      const key = `${list}\n${id}`;
      if ((last?.id === id && Date.now() - last.at <= CHANGE_WINDOW_MS) || waiting.has(key)) return;
      const timer = setTimeout(() => {
        waiting.delete(key);
        told.set(list, { id, at: Date.now(), own: false });
        deliver(event);
      }, CHANGE_SETTLE_MS);
      timer.unref();
      waiting.set(key, timer);
    },
    close(): void {
      for (const timer of waiting.values()) clearTimeout(timer);
      waiting.clear();
    },
  };
}

/** The body of a signed event another bus published; `undefined` when it is not one. */
function parseBody(body: unknown): { origin: string; event: RedisServerEvent; changeId: string | undefined } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = body as { origin?: unknown; changeId?: unknown; event?: { kind?: unknown; uri?: unknown; params?: unknown } };
  if (value.changeId !== undefined && (typeof value.changeId !== 'string' || value.changeId.length === 0 || value.changeId.length > MAX_CHANGE_ID_CHARS)) return undefined;
  const event = value.event;
  if (typeof value.origin !== 'string' || typeof event !== 'object' || event === null || typeof event.kind !== 'string' || !KINDS.has(event.kind)) return undefined;
  if (event.kind === 'resource_updated' && typeof event.uri !== 'string') return undefined;
  if (event.params !== undefined && (typeof event.params !== 'object' || event.params === null || Array.isArray(event.params))) return undefined;
  const { kind, uri, params } = event as RedisServerEvent & { uri?: string };
  const received = { kind, ...(uri === undefined ? {} : { uri }), ...(params === undefined ? {} : { params }) } as RedisServerEvent;
  return { origin: value.origin, event: received, changeId: value.changeId };
}
