// Against a real redis-server (Debian's, see tooling/system-packages): two stores on one Redis share state; bad
// input fails at connect with a clear error and leaves nothing running.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { startRedisServer, freePort, type RedisServerFixture } from '@tool-search/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisStore } from './connect-redis-store.js';
import { isRedisStoreError } from './errors.js';

const SECRET = 'store-test-secret-of-at-least-32-bytes!!';

let redis: RedisServerFixture;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isRedisStoreError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a RedisStoreError');
}

describe('connectRedisStore', () => {
  it('gives a token store that two processes on one Redis share', async () => {
    const replicaA = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: 'share-test:' });
    const replicaB = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: 'share-test:' });
    try {
      const state = { serverUrl: 'https://mcp.example/mcp', tokens: { access_token: 'refreshed', token_type: 'bearer' } };
      await replicaA.tokenStore.save('linear', state);
      expect(await replicaB.tokenStore.load('linear')).toEqual(state);
      await replicaB.tokenStore.delete('linear');
      expect(await replicaA.tokenStore.load('linear')).toBeUndefined();
    } finally {
      await replicaA.close();
      await replicaB.close();
    }
  });

  it('runs one refresh at a time across processes: the second waits for the first to release the lock', async () => {
    const replicaA = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: 'lock-test:' });
    const replicaB = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: 'lock-test:' });
    try {
      const events: string[] = [];
      let finishA: () => void = () => undefined;
      let startedA: () => void = () => undefined;
      const aStarted = new Promise<void>((resolve) => (startedA = resolve));
      const a = replicaA.tokenStore.withRefreshLock!('linear', async () => {
        events.push('A start');
        startedA();
        await new Promise<void>((resolve) => (finishA = resolve));
        events.push('A end');
      });
      await aStarted;
      const b = replicaB.tokenStore.withRefreshLock!('linear', async () => void events.push('B start'));
      // B is waiting for the lock: it has not started, and starts only once A released it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(events).toEqual(['A start']);
      finishA();
      await Promise.all([a, b]);
      expect(events).toEqual(['A start', 'A end', 'B start']);
    } finally {
      await replicaA.close();
      await replicaB.close();
    }
  });

  it('passes answers to the process holding a call and its reply back, and says when nobody holds it', async () => {
    const replicaA = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: 'rendezvous-test:' });
    const replicaB = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: 'rendezvous-test:' });
    try {
      const received: unknown[] = [];
      const stop = await replicaA.rendezvous.hold('call-1', async (answers) => {
        received.push(answers);
        return { ok: true, answer: { content: [{ type: 'text', text: 'finished on A' }] } };
      });
      expect(await replicaB.rendezvous.forward('call-1', { 'input-1': { action: 'accept' } })).toEqual({ ok: true, answer: { content: [{ type: 'text', text: 'finished on A' }] } });
      expect(received).toEqual([{ 'input-1': { action: 'accept' } }]);
      expect(await replicaB.rendezvous.forward('call-2', {})).toBeUndefined();
      await stop();
      expect(await replicaB.rendezvous.forward('call-1', {})).toBeUndefined();
    } finally {
      await replicaA.close();
      await replicaB.close();
    }
  });

  it("works as a Redis user limited to its prefix and commands (the README's ACL)", async () => {
    const port = await freePort();
    // The README's ACL, as redis-server arguments.
    const acl = ['--user', 'default', 'off', '--user', 'gateway', 'on', '>a-long-random-password', '~tool-search:*', 'resetchannels', '&tool-search:*', '-@all'];
    const commands = ['get', 'set', 'del', 'eval', 'rpush', 'lpop', 'pexpire', 'publish', 'subscribe', 'unsubscribe', 'ping', 'hello', 'auth'].map((name) => `+${name}`);
    const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...acl, ...commands], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => server.once('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        let output = '';
        server.once('exit', () => reject(new Error(`redis-server exited: ${output.slice(-300)}`)));
        server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')).includes('Ready to accept connections') && resolve());
      });
      const url = `redis://gateway:a-long-random-password@127.0.0.1:${port}`;
      const [a, b] = [await connectRedisStore(url, { secret: SECRET }), await connectRedisStore(url, { secret: SECRET })];
      try {
        await a.tokenStore.save('linear', { serverUrl: 'https://mcp.example/mcp' });
        expect(await b.tokenStore.load('linear')).toEqual({ serverUrl: 'https://mcp.example/mcp' });
        expect(await a.tokenStore.withRefreshLock!('linear', async () => 'refreshed')).toBe('refreshed');
        const callId = randomUUID();
        const stop = await a.rendezvous.hold(callId, async () => ({ ok: true, answer: 'answered on a' }));
        expect(await b.rendezvous.forward(callId, {})).toEqual({ ok: true, answer: 'answered on a' });
        await stop();
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    } finally {
      server.kill('SIGKILL');
      await exited;
    }
  });

  it('refuses to start without a secret of 32 bytes or more, naming the option, before connecting', async () => {
    const port = await freePort();
    for (const secret of [undefined, 'short']) {
      const failed = await codeOf(connectRedisStore(`redis://127.0.0.1:${port}`, { secret } as { secret: string }));
      expect(failed.code).toBe('invalid_options');
      expect(failed.message).toMatch(/^secret: /);
    }
  });

  it('refuses a URL that is not a Redis URL, with invalid_url', async () => {
    expect(await codeOf(connectRedisStore('http://127.0.0.1:6379', { secret: SECRET }))).toEqual({ code: 'invalid_url', message: 'Not a Redis URL: "http://127.0.0.1:6379"; expected redis://host:port or rediss://host:port' });
  });

  it('refuses an unknown option with invalid_options, naming it', async () => {
    expect(await codeOf(connectRedisStore(redis.url, { secret: SECRET, connectTimeoutMs: -1 }))).toMatchObject({ code: 'invalid_options', message: expect.stringContaining('connectTimeoutMs') });
  });

  it('is unreachable, naming the URL without its password, when nothing listens there', async () => {
    const port = await freePort();
    const failed = await codeOf(connectRedisStore(`redis://user:hunter2-secret@127.0.0.1:${port}`, { secret: SECRET }));
    expect(failed.code).toBe('unreachable');
    expect(failed.message).toContain(`Redis at redis://user:***@127.0.0.1:${port} cannot be reached: `);
    expect(failed.message).not.toContain('hunter2');
  });
});
