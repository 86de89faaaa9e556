// The one message format of everything this package puts on Redis besides OAuth state (the rendezvous' forwarded
// answers, replies, holder records and heartbeats; the event bus' events): a JSON envelope naming its kind, the
// channel or key it was written to, a fresh id and the time it was made, behind an HMAC-SHA256 of those exact bytes:
//
//   <base64url HMAC-SHA256(macKey, json)>.<json>      json = {"v":1,"kind":…,"to":…,"id":…,"at":…,"body":…}
//
// Both keys are derived from the secret the replicas share (the one that signs the 2026-07-28 `requestState`) with
// HKDF-SHA256 under labels of their own, so a Redis message is never a valid `requestState` nor the reverse. A
// reader checks the MAC (in constant time) before it parses anything, then that the message was written for the
// channel or key it read it from (no replay onto another call, reply or gateway prefix) and that it is not older
// than its kind allows. Call ids never reach Redis: channels and keys are named by `nameOf`, an HMAC of the id.
import { createHmac, hkdfSync, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { RedisStoreError } from '../errors.js';

/** The kinds of message, one per use. */
export type SignedMessageKind = 'forward' | 'reply' | 'held' | 'alive' | 'event';

/** A verified message. */
export interface SignedMessage {
  kind: SignedMessageKind;
  to: string;
  id: string;
  at: number;
  body: unknown;
}

/** Why a message was refused (logged; never the message itself). */
export type RefusalReason = 'malformed' | 'bad_signature' | 'wrong_kind' | 'wrong_destination' | 'expired' | 'from_the_future' | 'too_long';

export type OpenResult = { ok: true; message: SignedMessage } | { ok: false; reason: RefusalReason };

export interface MessageSigner {
  /** The wire form of `body` as a `kind` message for `to` (the channel or key it is written to). */
  sign(kind: SignedMessageKind, to: string, body: unknown): string;
  /** Verifies `wire` read from `to`, expecting `kind`, made at most `maxAgeMs` ago. */
  open(wire: string, expected: { kind: SignedMessageKind; to: string; maxAgeMs: number }): OpenResult;
  /** The name of `callId` on Redis: an HMAC of it (hex, 128 bits), so a reader of Redis learns no call id. */
  nameOf(callId: string): string;
}

/** The shortest secret taken, in UTF-8 bytes (as the MCP server's `requestStateSecret`). */
export const MIN_SECRET_BYTES = 32;
/** How far ahead of this clock another replica's may run. */
const CLOCK_SKEW_MS = 60_000;
/** Longest wire message read (answers and round answers travel here; the HTTP body limit is 4 MiB). */
export const MAX_WIRE_CHARS = 8 * 1024 * 1024;
const MAC_CHARS = 43; // base64url of 32 bytes, unpadded

const EnvelopeSchema = z.strictObject({
  v: z.literal(1),
  kind: z.enum(['forward', 'reply', 'held', 'alive', 'event']),
  to: z.string().min(1),
  id: z.string().min(1).max(100),
  at: z.number().int().nonnegative(),
  body: z.unknown(),
});

/** Checks `secret` (a `RedisStoreError('invalid_options')` naming `secret` when missing or short) and derives the keys. */
export function createMessageSigner(secret: unknown, options: { now?: () => number } = {}): MessageSigner {
  if (typeof secret !== 'string' || secret === '') {
    throw new RedisStoreError(
      'invalid_options',
      'secret: required: the secret the replicas share (the requestStateSecret, TOOL_SEARCH_STATE_SECRET for the CLI) signs every message on Redis; at least 32 bytes (for example: openssl rand -base64 32)',
      { path: 'secret' },
    );
  }
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_SECRET_BYTES) {
    throw new RedisStoreError('invalid_options', `secret: ${bytes} bytes long; it must be at least ${MIN_SECRET_BYTES} (for example: openssl rand -base64 32)`, { path: 'secret' });
  }
  const now = options.now ?? Date.now;
  const derive = (label: string) => Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `tool-search/redis-store/v1/${label}`, 32));
  const macKey = derive('message-mac');
  const nameKey = derive('call-name');
  const macOf = (json: string) => createHmac('sha256', macKey).update(json, 'utf8').digest();
  return {
    sign(kind, to, body) {
      const json = JSON.stringify({ v: 1, kind, to, id: randomUUID(), at: now(), body });
      return `${macOf(json).toString('base64url')}.${json}`;
    },
    open(wire, expected) {
      if (typeof wire !== 'string') return { ok: false, reason: 'malformed' };
      if (wire.length > MAX_WIRE_CHARS) return { ok: false, reason: 'too_long' };
      if (wire.length < MAC_CHARS + 2 || wire[MAC_CHARS] !== '.') return { ok: false, reason: 'malformed' };
      const given = Buffer.from(wire.slice(0, MAC_CHARS), 'base64url');
      const json = wire.slice(MAC_CHARS + 1);
      // The MAC first: nothing of an unsigned message is parsed.
      if (given.length !== 32 || given.toString('base64url') !== wire.slice(0, MAC_CHARS) || !timingSafeEqual(given, macOf(json))) return { ok: false, reason: 'bad_signature' };
      let parsed: unknown;
      try {
        parsed = JSON.parse(json);
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      const envelope = EnvelopeSchema.safeParse(parsed);
      if (!envelope.success) return { ok: false, reason: 'malformed' };
      const message = envelope.data;
      if (message.kind !== expected.kind) return { ok: false, reason: 'wrong_kind' };
      if (message.to !== expected.to) return { ok: false, reason: 'wrong_destination' };
      const age = now() - message.at;
      if (age > expected.maxAgeMs + CLOCK_SKEW_MS) return { ok: false, reason: 'expired' };
      if (age < -CLOCK_SKEW_MS) return { ok: false, reason: 'from_the_future' };
      return { ok: true, message: message as SignedMessage };
    },
    nameOf(callId) {
      return createHmac('sha256', nameKey).update(callId, 'utf8').digest('hex').slice(0, 32);
    },
  };
}
