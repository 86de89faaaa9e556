import { describe, expect, it } from 'vitest';
import {
  JSON_TEXT_MALFORMED,
  JSON_TEXT_OK,
  JSON_TEXT_TOO_DEEP,
  JSON_TEXT_TOO_MANY_MEMBERS,
  measureJsonText,
} from './measure-json-text.js';

/** The smallest member cap that still accepts `value`. */
function membersOf(value: unknown): number {
  const text = JSON.stringify(value);
  let cap = 0;
  while (measureJsonText(text, cap, 1_000) === JSON_TEXT_TOO_MANY_MEMBERS) cap += 1;
  return cap;
}

describe('measureJsonText', () => {
  it('counts array elements and object members, not the root and not keys separately', () => {
    expect(membersOf(1)).toBe(0);
    expect(membersOf([])).toBe(0);
    expect(membersOf({})).toBe(0);
    expect(membersOf([1, 2, 3])).toBe(3);
    expect(membersOf({ a: 1, b: [true, null], c: { d: 'x' } })).toBe(6);
    expect(membersOf([[], [[]], {}])).toBe(4);
  });

  it('ignores brackets, commas, colons and escaped quotes inside strings', () => {
    expect(membersOf(['a,b:[c]{', 'say \\"hi\\", "ok"', '\\\\'])).toBe(3);
    expect(membersOf({ 'k,:[{': 'v"],' })).toBe(1);
  });

  it('reports the nesting depth against the cap', () => {
    expect(measureJsonText('[[[]]]', 10, 3)).toBe(JSON_TEXT_OK);
    expect(measureJsonText('[[[[]]]]', 10, 3)).toBe(JSON_TEXT_TOO_DEEP);
    expect(measureJsonText('{"a":{"b":{"c":1}}}', 10, 3)).toBe(JSON_TEXT_OK);
    expect(measureJsonText('"[[[[[[["', 10, 1)).toBe(JSON_TEXT_OK);
  });

  it('stops at the first cap passed: a 95,000-key object is refused without reading it all', () => {
    const keys: Record<string, number> = {};
    for (let index = 0; index < 95_000; index += 1) keys[`k${index}`] = index;
    expect(measureJsonText(JSON.stringify(keys), 10_000, 256)).toBe(JSON_TEXT_TOO_MANY_MEMBERS);
  });

  it('reports an unterminated string as malformed', () => {
    expect(measureJsonText('["abc', 10, 10)).toBe(JSON_TEXT_MALFORMED);
    expect(measureJsonText('["abc\\"]', 10, 10)).toBe(JSON_TEXT_MALFORMED);
  });

  it('gives the same verdict for the UTF-8 bytes of a text as for the text', () => {
    const texts = [
      JSON.stringify({ a: 'é€😀', b: ['"[', '\\', { c: '\u0000' }], d: [[[1]]] }),
      JSON.stringify(Array.from({ length: 50 }, (_, index) => ({ ['ключ' + index]: ['значение', index] }))),
      '["unterminated é',
      '[[[[[["€"]]]]]]',
    ];
    for (const text of texts) {
      for (const [members, depth] of [[1_000, 256], [3, 256], [1_000, 3], [40, 2]] as const) {
        expect(measureJsonText(new TextEncoder().encode(text), members, depth)).toBe(measureJsonText(text, members, depth));
      }
    }
  });

  it('is self-contained, so its source text can be embedded in the sandbox', () => {
    const rebuilt = new Function(`return (${String(measureJsonText)})`)() as typeof measureJsonText;
    expect(rebuilt('[1,[2,{"a":3}]]', 10, 10)).toBe(JSON_TEXT_OK);
    expect(rebuilt('[1,2,3]', 2, 10)).toBe(JSON_TEXT_TOO_MANY_MEMBERS);
    expect(rebuilt(new TextEncoder().encode('[1,2,3]'), 2, 10)).toBe(JSON_TEXT_TOO_MANY_MEMBERS);
  });
});
