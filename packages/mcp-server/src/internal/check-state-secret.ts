// The secret that signs the 2026-07-28 front's requestState, checked where options enter (the SDK's codec wants a
// key of at least 32 bytes; a shorter one would fail only with the first modern request).
import { McpServerError } from '../errors.js';

/** The shortest `requestStateSecret` taken, in UTF-8 bytes. */
export const MIN_STATE_SECRET_BYTES = 32;

/** Throws `McpServerError('invalid_options')` when `secret` is set and too short. */
export function checkStateSecret(secret: string | undefined): void {
  if (secret === undefined) return;
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_STATE_SECRET_BYTES) {
    throw new McpServerError('invalid_options', `requestStateSecret is ${bytes} bytes long; it must be at least ${MIN_STATE_SECRET_BYTES} (for example 32 random bytes, base64)`, { path: 'requestStateSecret' });
  }
}
