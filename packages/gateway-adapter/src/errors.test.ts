import { describe, expect, it } from 'vitest';
import { GatewayAdapterError, isGatewayAdapterError, isToolSearchError } from './errors.js';

const BRAND = Symbol.for('tool-search.error');

describe('GatewayAdapterError', () => {
  it('carries its name, code, path and cause', () => {
    const cause = new Error('root');
    const error = new GatewayAdapterError('invalid_config', 'bad mode', { cause, path: 'toolSearch.mode' });
    expect(error).toBeInstanceOf(GatewayAdapterError);
    expect(error).toMatchObject({ name: 'GatewayAdapterError', code: 'invalid_config', message: 'bad mode', path: 'toolSearch.mode' });
    expect(error.cause).toBe(cause);
  });
});

describe('isGatewayAdapterError', () => {
  it('recognises the brand, also on an object from another copy of the package', () => {
    expect(isGatewayAdapterError(new GatewayAdapterError('session_closed', 'closed'))).toBe(true);
    expect(isGatewayAdapterError({ [BRAND]: 'GatewayAdapterError' })).toBe(true);
    expect(isGatewayAdapterError({ [BRAND]: 'CatalogError' })).toBe(false);
    expect(isGatewayAdapterError(new Error('x'))).toBe(false);
  });
});

describe('isToolSearchError', () => {
  it('recognises an error of any Tool Search package, from any copy, by a brand that is its name', () => {
    expect(isToolSearchError(new GatewayAdapterError('session_closed', 'closed'))).toBe(true);
    expect(isToolSearchError(Object.assign(new Error('x'), { name: 'CatalogError', [BRAND]: 'CatalogError' }))).toBe(true);
  });

  it('rejects a brand that is not the name, a brand that is not a string, and unbranded values', () => {
    expect(isToolSearchError(Object.assign(new Error('x'), { name: 'TypeError', [BRAND]: 'CatalogError' }))).toBe(false);
    expect(isToolSearchError(Object.assign(new Error('x'), { name: 'CatalogError', [BRAND]: 1 }))).toBe(false);
    expect(isToolSearchError(Object.assign(new Error('x'), { name: 'CatalogError' }))).toBe(false);
    expect(isToolSearchError(null)).toBe(false);
    expect(isToolSearchError('CatalogError')).toBe(false);
  });
});
