// The meeting place of replicas for 2026-07-28 calls between their rounds, on Redis pub/sub: the replica holding a
// call subscribes to the call's channel; a replica that receives the client's retry publishes the answers there
// with a reply channel of its own, and the holder publishes what the round answers (the result, or the next
// questions) to it. PUBLISH counts its receivers, so a call nobody holds is known at once.
import { randomUUID } from 'node:crypto';
import { DEFAULT_KEY_PREFIX } from './create-redis-token-store.js';

/** What the holder of a call sends back (the shape of `@tool-search/mcp-server`'s `InputCallReply`). */
export type RedisRendezvousReply = { ok: true; answer: unknown } | { ok: false; code: number; message: string };

/** The pub/sub commands the rendezvous uses: a node-redis client for `publish`, a second one (subscribed) for the rest. */
export interface RedisPubSub {
  publish(channel: string, message: string): Promise<number>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
}

/** The rendezvous (`inputCallRendezvous` of `@tool-search/mcp-server`'s options). */
export interface RedisRendezvous {
  hold(callId: string, answer: (answers: Record<string, unknown> | undefined) => Promise<RedisRendezvousReply>): Promise<() => Promise<void>>;
  forward(callId: string, answers: Record<string, unknown> | undefined): Promise<RedisRendezvousReply | undefined>;
}

/** How long a forwarded retry waits for the holder's round (as long as a pending call lives: 10 minutes). */
const DEFAULT_REPLY_TIMEOUT_MS = 600_000;

/**
 * Creates the rendezvous on `publisher` and `subscriber` (a client in subscriber mode can only subscribe, hence
 * two). `keyPrefix` as the token store's; `replyTimeoutMs` bounds a forwarded retry whose holder went away.
 */
export function createRedisRendezvous(
  clients: { publisher: Pick<RedisPubSub, 'publish'>; subscriber: Pick<RedisPubSub, 'subscribe' | 'unsubscribe'> },
  options: { keyPrefix?: string | undefined; replyTimeoutMs?: number | undefined } = {},
): RedisRendezvous {
  const { publisher, subscriber } = clients;
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const callChannel = (callId: string) => `${prefix}mrtr:call:${callId}`;
  return {
    async hold(callId, answer) {
      const channel = callChannel(callId);
      await subscriber.subscribe(channel, (message) => {
        const request = parseForwarded(message);
        if (request === undefined) return;
        void answer(request.answers)
          .then((reply) => publisher.publish(request.replyTo, JSON.stringify(reply)))
          .catch(() => undefined);
      });
      return async () => void (await subscriber.unsubscribe(channel));
    },
    async forward(callId, answers) {
      const replyTo = `${prefix}mrtr:reply:${randomUUID()}`;
      let settle: (reply: RedisRendezvousReply | undefined) => void = () => undefined;
      const replied = new Promise<RedisRendezvousReply | undefined>((resolve) => (settle = resolve));
      await subscriber.subscribe(replyTo, (message) => settle(parseReply(message)));
      const timer = setTimeout(() => settle({ ok: false, code: -32603, message: 'The server process holding this call did not answer (it may have stopped). Call the tool again.' }), options.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS);
      try {
        const receivers = await publisher.publish(callChannel(callId), JSON.stringify({ replyTo, answers: answers ?? {} }));
        if (receivers === 0) return undefined;
        return await replied;
      } finally {
        clearTimeout(timer);
        await subscriber.unsubscribe(replyTo);
      }
    },
  };
}

/** A forwarded retry as published by `forward`; anything else on the channel is ignored. */
function parseForwarded(message: string): { replyTo: string; answers: Record<string, unknown> } | undefined {
  try {
    const value = JSON.parse(message) as { replyTo?: unknown; answers?: unknown };
    if (typeof value.replyTo !== 'string' || typeof value.answers !== 'object' || value.answers === null) return undefined;
    return { replyTo: value.replyTo, answers: value.answers as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

/** The holder's reply; an unreadable one is a failure of the call's round. */
function parseReply(message: string): RedisRendezvousReply {
  try {
    const value = JSON.parse(message) as RedisRendezvousReply;
    if (value.ok === true || (value.ok === false && typeof value.code === 'number' && typeof value.message === 'string')) return value;
  } catch {
    // answered below
  }
  return { ok: false, code: -32603, message: 'The server process holding this call sent an unreadable answer' };
}
