import { propertySettings } from '@tool-search/property-settings';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkMessageBounds, DEFAULT_MESSAGE_BOUNDS } from './check-message-bounds.js';

/** An object nested `depth` levels, `{"a":{"a":…{}}}`, as a value that serialises as such without recursion. */
const nested = (depth: number) => ({ deepMarker: true, depth });
const stringify = (message: unknown): string => {
  const deep: number[] = [];
  const text = JSON.stringify(message, (_key, value: unknown) => (typeof value === 'object' && value !== null && 'deepMarker' in value ? (deep.push((value as unknown as { depth: number }).depth), '@@DEEP@@') : value));
  return text.replace(/"@@DEEP@@"/g, () => {
    const depth = deep.shift()!;
    return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
  });
};
const check = (message: unknown, bounds?: Parameters<typeof checkMessageBounds>[1]) => checkMessageBounds(stringify(message), bounds);
const wide = (keys: number): Record<string, number> => Object.fromEntries(Array.from({ length: keys }, (_, index) => [`k${index}`, index]));
const call = (params: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });

describe('checkMessageBounds', () => {
  it('passes an ordinary call, with a progress token and trace context in _meta', () => {
    expect(check(call({ name: 'tool_search', arguments: { query: 'open an issue' }, _meta: { progressToken: 7, traceparent: '00-abc-def-01' } }))).toBeUndefined();
  });

  it('names a _meta with too many keys, a 250,000-key one included', () => {
    expect(check(call({ name: 'x', _meta: wide(250_000) }))).toBe('params._meta has more than 1000 keys and items (the limit)');
    expect(check(call({ name: 'x', _meta: wide(1_001) }))).toBe('params._meta has more than 1000 keys and items (the limit)');
    expect(check(call({ name: 'x', _meta: wide(1_000) }))).toBeUndefined();
  });

  it('names a _meta nested too deep, 5,000 levels included, without overflowing the stack', () => {
    expect(check(call({ name: 'x', _meta: nested(5_000) }))).toBe('params._meta is nested more than 16 levels deep (the limit)');
    expect(check(call({ name: 'x', _meta: nested(1_000_000) }))).toBe('params._meta is nested more than 16 levels deep (the limit)');
    expect(check(call({ name: 'x', _meta: nested(16) }))).toBeUndefined();
  });

  it('names a _meta too large in bytes', () => {
    expect(check(call({ name: 'x', _meta: { note: 'x'.repeat(70_000) } }))).toMatch(/^params\._meta is 7\d{4} bytes; the limit is 65536$/);
  });

  it('names params, a response result and the message itself past their bounds', () => {
    expect(check(call({ name: 'x', arguments: wide(60_000) }))).toBe('params has more than 50000 keys and items (the limit)');
    expect(check(call({ name: 'x', arguments: nested(100) }))).toBe('params is nested more than 64 levels deep (the limit)');
    expect(check({ jsonrpc: '2.0', id: 1, result: { _meta: wide(2_000) } })).toBe('result._meta has more than 1000 keys and items (the limit)');
    expect(check({ jsonrpc: '2.0', id: 1, method: 'ping', extra: nested(200) })).toBe('the message is nested more than 65 levels deep (the limit)');
    expect(check([call({ name: 'ok' }), call({ name: 'x', _meta: nested(50) })])).toBe('params._meta is nested more than 16 levels deep (the limit)');
  });

  it('reads a key written with escapes as the parser does, and ignores _meta-like text inside strings', () => {
    expect(checkMessageBounds(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"\\u005fmeta":${stringify(nested(20))}}}`)).toBe('params._meta is nested more than 16 levels deep (the limit)');
    expect(checkMessageBounds(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"q":"\\"_meta\\":{{{{{{{{{{{{{{{{{{{{{{"}}`)).toBeUndefined();
  });

  it('passes text that is not JSON to the parser', () => {
    expect(checkMessageBounds('{"jsonrpc":"2.0","params":{"a":"unterminated')).toBeUndefined();
    expect(checkMessageBounds(']]]}}}')).toBeUndefined();
  });

  it('never throws and refuses exactly what passes a bound, for any JSON value, however spaced', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 20 }), (meta) => {
        const verdict = check(call({ name: 'x', _meta: meta }), { ...DEFAULT_MESSAGE_BOUNDS, metaEntries: 20, metaDepth: 4 });
        const size = (value: unknown): { entries: number; depth: number } => {
          if (typeof value !== 'object' || value === null) return { entries: 0, depth: 0 };
          const children = Object.values(value).map(size);
          return { entries: children.length + children.reduce((sum, one) => sum + one.entries, 0), depth: 1 + Math.max(0, ...children.map((one) => one.depth)) };
        };
        const { entries, depth } = size(meta);
        expect(verdict !== undefined).toBe(entries > 20 || depth > 4);
      }),
      { seed: propertySettings().seed, numRuns: propertySettings().runs(500) },
    );
  });
});
