import { describe, expect, it } from 'vitest';
import { repairFlattenedArgs } from './repair-flattened-args.js';

describe('repairFlattenedArgs', () => {
  it('passes well-formed args through', () => {
    expect(repairFlattenedArgs({ id: 'x', args: { title: 'a' } }, ['title'])).toEqual({ ok: true, args: { title: 'a' } });
  });

  it('repairs flattened args into args', () => {
    expect(repairFlattenedArgs({ id: 'x', title: 'a', body: 'b' }, ['title', 'body'])).toEqual({
      ok: true,
      args: { title: 'a', body: 'b' },
      repair: 'flattened',
    });
  });

  it('takes a call with only an id as empty args', () => {
    expect(repairFlattenedArgs({ id: 'x' }, [])).toEqual({ ok: true, args: {} });
  });

  it('unwraps a common alias key the tool does not declare', () => {
    expect(repairFlattenedArgs({ id: 'x', arguments: { title: 'a' } }, ['title'])).toEqual({ ok: true, args: { title: 'a' }, repair: 'alias' });
  });

  it('keeps an alias key as a parameter when the tool declares it', () => {
    expect(repairFlattenedArgs({ id: 'x', input: { a: 1 } }, ['input'])).toEqual({ ok: true, args: { input: { a: 1 } }, repair: 'flattened' });
  });

  it('parses args sent as JSON text', () => {
    expect(repairFlattenedArgs({ id: 'x', args: '{"title":"a"}' }, ['title'])).toEqual({ ok: true, args: { title: 'a' }, repair: 'json-string' });
  });

  it('refuses args next to top-level parameters as ambiguous', () => {
    const result = repairFlattenedArgs({ id: 'x', args: { title: 'a' }, body: 'b' }, ['title', 'body']);
    expect(result.ok).toBe(false);
    expect(result).toEqual({ ok: false, error: { kind: 'call_args_and_top_level', extras: ['body'] } });
  });

  it('refuses args that are not an object', () => {
    expect(repairFlattenedArgs({ id: 'x', args: [1] }, [])).toEqual({ ok: false, error: { kind: 'call_args_not_object', received: 'array' } });
    expect(repairFlattenedArgs({ id: 'x', args: 'not json' }, [])).toEqual({ ok: false, error: { kind: 'call_args_not_object', received: 'non-JSON string' } });
    expect(repairFlattenedArgs({ id: 'x', args: 7 }, [])).toEqual({ ok: false, error: { kind: 'call_args_not_object', received: 'number' } });
  });
});
