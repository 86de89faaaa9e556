import { describe, expect, it } from 'vitest';
import { CatalogError, isCatalogError } from './errors.js';

describe('isCatalogError', () => {
  it('recognises a CatalogError by its brand', () => {
    expect(isCatalogError(new CatalogError('invalid_limit', 'bad'))).toBe(true);
  });

  it('recognises a branded object from another copy of the package', () => {
    expect(isCatalogError({ [Symbol.for('tool-search.error')]: 'CatalogError' })).toBe(true);
  });

  it('rejects plain errors, errors of other packages and non-objects', () => {
    expect(isCatalogError(new Error('x'))).toBe(false);
    expect(isCatalogError({ [Symbol.for('tool-search.error')]: 'PolicyError' })).toBe(false);
    expect(isCatalogError('invalid_limit')).toBe(false);
  });

  it('keeps code, cause and structured fields', () => {
    const cause = new Error('root');
    const error = new CatalogError('invalid_tool', 'bad', { cause, index: 2, path: 'tools[2].owner' });
    expect([error.code, error.cause, error.index, error.path, error.name]).toEqual(['invalid_tool', cause, 2, 'tools[2].owner', 'CatalogError']);
  });
});
