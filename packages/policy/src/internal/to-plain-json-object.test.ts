import { describe, expect, it } from 'vitest';
import { toPlainJsonObject } from './to-plain-json-object';

describe('toPlainJsonObject', () => {
  it('deep-copies a plain JSON object', () => {
    const value = { a: [1, { b: null }], c: 'x', d: true, e: Object.assign(Object.create(null) as object, { f: 1 }) };
    const result = toPlainJsonObject(value);
    expect(result).toEqual({ ok: true, value: { a: [1, { b: null }], c: 'x', d: true, e: { f: 1 } } });
    expect(result.ok && result.value.a).not.toBe(value.a);
  });

  it('drops undefined properties, as JSON does', () => {
    expect(toPlainJsonObject({ a: 1, b: undefined })).toEqual({ ok: true, value: { a: 1 } });
  });

  it('keeps a __proto__ key as data instead of setting the prototype', () => {
    const result = toPlainJsonObject(JSON.parse('{"__proto__": {"polluted": true}}') as unknown);
    expect(result.ok).toBe(true);
    const copy = result.ok ? result.value : {};
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it.each([
    ['undefined array item', { a: [undefined] }, 'args.a[0] is undefined, which is not JSON'],
    ['bigint', { a: 1n }, 'args.a is a bigint'],
    ['infinity', { a: Infinity }, 'non-finite'],
    ['sparse array', { a: Object.assign(new Array(3), { 0: 1, 2: 3 }) }, 'args.a[1] is a hole'],
    ['class instance', { a: new Date(0) }, 'instance of Date'],
    ['top-level array', [], 'received an array'],
    ['top-level null', null, 'received null'],
  ])('rejects a %s', (_label, value, problem) => {
    const result = toPlainJsonObject(value);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toContain(problem);
  });

  it('rejects a circular value', () => {
    const value: Record<string, unknown> = {};
    value.self = value;
    const result = toPlainJsonObject(value);
    expect(!result.ok && result.problem).toContain('circular');
  });

  it('rejects a value whose getter throws', () => {
    const value = Object.defineProperty({}, 'a', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(toPlainJsonObject(value)).toEqual({ ok: false, problem: 'boom' });
  });
});
