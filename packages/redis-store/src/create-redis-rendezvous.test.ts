// The rendezvous against a real redis-server (Debian's, see tooling/system-packages), as an attacker with a Redis
// client (but neither the bearer token nor the secret) and as an operator whose Redis restarts or whose replica dies:
// nothing forged runs and every attempt is logged; no call id is readable on Redis; an answer in flight survives a
// Redis restart with nothing persisted; a retry whose holder died is answered -32602 within seconds.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startRedisServer, type RedisServerFixture } from '@tool-search/test-utils';
import pino from 'pino';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisStore } from './connect-redis-store.js';
import { createRedisRendezvous } from './create-redis-rendezvous.js';
import type { RedisServerEvent } from './create-redis-event-bus.js';
import { scaledTimeout } from '@tool-search/property-settings';

const SECRET = 'rendezvous-test-secret-of-at-least-32-bytes';
const OTHER_SECRET = 'an-attacker-guess-at-the-secret-32-bytes+';
const APPROVAL = { 'input-1': { action: 'accept', content: { approved: true } } };

let redis: RedisServerFixture;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

/** A pino logger whose warnings the test reads. */
function recordingLogger() {
  const lines: Array<{ level: number; msg: string; kind?: string; reason?: string }> = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
  return { logger, refused: () => lines.filter((line) => line.msg.startsWith('redis message refused')) };
}

async function attackerClient(url: string) {
  const client = createClient({ url });
  await client.connect();
  return client;
}

describe('createRedisRendezvous: forged messages', () => {
  it('runs nothing an attacker without the secret writes on any channel or key, and logs each refusal', async () => {
    const prefix = `forge-${randomUUID().slice(0, 8)}:`;
    const holderLog = recordingLogger();
    const forwarderLog = recordingLogger();
    const holder = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix, logger: holderLog.logger });
    const forwarder = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix, logger: forwarderLog.logger });
    // A second gateway on the same Redis with another secret: its signed messages are forgeries here.
    const stranger = await connectRedisStore(redis.url, { secret: OTHER_SECRET, keyPrefix: prefix });
    const attacker = await attackerClient(redis.url);
    const runs: unknown[] = [];
    const callId = randomUUID();
    try {
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      const stop = await holder.rendezvous.hold(callId, async (answers) => {
        runs.push(answers);
        await released;
        return { ok: true, answer: { content: [{ type: 'text', text: 'ran' }] } };
      });
      // A genuine retry in flight, so its reply channel and list exist for the attacker to find.
      const genuine = forwarder.rendezvous.forward(callId, APPROVAL);
      await waitFor(() => runs.length === 1, 'the genuine answer to reach the holder');
      const attackerReplyTo = `${prefix}mrtr:reply:${randomUUID()}`;
      const forgeries = [
        // Unsigned, in the format of the unsigned rendezvous: an approval with a reply channel of the attacker's.
        JSON.stringify({ replyTo: attackerReplyTo, answers: APPROVAL }),
        JSON.stringify({ ok: true, answer: { content: [{ type: 'text', text: 'forged result' }] } }),
        // Signed with a key that is not the secret, in the signed format.
        `${'A'.repeat(43)}.${JSON.stringify({ v: 1, kind: 'forward', to: `${prefix}x`, id: randomUUID(), at: Date.now(), body: { call: '0'.repeat(32), replyTo: attackerReplyTo, answers: APPROVAL } })}`,
        'not json at all',
      ];
      // Messages another gateway signed with its own secret, captured from Redis (re-signed with the wrong key).
      const captured: string[] = [];
      const strangerCall = randomUUID();
      const strangerStop = await stranger.rendezvous.hold(strangerCall, async () => ({ ok: true, answer: 'stranger' }));
      for (const key of await attacker.keys(`${prefix}*`)) if ((await attacker.type(key)) === 'string') captured.push((await attacker.get(key))!);
      await strangerStop();
      const channels = await attacker.pubSubChannels(`${prefix}*`);
      const lists: string[] = [];
      for (const key of await attacker.keys(`${prefix}*`)) {
        const type = await attacker.type(key);
        if (type === 'list') lists.push(key);
        // Overwrite the call records and heartbeats with forgeries too (the forwarder reads them).
        if (type === 'string' && key.includes(':mrtr:call:')) await attacker.set(key, captured[0] ?? forgeries[0]!);
      }
      // Every inbox of a replica, also ones not yet created (the holder's name is on its wake channel).
      for (const channel of channels) if (channel.includes(':mrtr:replica:')) lists.push(`${channel}:inbox`);
      expect(channels.length).toBeGreaterThan(0);
      for (const message of [...forgeries, ...captured]) {
        for (const channel of channels) await attacker.publish(channel, message);
        for (const list of lists) await attacker.rPush(list, message);
        // Where the unsigned rendezvous named a call by its id in clear.
        await attacker.publish(`${prefix}mrtr:call:${callId}`, message);
      }
      // The holder drains its inbox on every heartbeat: two of them.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(runs).toEqual([APPROVAL]);
      expect(holderLog.refused().length + forwarderLog.refused().length).toBeGreaterThanOrEqual(forgeries.length);
      expect(holderLog.refused().every((line) => line.level === 40)).toBe(true);
      release();
      // The genuine retry still gets the genuine reply, not the forged result.
      expect(await genuine).toEqual({ ok: true, answer: { content: [{ type: 'text', text: 'ran' }] } });
      await stop();
    } finally {
      await attacker.close();
      await Promise.all([holder.close(), forwarder.close(), stranger.close()]);
    }
  }, scaledTimeout(30_000));

  it('drops forged, unsigned and wrongly signed events on the event bus, and logs them', async () => {
    const prefix = `forge-bus-${randomUUID().slice(0, 8)}:`;
    const log = recordingLogger();
    const store = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix, logger: log.logger });
    const stranger = await connectRedisStore(redis.url, { secret: OTHER_SECRET, keyPrefix: prefix });
    const attacker = await attackerClient(redis.url);
    const heard: RedisServerEvent[] = [];
    try {
      store.eventBus.subscribe((event) => heard.push(event));
      await attacker.publish(`${prefix}events`, JSON.stringify({ origin: 'attacker', event: { kind: 'tools_list_changed' } }));
      await attacker.publish(`${prefix}events`, `${'B'.repeat(43)}.${JSON.stringify({ v: 1, kind: 'event', to: `${prefix}events`, id: randomUUID(), at: Date.now(), body: { origin: 'attacker', event: { kind: 'prompts_list_changed' } } })}`);
      // Signed with another secret (another gateway's bus on the same channel).
      stranger.eventBus.publish({ kind: 'resources_list_changed' });
      await waitFor(() => log.refused().length === 3, 'three refusals');
      expect(heard).toEqual([]);
      expect(log.refused().map((line) => line.reason)).toEqual(['malformed', 'bad_signature', 'bad_signature']);
    } finally {
      await attacker.close();
      await Promise.all([store.close(), stranger.close()]);
    }
  });
});

describe('createRedisRendezvous: names', () => {
  it('puts no call id on Redis: not in a channel (PUBSUB CHANNELS), a key, or a stored value', async () => {
    const prefix = `names-${randomUUID().slice(0, 8)}:`;
    const holder = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix });
    const forwarder = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix });
    const reader = await attackerClient(redis.url);
    const callId = randomUUID();
    try {
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      let reached = false;
      const stop = await holder.rendezvous.hold(callId, async () => {
        reached = true;
        await released;
        return { ok: true, answer: 'done' };
      });
      const replied = forwarder.rendezvous.forward(callId, APPROVAL);
      await waitFor(() => reached, 'the answer to reach the holder');
      const channels = await reader.pubSubChannels();
      const keys = await reader.keys('*');
      const values = await Promise.all(keys.map(async (key) => ((await reader.type(key)) === 'list' ? (await reader.lRange(key, 0, -1)).join('\n') : ((await reader.get(key)) ?? ''))));
      for (const name of [...channels, ...keys, ...values]) expect(name).not.toContain(callId);
      expect(channels.length).toBeGreaterThan(0);
      expect(keys.length).toBeGreaterThan(0);
      release();
      expect(await replied).toEqual({ ok: true, answer: 'done' });
      await stop();
    } finally {
      await reader.close();
      await Promise.all([holder.close(), forwarder.close()]);
    }
  });
});

/** A redis-server on a fixed port, nothing persisted, that a test restarts (the fixture's stop also removes it). */
async function startRestartableRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`redis-server exited (${String(code)}): ${output.slice(-300)}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('createRedisRendezvous: a Redis restart (nothing persisted)', () => {
  let port: number;
  let dir: string;
  let server: ChildProcess | undefined;
  beforeAll(async () => {
    port = await freePort();
    dir = mkdtempSync(join(tmpdir(), 'ts-redis-restart-'));
  });
  afterAll(async () => {
    if (server !== undefined) await kill(server);
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no answer: the holder answers during the outage, or the retry is forwarded during it', async () => {
    server = await startRestartableRedis(port, dir);
    const url = `redis://127.0.0.1:${port}`;
    const holder = await connectRedisStore(url, { secret: SECRET });
    const forwarder = await connectRedisStore(url, { secret: SECRET });
    try {
      for (let round = 0; round < 3; round++) {
        // The reply is computed while Redis is down: it is sent when Redis is back.
        const callA = randomUUID();
        let releaseA: () => void = () => undefined;
        const releasedA = new Promise<void>((resolve) => (releaseA = resolve));
        let reachedA = false;
        const stopA = await holder.rendezvous.hold(callA, async () => {
          reachedA = true;
          await releasedA;
          return { ok: true, answer: `A${round}` };
        });
        const repliedA = forwarder.rendezvous.forward(callA, APPROVAL);
        await waitFor(() => reachedA, 'the answer to reach the holder');
        await kill(server);
        releaseA();
        await new Promise((resolve) => setTimeout(resolve, 300));
        server = await startRestartableRedis(port, dir);
        expect(await repliedA).toEqual({ ok: true, answer: `A${round}` });
        await stopA();

        // The retry arrives while Redis is down.
        const callB = randomUUID();
        const stopB = await holder.rendezvous.hold(callB, async (answers) => ({ ok: true, answer: { round, answers } }));
        await kill(server);
        const repliedB = forwarder.rendezvous.forward(callB, APPROVAL);
        await new Promise((resolve) => setTimeout(resolve, 300));
        server = await startRestartableRedis(port, dir);
        expect(await repliedB).toEqual({ ok: true, answer: { round, answers: APPROVAL } });
        await stopB();
      }
    } finally {
      await Promise.all([holder.close(), forwarder.close()]);
    }
  }, scaledTimeout(90_000));
});

describe('createRedisRendezvous: a dead holder', () => {
  it('answers a waiting retry -32602 within seconds when the holder replica dies (its connections cut)', async () => {
    const prefix = `dead-${randomUUID().slice(0, 8)}:`;
    // The holder on connections of its own, cut below without a goodbye (as a SIGKILL or a network split would).
    const publisher = createClient({ url: redis.url });
    const subscriber = publisher.duplicate();
    publisher.on('error', () => undefined);
    subscriber.on('error', () => undefined);
    await Promise.all([publisher.connect(), subscriber.connect()]);
    const holder = createRedisRendezvous({ publisher, subscriber }, { secret: SECRET, keyPrefix: prefix, replyTimeoutMs: 120_000 });
    const forwarder = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix });
    try {
      const callId = randomUUID();
      let reached = false;
      await holder.hold(callId, async () => {
        reached = true;
        return new Promise(() => undefined);
      });
      const replied = forwarder.rendezvous.forward(callId, APPROVAL);
      await waitFor(() => reached, 'the answer to reach the holder');
      const cutAt = Date.now();
      publisher.destroy();
      subscriber.destroy();
      const reply = await replied;
      const waitedMs = Date.now() - cutAt;
      expect(reply).toMatchObject({ ok: false, code: -32602 });
      expect(waitedMs).toBeLessThan(10_000);
    } finally {
      await forwarder.close();
    }
  }, scaledTimeout(30_000));

  it('answers at once (after a short grace) when no replica holds the call', async () => {
    const store = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: `none-${randomUUID().slice(0, 8)}:` });
    try {
      expect(await store.rendezvous.forward(randomUUID(), {})).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}


