import { describe, expect, it } from 'vitest';
import { createErrorGuard, readErrorBrand, TOOL_SEARCH_ERROR_BRAND, ToolSearchErrorBase } from './index.js';

type ExampleErrorCode = 'bad_input' | 'closed';

// A package's error class, as every package writes it.
class ExampleError extends ToolSearchErrorBase<ExampleErrorCode> {
  readonly extra: number | undefined;

  constructor(code: ExampleErrorCode, message: string, options: { cause?: unknown; path?: string; extra?: number } = {}) {
    super('ExampleError', code, message, options);
    this.extra = options.extra;
  }
}

const isExampleError = createErrorGuard<ExampleError>('ExampleError');

describe('TOOL_SEARCH_ERROR_BRAND', () => {
  it('is the registry symbol every copy of every package shares', () => {
    expect(TOOL_SEARCH_ERROR_BRAND).toBe(Symbol.for('tool-search.error'));
  });
});

describe('ToolSearchErrorBase', () => {
  it('sets name, code, message, path and the subclass fields', () => {
    const error = new ExampleError('bad_input', 'limit is -1, expected a positive integer', { path: 'limits.max', extra: 3 });
    expect(error).toMatchObject({ name: 'ExampleError', code: 'bad_input', message: 'limit is -1, expected a positive integer', path: 'limits.max', extra: 3 });
  });

  it('is an instance of the subclass and of Error, with the subclass name in its stack', () => {
    const error = new ExampleError('closed', 'closed');
    expect(error).toBeInstanceOf(ExampleError);
    expect(error).toBeInstanceOf(Error);
    expect(error.stack).toMatch(/^ExampleError: closed/);
  });

  it('brands the error with its name, not enumerable and not writable', () => {
    const error = new ExampleError('closed', 'closed');
    expect((error as unknown as Record<symbol, unknown>)[TOOL_SEARCH_ERROR_BRAND]).toBe('ExampleError');
    expect(Object.getOwnPropertyDescriptor(error, TOOL_SEARCH_ERROR_BRAND)).toEqual({ value: 'ExampleError', writable: false, enumerable: false, configurable: false });
  });

  it('keeps a given cause, also a falsy one', () => {
    const cause = new Error('root');
    expect(new ExampleError('bad_input', 'x', { cause }).cause).toBe(cause);
    expect(new ExampleError('bad_input', 'x', { cause: 0 }).cause).toBe(0);
  });

  it('has no cause at all when none is given', () => {
    expect('cause' in new ExampleError('bad_input', 'x')).toBe(false);
    expect('cause' in new ExampleError('bad_input', 'x', { cause: undefined })).toBe(false);
  });

  it('leaves path undefined when none is given', () => {
    const error = new ExampleError('bad_input', 'x');
    expect(error.path).toBeUndefined();
  });
});

describe('createErrorGuard', () => {
  it('recognises an error of the class by its brand', () => {
    expect(isExampleError(new ExampleError('closed', 'closed'))).toBe(true);
  });

  it('recognises an object branded by another copy of the package', () => {
    expect(isExampleError({ [Symbol.for('tool-search.error')]: 'ExampleError' })).toBe(true);
    expect(isExampleError(Object.assign(new Error('x'), { [Symbol.for('tool-search.error')]: 'ExampleError' }))).toBe(true);
  });

  it('rejects errors of other classes, unbranded errors and non-objects', () => {
    expect(isExampleError({ [Symbol.for('tool-search.error')]: 'OtherError' })).toBe(false);
    expect(isExampleError(Object.assign(new Error('x'), { name: 'ExampleError' }))).toBe(false);
    expect(isExampleError({ [Symbol('tool-search.error')]: 'ExampleError' })).toBe(false);
    expect(isExampleError(null)).toBe(false);
    expect(isExampleError('ExampleError')).toBe(false);
  });
});

describe('readErrorBrand', () => {
  it('gives the brand of a branded value and undefined for anything else', () => {
    expect(readErrorBrand(new ExampleError('closed', 'closed'))).toBe('ExampleError');
    expect(readErrorBrand({ [Symbol.for('tool-search.error')]: 42 })).toBeUndefined();
    expect(readErrorBrand(new Error('x'))).toBeUndefined();
    expect(readErrorBrand(undefined)).toBeUndefined();
  });
});
