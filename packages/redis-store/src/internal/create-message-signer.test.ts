// The signed format on its own: a message opens where it was written, as what it was signed as, and any change of it
// (a character of its MAC or JSON, its destination, its kind, a cut or an addition, another key) is refused.
import { propertySettings } from '@tool-search/property-settings';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRedisStoreError } from '../errors.js';
import { createMessageSigner, type SignedMessageKind } from './create-message-signer.js';

const SECRET = 'signer-test-secret-of-at-least-32-bytes!';
const settings = propertySettings();
const KINDS: SignedMessageKind[] = ['forward', 'reply', 'held', 'alive', 'event'];

describe('createMessageSigner', () => {
  it('opens what it signed, for the destination and kind it was signed for', () => {
    const signer = createMessageSigner(SECRET);
    const wire = signer.sign('forward', 'p:mrtr:replica:r:inbox', { answers: { a: 1 } });
    expect(signer.open(wire, { kind: 'forward', to: 'p:mrtr:replica:r:inbox', maxAgeMs: 1_000 })).toMatchObject({ ok: true, message: { kind: 'forward', body: { answers: { a: 1 } } } });
    expect(signer.open(wire, { kind: 'forward', to: 'p:mrtr:replica:other:inbox', maxAgeMs: 1_000 })).toEqual({ ok: false, reason: 'wrong_destination' });
    expect(signer.open(wire, { kind: 'reply', to: 'p:mrtr:replica:r:inbox', maxAgeMs: 1_000 })).toEqual({ ok: false, reason: 'wrong_kind' });
  });

  it('refuses a message older than its kind allows (plus a minute of clock skew)', () => {
    let now = 1_000_000;
    const signer = createMessageSigner(SECRET, { now: () => now });
    const wire = signer.sign('event', 'p:events', {});
    now += 1_000 + 60_001;
    expect(signer.open(wire, { kind: 'event', to: 'p:events', maxAgeMs: 1_000 })).toEqual({ ok: false, reason: 'expired' });
  });

  it('names a call by an HMAC of its id: stable for one secret, another for another, never the id', () => {
    const a = createMessageSigner(SECRET);
    const b = createMessageSigner(`${SECRET}-other`);
    expect(a.nameOf('call-1')).toBe(createMessageSigner(SECRET).nameOf('call-1'));
    expect(a.nameOf('call-1')).toMatch(/^[0-9a-f]{32}$/);
    expect(a.nameOf('call-1')).not.toBe(b.nameOf('call-1'));
    expect(a.nameOf('call-1')).not.toContain('call-1');
  });

  it('refuses to exist without a secret of 32 bytes or more, naming the option', () => {
    for (const secret of [undefined, '', 'short']) {
      let thrown: unknown;
      try {
        createMessageSigner(secret);
      } catch (error) {
        thrown = error;
      }
      expect(isRedisStoreError(thrown) && thrown.code === 'invalid_options' && thrown.path === 'secret').toBe(true);
      expect((thrown as Error).message).toMatch(/^secret: /);
    }
  });

  it('accepts no tampered message (property)', () => {
    const signer = createMessageSigner(SECRET);
    const stranger = createMessageSigner('another-secret-of-at-least-32-bytes!!!');
    const tampering = fc.oneof(
      fc.record({ how: fc.constant('flip' as const), at: fc.nat(), char: fc.string({ minLength: 1, maxLength: 1 }) }),
      fc.record({ how: fc.constant('cut' as const), at: fc.nat() }),
      fc.record({ how: fc.constant('append' as const), text: fc.string({ minLength: 1, maxLength: 8 }) }),
      fc.record({ how: fc.constant('retarget' as const), to: fc.string({ minLength: 1, maxLength: 30 }) }),
      fc.record({ how: fc.constant('rekind' as const), kind: fc.constantFrom(...KINDS) }),
      fc.record({ how: fc.constant('other-key' as const) }),
      fc.record({ how: fc.constant('unsigned' as const) }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), fc.string({ minLength: 1, maxLength: 40 }), fc.jsonValue({ maxDepth: 3 }), tampering, (kind, to, body, tamper) => {
        const genuine = signer.sign(kind, to, body);
        const opened = signer.open(genuine, { kind, to, maxAgeMs: 60_000 });
        expect(opened.ok).toBe(true);
        let forged: string;
        let expected = { kind, to, maxAgeMs: 60_000 };
        switch (tamper.how) {
          case 'flip': {
            const at = tamper.at % genuine.length;
            forged = genuine.slice(0, at) + tamper.char + genuine.slice(at + 1);
            break;
          }
          case 'cut':
            forged = genuine.slice(0, tamper.at % genuine.length);
            break;
          case 'append':
            forged = genuine + tamper.text;
            break;
          case 'retarget':
            fc.pre(tamper.to !== to);
            forged = genuine;
            expected = { ...expected, to: tamper.to };
            break;
          case 'rekind':
            fc.pre(tamper.kind !== kind);
            forged = genuine;
            expected = { ...expected, kind: tamper.kind };
            break;
          case 'other-key':
            forged = stranger.sign(kind, to, body);
            break;
          case 'unsigned':
            forged = genuine.slice(44);
            break;
        }
        // A change that leaves the message as it was is no tampering (a character replaced by itself).
        fc.pre(forged !== genuine || tamper.how === 'retarget' || tamper.how === 'rekind');
        expect(signer.open(forged, expected).ok).toBe(false);
      }),
      { seed: settings.seed, numRuns: settings.runs(2_000) },
    );
  });
});
