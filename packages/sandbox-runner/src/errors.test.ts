import { describe, expect, it } from 'vitest';
import { isSandboxRunnerError, SandboxRunnerError } from './errors.js';

describe('isSandboxRunnerError', () => {
  it('recognises a SandboxRunnerError by its brand', () => {
    const error = new SandboxRunnerError('runner_closed', 'closed');
    expect(isSandboxRunnerError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'SandboxRunnerError', code: 'runner_closed', message: 'closed' });
  });

  it('recognises a copy from another module instance (same Symbol.for brand)', () => {
    const brand = Symbol.for('tool-search.error');
    expect(isSandboxRunnerError({ [brand]: 'SandboxRunnerError', code: 'invalid_options' })).toBe(true);
    expect(isSandboxRunnerError({ [brand]: 'CatalogError', code: 'invalid_options' })).toBe(false);
  });

  it('rejects plain errors and non-objects', () => {
    expect(isSandboxRunnerError(new Error('x'))).toBe(false);
    expect(isSandboxRunnerError('x')).toBe(false);
    expect(isSandboxRunnerError(null)).toBe(false);
  });
});
