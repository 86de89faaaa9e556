import { describe, expect, it } from 'vitest';
import { PolicyError, isPolicyError } from './errors';

describe('PolicyError', () => {
  it('carries its code, path, issues and cause', () => {
    const cause = new Error('root');
    const error = new PolicyError('invalid_config', 'bad', { path: 'deny[0]', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('PolicyError');
    expect(error.code).toBe('invalid_config');
    expect(error.path).toBe('deny[0]');
    expect(error.issues).toEqual([{ path: 'deny[0]', message: 'bad' }]);
    expect(error.cause).toBe(cause);
  });
});

describe('isPolicyError', () => {
  it('recognises a PolicyError by its brand', () => {
    expect(isPolicyError(new PolicyError('invalid_argument', 'x'))).toBe(true);
  });

  it('recognises an error branded by another copy of the package', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('tool-search.error')]: 'PolicyError' });
    expect(isPolicyError(foreign)).toBe(true);
    expect(isPolicyError(Object.assign(new Error('x'), { [Symbol.for('tool-search.error')]: 'ModesError' }))).toBe(false);
  });

  it('rejects other values', () => {
    expect(isPolicyError(new Error('x'))).toBe(false);
    expect(isPolicyError({ code: 'invalid_config' })).toBe(false);
    expect(isPolicyError(null)).toBe(false);
  });
});
