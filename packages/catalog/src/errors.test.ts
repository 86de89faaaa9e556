import { describe, expect, it } from 'vitest';
import { CatalogError, isCatalogError } from './errors.js';

describe('isCatalogError', () => {
  it('recognises a CatalogError by its brand', () => {
    expect(isCatalogError(new CatalogError('invalid_limit', 'bad'))).toBe(true);
  });

  it('recognises a branded object from another copy of the package', () => {
    expect(isCatalogError({ [Symbol.for('@tool-search/catalog/CatalogError')]: true })).toBe(true);
  });

  it('rejects plain errors and non-objects', () => {
    expect(isCatalogError(new Error('x'))).toBe(false);
    expect(isCatalogError('invalid_limit')).toBe(false);
  });

  it('keeps code, cause and structured fields', () => {
    const cause = new Error('zod');
    const error = new CatalogError('invalid_tool', 'bad', { cause, index: 2, field: 'owner' });
    expect([error.code, error.cause, error.index, error.field, error.name]).toEqual(['invalid_tool', cause, 2, 'owner', 'CatalogError']);
  });
});
