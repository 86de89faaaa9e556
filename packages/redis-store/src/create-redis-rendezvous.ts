// The meeting place of replicas for 2026-07-28 calls between their rounds. Every message is signed with the secret
// the replicas share (see internal/create-message-signer.ts) and a call is named on Redis by an HMAC of its id, so a
// client of Redis without the secret can neither find a pending call nor answer one.
//
// Each replica has an inbox (a list, `<prefix>mrtr:replica:<id>:inbox`), a channel that wakes it when something was
// pushed there, and a heartbeat key (`…:alive`, refreshed every `heartbeatMs`, expiring after three). Holding a call
// writes a record under the call's name saying which replica holds it. A replica that receives the client's retry
// reads that record, pushes the answers into the holder's inbox and waits on a reply list of its own; the holder
// pushes the round's answer (the result, or the next questions) there. Answers and replies are stored, not only
// published: one pushed while a replica was reconnecting is read when it is back (the holder drains its inbox on
// every heartbeat, the forwarder polls its reply list). A Redis that restarted empty is noticed by the heartbeat (a
// replica's own key is gone): holders write their records again and forwarders push their answers again (the
// holder answers a repeated message once, and sends the same reply again). While it waits, a forwarder watches the
// holder's heartbeat: when it stays gone, the retry is answered -32602 within seconds, not after the reply timeout.
import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { z } from 'zod';
import { DEFAULT_KEY_PREFIX } from './create-redis-token-store.js';
import { createMessageSigner, type RefusalReason } from './internal/create-message-signer.js';

/** What the holder of a call sends back (the shape of `@tool-search/mcp-server`'s `InputCallReply`). */
export type RedisRendezvousReply = { ok: true; answer: unknown } | { ok: false; code: number; message: string };

/** The pub/sub commands the stores use: a node-redis client for `publish`, a second one (subscribed) for the rest. */
export interface RedisPubSub {
  publish(channel: string, message: string): Promise<number>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
}

/** The commands the rendezvous sends besides pub/sub (a node-redis client has them). */
export interface RedisRendezvousCommands {
  publish(channel: string, message: string): Promise<number>;
  rPush(key: string, element: string): Promise<number>;
  lPop(key: string): Promise<string | null>;
  pExpire(key: string, milliseconds: number): Promise<unknown>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options: { expiration: { type: 'PX'; value: number }; GET?: boolean }): Promise<string | null>;
  del(key: string): Promise<unknown>;
}

/** The rendezvous (`inputCallRendezvous` of `@tool-search/mcp-server`'s options). */
export interface RedisRendezvous {
  /** Serves `callId`'s retries that reach other replicas; resolves once they can reach it, with the function that stops. */
  hold(callId: string, answer: (answers: Record<string, unknown> | undefined) => Promise<RedisRendezvousReply>): Promise<() => Promise<void>>;
  /**
   * Passes `answers` to the replica holding `callId`: its reply, `undefined` when none holds it, or a -32602 error
   * reply when the holder's heartbeat stops while this waits.
   */
  forward(callId: string, answers: Record<string, unknown> | undefined): Promise<RedisRendezvousReply | undefined>;
  /** Stops the heartbeat (other replicas then see this one gone) and answers this replica's waiting retries. */
  close(): Promise<void>;
}

/** How long a forwarded retry waits for the holder's round (as long as a pending call lives: 10 minutes). */
const DEFAULT_REPLY_TIMEOUT_MS = 600_000;
/** How often a replica refreshes its heartbeat and drains its inbox, and a waiting forwarder looks. */
const DEFAULT_HEARTBEAT_MS = 1_000;
/** Longest wait for a reply to be stored before the holder gives up sending it. */
const REPLY_SEND_ATTEMPTS = 10;

const ForwardBodySchema = z.strictObject({
  call: z.string().regex(/^[0-9a-f]{32}$/),
  replyTo: z.string(),
  answers: z.record(z.string(), z.unknown()),
});
const ReplySchema = z.union([
  z.strictObject({ ok: z.literal(true), answer: z.unknown() }),
  z.strictObject({ ok: z.literal(false), code: z.number().int(), message: z.string().max(2_000) }),
]);
const HeldBodySchema = z.strictObject({ replica: z.uuid() });

/** A call this replica holds. */
interface HeldCall {
  answer: (answers: Record<string, unknown> | undefined) => Promise<RedisRendezvousReply>;
  /** The forwarded messages answered (by id): a repeated one gets the same reply again, the call runs once. */
  seen: Map<string, Promise<RedisRendezvousReply>>;
  /** Replies being computed or sent: stopping waits for them. */
  inflight: Set<Promise<void>>;
}

/**
 * Creates the rendezvous on `publisher` and `subscriber` (a client in subscriber mode takes no other command, hence
 * two). `secret` (at least 32 bytes, the replicas' `requestStateSecret`) signs and checks every message; a message
 * that fails the check is logged (`logger`, warn) and ignored. `keyPrefix` as the token store's; `replyTimeoutMs`
 * bounds a forwarded retry (default 10 minutes); `heartbeatMs` (default 1,000) paces the heartbeat, and a holder
 * whose heartbeat is gone for five of them is taken as dead. Throws `RedisStoreError('invalid_options')` without a
 * usable secret.
 */
export function createRedisRendezvous(
  clients: { publisher: RedisRendezvousCommands; subscriber: Pick<RedisPubSub, 'subscribe' | 'unsubscribe'> },
  options: { secret: string; keyPrefix?: string | undefined; replyTimeoutMs?: number | undefined; heartbeatMs?: number | undefined; logger?: Logger | undefined },
): RedisRendezvous {
  const signer = createMessageSigner(options?.secret);
  const { publisher, subscriber } = clients;
  const log = (options.logger ?? pino({ level: 'silent' })).child({ component: 'redis-rendezvous' });
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const replyTimeoutMs = options.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS;
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const aliveTtlMs = 3 * heartbeatMs;
  /** How long a holder's heartbeat may be missing (a replica reconnecting to a restarted Redis) before it is dead. */
  const graceMs = 2 * heartbeatMs;
  const replica = randomUUID();
  const heldKey = (name: string) => `${prefix}mrtr:call:${name}`;
  const aliveKey = (id: string) => `${prefix}mrtr:replica:${id}:alive`;
  const inboxKey = (id: string) => `${prefix}mrtr:replica:${id}:inbox`;
  const wakeChannel = (id: string) => `${prefix}mrtr:replica:${id}`;
  const replyPrefix = `${prefix}mrtr:reply:`;
  const held = new Map<string, HeldCall>();
  const waiting = new Set<(reply: RedisRendezvousReply) => void>();
  /** Counts the times this replica found Redis had lost its heartbeat (a restart without persistence). */
  let epoch = 0;
  let beats = 0;
  let started: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> | undefined;
  let draining = false;
  let drainAgain = false;
  let closed = false;

  const refuse = (kind: string, reason: RefusalReason | 'not_ours', where: string) => log.warn({ kind, reason, where }, 'redis message refused: it failed the signature check');
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

  /** Starts the heartbeat and the inbox (once, on the first hold or forward). */
  const start = () =>
    (started ??= (async () => {
      await subscriber.subscribe(wakeChannel(replica), () => void drain());
      await beat();
      timer = setInterval(() => void beat(), heartbeatMs);
      timer.unref();
    })());

  /** Refreshes the heartbeat; when Redis had lost it, writes the held records again. Drains the inbox. */
  const beat = () =>
    (beating ??= (async () => {
      try {
        const previous = await publisher.set(aliveKey(replica), signer.sign('alive', aliveKey(replica), {}), { expiration: { type: 'PX', value: aliveTtlMs }, GET: true });
        if (previous === null && beats > 0) {
          epoch++;
          log.warn({ held: held.size }, 'redis lost this replica\'s heartbeat (restarted?): writing the held calls again');
          await Promise.all([...held.keys()].map((name) => writeHeld(name)));
        }
        beats++;
        if (held.size > 0) await drain();
      } catch (error) {
        log.debug({ err: error instanceof Error ? error.message.slice(0, 300) : String(error) }, 'redis rendezvous heartbeat failed');
      } finally {
        beating = undefined;
      }
    })());

  const writeHeld = (name: string) => publisher.set(heldKey(name), signer.sign('held', heldKey(name), { replica }), { expiration: { type: 'PX', value: replyTimeoutMs } });

  /** Reads every forwarded message in this replica's inbox. */
  async function drain(): Promise<void> {
    if (draining) {
      drainAgain = true;
      return;
    }
    draining = true;
    try {
      do {
        drainAgain = false;
        for (let read = 0; read < 1_000; read++) {
          const wire = await publisher.lPop(inboxKey(replica));
          if (wire === null) break;
          receive(wire);
        }
      } while (drainAgain);
    } catch (error) {
      log.debug({ err: error instanceof Error ? error.message.slice(0, 300) : String(error) }, 'redis rendezvous inbox read failed');
    } finally {
      draining = false;
    }
  }

  /** One forwarded message: checked, then answered once (again, with the same reply, when repeated). */
  function receive(wire: string): void {
    const opened = signer.open(wire, { kind: 'forward', to: inboxKey(replica), maxAgeMs: replyTimeoutMs });
    if (!opened.ok) return refuse('forward', opened.reason, 'inbox');
    const body = ForwardBodySchema.safeParse(opened.message.body);
    if (!body.success || !body.data.replyTo.startsWith(replyPrefix)) return refuse('forward', 'malformed', 'inbox');
    const { call: name, replyTo, answers } = body.data;
    const call = held.get(name);
    if (call === undefined) {
      void sendReply(replyTo, { ok: false, code: -32602, message: 'No call is waiting for these answers: it finished or expired. Call the tool again.' });
      return;
    }
    let replied = call.seen.get(opened.message.id);
    if (replied === undefined) {
      replied = call.answer(answers).catch((error: unknown) => ({ ok: false as const, code: -32603, message: error instanceof Error ? error.message.slice(0, 500) : 'the call failed' }));
      call.seen.set(opened.message.id, replied);
    }
    const sent: Promise<void> = replied.then((reply) => sendReply(replyTo, reply)).finally(() => call.inflight.delete(sent));
    call.inflight.add(sent);
  }

  /** Stores the reply where the forwarder polls and wakes it; retried while Redis is away. */
  async function sendReply(replyTo: string, reply: RedisRendezvousReply): Promise<void> {
    const wire = signer.sign('reply', replyTo, reply);
    for (let attempt = 0; attempt < REPLY_SEND_ATTEMPTS; attempt++) {
      try {
        await publisher.rPush(replyTo, wire);
        await publisher.pExpire(replyTo, replyTimeoutMs);
        await publisher.publish(replyTo, wire);
        return;
      } catch (error) {
        log.debug({ attempt, err: error instanceof Error ? error.message.slice(0, 300) : String(error) }, 'redis rendezvous reply not sent yet');
        await sleep(heartbeatMs);
      }
    }
    log.warn('redis rendezvous: a reply could not be sent');
  }

  /** The replica holding the call named `name`, from its signed record; `undefined` when none (or a forged one). */
  async function holderOf(name: string): Promise<string | undefined> {
    const wire = await publisher.get(heldKey(name));
    if (wire === null) return undefined;
    const opened = signer.open(wire, { kind: 'held', to: heldKey(name), maxAgeMs: replyTimeoutMs });
    if (!opened.ok) return void refuse('held', opened.reason, 'call record');
    const body = HeldBodySchema.safeParse(opened.message.body);
    if (!body.success) return void refuse('held', 'malformed', 'call record');
    return body.data.replica;
  }

  /** Whether `id`'s heartbeat is on Redis (a forged one counts as none). */
  async function isAlive(id: string): Promise<boolean> {
    const wire = await publisher.get(aliveKey(id));
    if (wire === null) return false;
    const opened = signer.open(wire, { kind: 'alive', to: aliveKey(id), maxAgeMs: replyTimeoutMs });
    if (!opened.ok) refuse('alive', opened.reason, 'heartbeat');
    return opened.ok;
  }

  /** The reply read from `replyTo`, checked; `undefined` for none or one that fails the check (logged). */
  function openReply(wire: string, replyTo: string): RedisRendezvousReply | undefined {
    const opened = signer.open(wire, { kind: 'reply', to: replyTo, maxAgeMs: replyTimeoutMs });
    if (!opened.ok) return void refuse('reply', opened.reason, 'reply');
    const reply = ReplySchema.safeParse(opened.message.body);
    if (!reply.success) return void refuse('reply', 'malformed', 'reply');
    return reply.data;
  }

  return {
    async hold(callId, answer) {
      await start();
      const name = signer.nameOf(callId);
      const call: HeldCall = { answer, seen: new Map(), inflight: new Set() };
      held.set(name, call);
      await writeHeld(name);
      let stopped = false;
      return async () => {
        if (stopped) return;
        stopped = true;
        // The round answered last (the call's result) is still on its way to the forwarder: it goes first.
        await Promise.race([Promise.allSettled([...call.inflight]), sleep(REPLY_SEND_ATTEMPTS * heartbeatMs)]);
        if (held.get(name) === call) held.delete(name);
        await publisher.del(heldKey(name)).catch(() => undefined);
      };
    },
    async forward(callId, answers) {
      if (closed) return { ok: false, code: -32603, message: 'This server process is shutting down. Call the tool again.' };
      await start();
      const name = signer.nameOf(callId);
      // No record: perhaps Redis just restarted empty and the holder has not written it again yet (its next beat).
      let holder = await holderOf(name);
      if (holder === undefined) {
        await sleep(graceMs);
        holder = await holderOf(name);
      }
      if (holder === undefined) return undefined;
      const replyTo = `${replyPrefix}${randomUUID()}`;
      let settled: RedisRendezvousReply | undefined;
      let settle: (reply: RedisRendezvousReply) => void = () => undefined;
      const replied = new Promise<RedisRendezvousReply>((resolve) => (settle = (reply) => void (settled ??= reply, resolve(settled))));
      waiting.add(settle);
      const request = signer.sign('forward', inboxKey(holder), { call: name, replyTo, answers: answers ?? {} });
      const push = async () => {
        await publisher.rPush(inboxKey(holder), request);
        await publisher.pExpire(inboxKey(holder), replyTimeoutMs);
        await publisher.publish(wakeChannel(holder), '');
      };
      try {
        await subscriber.subscribe(replyTo, (wire) => {
          const reply = openReply(wire, replyTo);
          if (reply !== undefined) settle(reply);
        });
        // A push that failed (the connection dropped under it) is tried again on the next look.
        let pushed = false;
        let pushedAt = epoch;
        const tryPush = async () => {
          pushedAt = epoch;
          pushed = false;
          await push();
          pushed = true;
        };
        await tryPush().catch((error: unknown) => log.debug({ err: error instanceof Error ? error.message.slice(0, 300) : String(error) }, 'redis rendezvous: answers not pushed yet'));
        const deadline = Date.now() + replyTimeoutMs;
        let missingSince: number | undefined;
        while (settled === undefined) {
          await Promise.race([replied, sleep(heartbeatMs)]);
          if (settled !== undefined) break;
          try {
            const stored = await publisher.lPop(replyTo);
            const reply = stored === null ? undefined : openReply(stored, replyTo);
            if (reply !== undefined) {
              settle(reply);
              break;
            }
            // Redis restarted empty since the push: the answers may be lost with it, so they go again.
            if (!pushed || epoch !== pushedAt) await tryPush();
            if (await isAlive(holder)) missingSince = undefined;
            else if (Date.now() - (missingSince ??= Date.now()) >= graceMs) {
              settle({ ok: false, code: -32602, message: 'The server process holding this call stopped before answering (its heartbeat on Redis ended). Call the tool again.' });
            }
          } catch (error) {
            log.debug({ err: error instanceof Error ? error.message.slice(0, 300) : String(error) }, 'redis rendezvous: waiting for a reply');
          }
          if (Date.now() >= deadline) settle({ ok: false, code: -32603, message: 'The server process holding this call did not answer in time. Call the tool again.' });
        }
        return await replied;
      } finally {
        waiting.delete(settle);
        await subscriber.unsubscribe(replyTo).catch(() => undefined);
        await publisher.del(replyTo).catch(() => undefined);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearInterval(timer);
      for (const settle of [...waiting]) settle({ ok: false, code: -32603, message: 'This server process is shutting down. Call the tool again.' });
      if (started === undefined) return;
      // Bounded: with Redis away, closing does not wait for it (the heartbeat then expires on its own).
      const goodbye = (async () => {
        await started.catch(() => undefined);
        await beating;
        await Promise.all([subscriber.unsubscribe(wakeChannel(replica)).catch(() => undefined), publisher.del(aliveKey(replica)).catch(() => undefined)]);
      })();
      await Promise.race([goodbye, sleep(2 * heartbeatMs)]);
    },
  };
}
