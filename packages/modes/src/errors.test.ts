import { describe, expect, it } from 'vitest';
import { isModesError, ModesError } from './errors.js';

describe('ModesError', () => {
  it('carries its code, tool ids, path and cause', () => {
    const cause = new Error('inner');
    const error = new ModesError('client_tool_collision', 'clash', { cause, toolIds: ['client:a:x', 'plugin:b:x'], path: 'clientTools[0]' });
    expect(error).toMatchObject({ name: 'ModesError', code: 'client_tool_collision', toolIds: ['client:a:x', 'plugin:b:x'], path: 'clientTools[0]' });
    expect(error.cause).toBe(cause);
  });
});

describe('isModesError', () => {
  it('recognises the brand, also on an object from another copy of the package', () => {
    expect(isModesError(new ModesError('invalid_options', 'bad'))).toBe(true);
    expect(isModesError({ [Symbol.for('tool-search.error')]: 'ModesError' })).toBe(true);
    expect(isModesError({ [Symbol.for('tool-search.error')]: 'CatalogError' })).toBe(false);
  });

  it('rejects other errors and values', () => {
    expect(isModesError(new Error('x'))).toBe(false);
    expect(isModesError(null)).toBe(false);
    expect(isModesError('ModesError')).toBe(false);
  });
});
