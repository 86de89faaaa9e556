import { describe, expect, it } from 'vitest';
import { isCommonRunOptions, runOptionsSchema } from './schemas.js';

const fn = () => null;
const bridge = { search: fn, describe: fn, call: fn };

describe('isCommonRunOptions', () => {
  const valid: Array<Record<string, unknown>> = [
    { code: 'return 1', bridge },
    { code: '', bridge, timeoutMs: 500 },
    { code: 'x', bridge, signal: new AbortController().signal, timeoutMs: undefined },
    { code: 'x', bridge: { ...bridge, extra: 1 } },
  ];
  const odd: unknown[] = [undefined, null, 0, Number.NaN, Number.POSITIVE_INFINITY, 'x', true, [], {}, fn, new AbortController()];

  it('accepts the common valid shapes without the schema', () => {
    for (const options of valid) expect(isCommonRunOptions(options)).toBe(true);
  });

  it('never accepts what runOptionsSchema refuses (every one-step variant of each valid shape)', () => {
    let refused = 0;
    for (const options of valid) {
      const variants: unknown[] = [{ ...options, unknown: 1 }, [options], null, 'code'];
      for (const key of ['code', 'bridge', 'timeoutMs', 'signal']) for (const value of odd) variants.push({ ...options, [key]: value });
      for (const key of ['search', 'describe', 'call']) for (const value of odd) variants.push({ ...options, bridge: { ...bridge, [key]: value } });
      for (const variant of variants) {
        if (runOptionsSchema.safeParse(variant).success) continue;
        refused += 1;
        expect({ variant, accepted: isCommonRunOptions(variant) }).toEqual({ variant, accepted: false });
      }
    }
    expect(refused).toBeGreaterThan(100);
  });
});
