// The event bus against a real redis-server: an event published on one replica's bus reaches the listeners of every
// bus on the channel, its own once (at once, not again from Redis), and nothing else on the channel is delivered.
import { startRedisServer, type RedisServerFixture } from '@tool-search/test-utils';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisStore, type RedisStore } from './connect-redis-store.js';
import type { RedisServerEvent } from './create-redis-event-bus.js';
import { createMessageSigner } from './internal/create-message-signer.js';

const SECRET = 'store-test-secret-of-at-least-32-bytes!!';

let redis: RedisServerFixture;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

/** Waits until `check` holds (events cross Redis asynchronously). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('createRedisEventBus (through connectRedisStore)', () => {
  it("delivers each event to every replica's listeners, the publisher's own once", async () => {
    const prefix = 'bus-test:';
    const stores: RedisStore[] = [];
    try {
      for (let i = 0; i < 3; i++) stores.push(await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix }));
      const heard = stores.map(() => [] as RedisServerEvent[]);
      stores.forEach((store, i) => store.eventBus.subscribe((event) => heard[i]!.push(event)));
      stores[0]!.eventBus.publish({ kind: 'tools_list_changed' });
      // The publisher's own listeners hear it at once, as the in-process bus's do.
      expect(heard[0]).toEqual([{ kind: 'tools_list_changed' }]);
      stores[2]!.eventBus.publish({ kind: 'resource_updated', uri: 'file:///notes.md' });
      await until(() => heard.every((events) => events.length === 2), 'both events on every replica');
      // A little longer: nothing arrives twice (the publisher does not hear its own message back from Redis).
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (const events of heard) {
        expect(events).toHaveLength(2);
        expect(events).toContainEqual({ kind: 'tools_list_changed' });
        expect(events).toContainEqual({ kind: 'resource_updated', uri: 'file:///notes.md' });
      }
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('ignores what is not a signed event on the channel, and keeps delivering when a listener throws', async () => {
    const prefix = 'bus-junk:';
    const store = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix });
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const heard: RedisServerEvent[] = [];
      store.eventBus.subscribe(() => {
        throw new Error('a broken listener');
      });
      store.eventBus.subscribe((event) => heard.push(event));
      // Signed with the secret (as another replica would), but not events.
      const signer = createMessageSigner(SECRET);
      const signed = (body: unknown) => signer.sign('event', `${prefix}events`, body);
      for (const junk of ['not json', '{}', signed({}), signed({ origin: 'x', event: { kind: 'delete_everything' } }), signed({ origin: 'x', event: { kind: 'resource_updated' } })]) {
        await raw.publish(`${prefix}events`, junk);
      }
      await raw.publish(`${prefix}events`, signed({ origin: 'another replica', event: { kind: 'prompts_list_changed' } }));
      await until(() => heard.length > 0, 'the one valid event');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toEqual([{ kind: 'prompts_list_changed' }]);
    } finally {
      await raw.close();
      await store.close();
    }
  });

  it('tells a change that several replicas saw once on each, whichever sighting comes first', async () => {
    const prefix = 'bus-dedupe:';
    const stores: RedisStore[] = [];
    try {
      for (let i = 0; i < 3; i++) stores.push(await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix }));
      const heard = stores.map(() => [] as RedisServerEvent[]);
      stores.forEach((store, i) => store.eventBus.subscribe((event) => heard[i]!.push(event)));
      // Replicas 0 and 1 both see the same upstream change (the same id); replica 2 only hears of it.
      stores[0]!.eventBus.publish({ kind: 'tools_list_changed', changeId: 'digest-of-list-b' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      stores[1]!.eventBus.publish({ kind: 'tools_list_changed', changeId: 'digest-of-list-b' });
      await until(() => heard.every((events) => events.length > 0), 'the change on every replica');
      // Past the wait for an own sighting: no replica is told the change a second time.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // The id stays on the bus: listeners get the event as the SDK's notifier publishes it.
      expect(heard).toEqual([[{ kind: 'tools_list_changed' }], [{ kind: 'tools_list_changed' }], [{ kind: 'tools_list_changed' }]]);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('tells a list that changes back and forth each time, and changes of other lists or without an id as before', async () => {
    const prefix = 'bus-flip:';
    const [a, b] = [await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix }), await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix })];
    try {
      const heard: RedisServerEvent[] = [];
      b.eventBus.subscribe((event) => heard.push(event));
      for (const changeId of ['list-x', 'list-y', 'list-x']) {
        const before = heard.length;
        a.eventBus.publish({ kind: 'tools_list_changed', changeId });
        await until(() => heard.length > before, `the change to ${changeId}`);
      }
      a.eventBus.publish({ kind: 'prompts_list_changed', changeId: 'list-x' });
      a.eventBus.publish({ kind: 'tools_list_changed' });
      a.eventBus.publish({ kind: 'tools_list_changed' });
      await until(() => heard.length === 6, 'the three last events');
      expect(heard.filter((event) => event.kind === 'tools_list_changed')).toHaveLength(5);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('stops hearing other replicas once closed', async () => {
    const prefix = 'bus-close:';
    const [a, b] = [await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix }), await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix })];
    try {
      const heard: RedisServerEvent[] = [];
      b.eventBus.subscribe((event) => heard.push(event));
      await b.eventBus.close();
      a.eventBus.publish({ kind: 'tools_list_changed' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
