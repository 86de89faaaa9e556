import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from './measure-json-text.js';
import { parseChildMessage as parseResult } from './parse-child-message.js';

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
