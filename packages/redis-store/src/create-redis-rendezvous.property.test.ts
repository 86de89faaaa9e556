// A property over a real redis-server: whatever an attacker without the secret writes where the replicas read
// (a replica's inbox and wake channel, the channel the unsigned rendezvous named by the call id, the event bus),
// built from generated answers and events, unsigned, signed with another key, or a genuine message changed, moved
// to another destination or cut, runs no call and reaches no listener. After each case a genuine retry and a
// genuine event go the same way: once they arrive, the forgery before them was read and refused.
import { randomUUID } from 'node:crypto';
import { propertySettings, scaledTimeout } from '@tool-search/property-settings';
import { startRedisServer, type RedisServerFixture } from '@tool-search/test-utils';
import fc from 'fast-check';
import pino from 'pino';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisStore } from './connect-redis-store.js';
import type { RedisServerEvent } from './create-redis-event-bus.js';
import { createMessageSigner } from './internal/create-message-signer.js';

const SECRET = 'property-test-secret-of-at-least-32-bytes';
const settings = propertySettings();

let redis: RedisServerFixture;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

describe('createRedisRendezvous and createRedisEventBus (property)', () => {
  it('run nothing and deliver nothing that was not signed with the secret for where it was read', async () => {
    const prefix = `prop-${randomUUID().slice(0, 8)}:`;
    let refusals = 0;
    const logger = pino({ level: 'warn' }, { write: (line: string) => void (line.includes('redis message refused') && refusals++) });
    const holder = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix, logger });
    const forwarder = await connectRedisStore(redis.url, { secret: SECRET, keyPrefix: prefix });
    const attacker = createClient({ url: redis.url });
    await attacker.connect();
    const signer = createMessageSigner(SECRET);
    const stranger = createMessageSigner('a-stranger-secret-of-at-least-32-bytes!');
    const target = randomUUID();
    const probe = randomUUID();
    const ran: unknown[] = [];
    const heard: RedisServerEvent[] = [];
    try {
      const stopTarget = await holder.rendezvous.hold(target, async (answers) => {
        ran.push(answers);
        return { ok: true, answer: 'the target ran' };
      });
      const stopProbe = await holder.rendezvous.hold(probe, async () => ({ ok: true, answer: 'probe' }));
      holder.eventBus.subscribe((event) => heard.push(event));
      // Where the holder reads: its wake channel names its inbox.
      const wake = (await attacker.pubSubChannels(`${prefix}mrtr:replica:*`))[0];
      const inbox = `${wake ?? `${prefix}mrtr:replica:unknown`}:inbox`;
      const events = `${prefix}events`;
      const replyTo = `${prefix}mrtr:reply:${randomUUID()}`;
      const answers = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
      const event = fc.constantFrom<RedisServerEvent>({ kind: 'tools_list_changed' }, { kind: 'resource_updated', uri: 'file:///x' });
      const forgery = fc.oneof(
        // The unsigned rendezvous' own format.
        fc.record({ how: fc.constant('unsigned' as const), answers, event }),
        fc.record({ how: fc.constant('other-key' as const), answers, event }),
        fc.record({ how: fc.constant('flip' as const), answers, event, at: fc.nat(), char: fc.string({ minLength: 1, maxLength: 1 }) }),
        fc.record({ how: fc.constant('cut' as const), answers, event, at: fc.nat() }),
        // Genuine, but signed for another replica's inbox or another channel: moved here.
        fc.record({ how: fc.constant('moved' as const), answers, event }),
      );
      await fc.assert(
        fc.asyncProperty(forgery, async (forged) => {
          const forward = { call: signer.nameOf(target), replyTo, answers: forged.answers };
          const published = { origin: 'attacker', event: forged.event };
          let toInbox: string;
          let toEvents: string;
          switch (forged.how) {
            case 'unsigned':
              toInbox = JSON.stringify({ replyTo, answers: forged.answers });
              toEvents = JSON.stringify(published);
              break;
            case 'other-key':
              toInbox = stranger.sign('forward', inbox, forward);
              toEvents = stranger.sign('event', events, published);
              break;
            case 'flip':
            case 'cut': {
              const change = (wire: string) => {
                const at = forged.at % wire.length;
                return forged.how === 'cut' ? wire.slice(0, at) : wire.slice(0, at) + forged.char + wire.slice(at + 1);
              };
              const genuineInbox = signer.sign('forward', inbox, forward);
              const genuineEvents = signer.sign('event', events, published);
              toInbox = change(genuineInbox);
              toEvents = change(genuineEvents);
              fc.pre(toInbox !== genuineInbox && toEvents !== genuineEvents);
              break;
            }
            case 'moved':
              toInbox = signer.sign('forward', `${prefix}mrtr:replica:${randomUUID()}:inbox`, forward);
              toEvents = signer.sign('event', `${prefix}other-events`, published);
              break;
          }
          const before = refusals;
          await attacker.rPush(inbox, toInbox);
          if (wake !== undefined) await attacker.publish(wake, '');
          await attacker.publish(`${prefix}mrtr:call:${target}`, toInbox);
          await attacker.publish(events, toEvents);
          // The genuine ones behind them: once these arrive, the forgeries were read.
          expect(await forwarder.rendezvous.forward(probe, {})).toEqual({ ok: true, answer: 'probe' });
          const count = heard.length;
          forwarder.eventBus.publish({ kind: 'prompts_list_changed' });
          const deadline = Date.now() + 5_000;
          while (heard.length === count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
          expect(ran).toEqual([]);
          expect(heard.filter((seen) => seen.kind !== 'prompts_list_changed')).toEqual([]);
          expect(refusals - before).toBeGreaterThanOrEqual(2);
        }),
        { seed: settings.seed, numRuns: settings.runs(40) },
      );
      // The holder's inbox was among the places written to.
      expect(wake).toBeDefined();
      await Promise.all([stopTarget(), stopProbe()]);
    } finally {
      await attacker.close();
      await Promise.all([holder.close(), forwarder.close()]);
    }
  }, scaledTimeout(120_000));
});
