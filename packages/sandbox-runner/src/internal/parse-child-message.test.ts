import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from './measure-json-text.js';
import { callMessageSchema, doneMessageSchema, logMessageSchema, startedMessageSchema } from '../schemas.js';
import { FAST_CHECKS_FOR_TESTS, parseChildMessage as parseResult } from './parse-child-message.js';

const line = (value: unknown) => JSON.stringify(value);
/** The message, or null when the line is refused. */
const parseChildMessage = (text: string, options?: { measured?: boolean }) => {
  const parsed = parseResult(text, options);
  return parsed.ok ? parsed.message : null;
};

function objectOfKeys(count: number): Record<string, number> {
  const value: Record<string, number> = {};
  for (let index = 0; index < count; index += 1) value[`k${index}`] = index;
  return value;
}

describe('parseChildMessage', () => {
  it('accepts each protocol message', () => {
    expect(parseChildMessage(line({ type: 'ready', version: 'v26.12.1' }))).toEqual({ type: 'ready', version: 'v26.12.1' });
    expect(parseChildMessage(line({ type: 'refused', reason: 'no --permission' }))).toEqual({ type: 'refused', reason: 'no --permission' });
    expect(parseChildMessage(line({ type: 'log', level: 'warn', text: 'x' }))).toEqual({ type: 'log', level: 'warn', text: 'x' });
    expect(parseChildMessage(line({ type: 'done', ok: true, value: { a: [1] } }))).toEqual({ type: 'done', ok: true, value: { a: [1] } });
    expect(parseChildMessage(line({ type: 'done', ok: true }))).toEqual({ type: 'done', ok: true });
    expect(parseChildMessage(line({ type: 'done', ok: false, code: 'runtime', message: 'boom' }))).toEqual({
      type: 'done',
      ok: false,
      code: 'runtime',
      message: 'boom',
    });
  });

  it('accepts calls with the argument shape of each method', () => {
    expect(parseChildMessage(line({ type: 'call', id: 1, method: 'search', args: ['q', null] }))).toMatchObject({ method: 'search' });
    expect(parseChildMessage(line({ type: 'call', id: 2, method: 'search', args: ['q', { limit: 3 }] }))).toMatchObject({ args: ['q', { limit: 3 }] });
    expect(parseChildMessage(line({ type: 'call', id: 3, method: 'describe', args: ['mcp:a:b'] }))).toMatchObject({ method: 'describe' });
    expect(parseChildMessage(line({ type: 'call', id: 4, method: 'call', args: ['mcp:a:b', [1, 2]] }))).toMatchObject({ method: 'call' });
  });

  it('rejects non-JSON, binary and empty lines', () => {
    expect(parseChildMessage('not json')).toBeNull();
    expect(parseChildMessage('\u0000\uFFFD{')).toBeNull();
    expect(parseChildMessage('')).toBeNull();
  });

  it('rejects unknown types, unknown methods and extra keys', () => {
    expect(parseChildMessage(line({ type: 'exec', command: 'rm -rf /' }))).toBeNull();
    expect(parseChildMessage(line({ type: 'call', id: 1, method: '__proto__', args: [] }))).toBeNull();
    expect(parseChildMessage(line({ type: 'call', id: 1, method: 'constructor', args: [] }))).toBeNull();
    expect(parseChildMessage(line({ type: 'log', level: 'log', text: 'x', extra: 1 }))).toBeNull();
    expect(parseChildMessage(line({ type: 'done', ok: false, code: 'timeout', message: 'forged' }))).toBeNull();
  });

  it('rejects calls with the wrong argument shape or a bad id', () => {
    expect(parseChildMessage(line({ type: 'call', id: 1, method: 'search', args: [42, null] }))).toBeNull();
    expect(parseChildMessage(line({ type: 'call', id: 1, method: 'search', args: ['q', [1]] }))).toBeNull();
    expect(parseChildMessage(line({ type: 'call', id: 1, method: 'describe', args: ['a', 'b'] }))).toBeNull();
    expect(parseChildMessage(line({ type: 'call', id: 0, method: 'describe', args: ['a'] }))).toBeNull();
    expect(parseChildMessage(line({ type: 'call', id: 1.5, method: 'describe', args: ['a'] }))).toBeNull();
  });

  it('keeps a __proto__ key in a value as plain data', () => {
    const message = parseChildMessage('{"type":"done","ok":true,"value":{"__proto__":{"polluted":1},"a":1}}');
    expect(message).not.toBeNull();
    const value = (message as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a line holding more members than any real message, without parsing it (the 95,000-key attack)', () => {
    const attack = line({ type: 'call', id: 1, method: 'search', args: ['q', objectOfKeys(95_000)] });
    expect(parseResult(attack)).toEqual({
      ok: false,
      reason: `a channel line holds more than ${MAX_JSON_MEMBERS} array elements and object members`,
    });
  });

  it('accepts call arguments holding exactly the member cap (the envelope and tuple are not counted)', () => {
    // The tuple holds the id and the options object (2 members); the options hold the rest.
    const atCap = line({ type: 'call', id: 1, method: 'search', args: ['q', objectOfKeys(MAX_JSON_MEMBERS - 2)] });
    expect(parseChildMessage(atCap)).toMatchObject({ type: 'call', method: 'search' });
  });

  it('refuses a line nested deeper than any real message can be', () => {
    let nested: unknown = [];
    for (let depth = 0; depth < MAX_JSON_DEPTH + 2; depth += 1) nested = [nested];
    expect(parseResult(line({ type: 'done', ok: true, value: nested }))).toEqual({
      ok: false,
      reason: `a channel line is nested more than ${MAX_JSON_DEPTH} levels deep`,
    });
  });

  it('skips the measuring for a line trusted code already measured, and still validates it', () => {
    const large = line({ type: 'done', ok: true, value: objectOfKeys(MAX_JSON_MEMBERS + 10) });
    expect(parseChildMessage(large)).toBeNull();
    expect(parseChildMessage(large, { measured: true })).toMatchObject({ type: 'done', ok: true });
    expect(parseChildMessage(line({ type: 'exec' }), { measured: true })).toBeNull();
  });
});

describe('parseChildMessage: the hand checks of hot messages', () => {
  const schemaByType = new Map<unknown, { safeParse(value: unknown): { success: boolean } }>([
    ['started', startedMessageSchema],
    ['log', logMessageSchema],
    ['done', doneMessageSchema],
    ['call', callMessageSchema],
  ]);
  const valid: Array<Record<string, unknown>> = [
    { type: 'started' },
    { type: 'log', level: 'log', text: 'x' },
    { type: 'log', level: 'error', text: '' },
    { type: 'done', ok: true },
    { type: 'done', ok: true, value: null },
    { type: 'done', ok: true, value: { a: [1] } },
    { type: 'done', ok: false, code: 'syntax', message: 'm' },
    { type: 'call', id: 1, method: 'search', args: ['q', null] },
    { type: 'call', id: 2, method: 'search', args: ['q', { limit: 3 }] },
    { type: 'call', id: 3, method: 'describe', args: ['mcp:a:b'] },
    { type: 'call', id: Number.MAX_SAFE_INTEGER, method: 'call', args: ['mcp:a:b', [1, 2]] },
    { type: 'call', id: 5, method: 'call', args: ['mcp:a:b', null] },
  ];
  const odd: unknown[] = [undefined, null, 0, -1, 1.5, 2 ** 53, Number.NaN, '', 'x', 'search', true, false, [], ['q'], ['q', 1, 2], {}, { a: 1 }];
  /** Each valid message with one key removed, one added, or one value replaced by each odd value. */
  function variants(message: Record<string, unknown>): unknown[] {
    const out: unknown[] = [];
    for (const key of Object.keys(message)) {
      const { [key]: _removed, ...rest } = message;
      out.push(rest);
      for (const value of odd) out.push({ ...message, [key]: value });
    }
    out.push({ ...message, extra: 1 });
    if (Array.isArray(message.args)) {
      for (const value of odd) out.push({ ...message, args: [message.args[0], value] }, { ...message, args: [value, ...message.args.slice(1)] });
      out.push({ ...message, args: [...message.args, 'more'] }, { ...message, args: message.args.slice(0, 1) });
    }
    return out.map((value) => JSON.parse(JSON.stringify(value ?? null)) as unknown);
  }

  it('accepts the valid hot messages without the schema', () => {
    for (const message of valid) expect(FAST_CHECKS_FOR_TESTS.get(message.type)?.(message)).toBe(true);
  });

  it('never accepts what the schema refuses (over every one-step variant of each valid message)', () => {
    let checked = 0;
    let refused = 0;
    for (const message of valid) {
      for (const variant of variants(message)) {
        if (variant === null || typeof variant !== 'object' || Array.isArray(variant)) continue;
        const type = (variant as { type?: unknown }).type;
        const fast = FAST_CHECKS_FOR_TESTS.get(type);
        const schema = schemaByType.get(type);
        if (fast === undefined || schema === undefined) continue;
        checked += 1;
        const accepted = fast(variant as Record<string, unknown>);
        if (!schema.safeParse(variant).success) {
          refused += 1;
          expect({ variant, accepted }).toEqual({ variant, accepted: false });
        }
      }
    }
    // The corpus really holds many refusals to compare against.
    expect(checked).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(300);
  });
});
