import { describe, expect, it } from 'vitest';
import { isMcpServerError } from '../errors.js';
import { checkStateSecret } from './check-state-secret.js';

describe('checkStateSecret', () => {
  it('takes no secret, and one of 32 bytes or more', () => {
    expect(() => checkStateSecret(undefined)).not.toThrow();
    expect(() => checkStateSecret('x'.repeat(32))).not.toThrow();
  });

  it('refuses a shorter secret with invalid_options, naming its length and the minimum', () => {
    let caught: unknown;
    try {
      checkStateSecret('x'.repeat(31));
    } catch (error) {
      caught = error;
    }
    expect(isMcpServerError(caught) && caught.code).toBe('invalid_options');
    expect((caught as Error).message).toBe('requestStateSecret is 31 bytes long; it must be at least 32 (for example 32 random bytes, base64)');
  });
});
