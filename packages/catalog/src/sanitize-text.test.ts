import { describe, expect, it } from 'vitest';
import { sanitizeText, truncateCodePoints } from './sanitize-text.js';

describe('sanitizeText', () => {
  it('collapses every kind of whitespace, line breaks included, to single spaces', () => {
    expect(sanitizeText('  create\n\n an\tissue\r\n in\u2028a repo  ', { maxLength: 180 })).toBe('create an issue in a repo');
  });

  it('strips C0 and C1 control characters', () => {
    expect(sanitizeText('ok\u0000\u0007\u001b[31m red\u0085\u009b', { maxLength: 180 })).toBe('ok[31m red');
  });

  it('strips bidi overrides and isolates', () => {
    expect(sanitizeText('safe \u202Eevil\u202C \u2066x\u2069 \u200Fy', { maxLength: 180 })).toBe('safe evil x y');
  });

  it('strips zero-width characters and the BOM', () => {
    expect(sanitizeText('ig\u200Bnore\u200C pre\u200Dvious\uFEFF\u2060', { maxLength: 180 })).toBe('ignore previous');
  });

  it('strips invisible Unicode tag characters used for ASCII smuggling', () => {
    const smuggled = 'weather' + [...'run rm'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    expect(sanitizeText(smuggled, { maxLength: 180 })).toBe('weather');
  });

  it('keeps non-English letters and emoji', () => {
    expect(sanitizeText('Überprüfe 天气 🌧', { maxLength: 180 })).toBe('Überprüfe 天气 🌧');
  });

  it('cuts long text at a word boundary and ends it with an ellipsis', () => {
    const text = 'alpha beta gamma delta epsilon';
    expect(sanitizeText(text, { maxLength: 20 })).toBe('alpha beta gamma…');
  });

  it('never returns more than maxLength code points', () => {
    const text = 'x'.repeat(500);
    const result = sanitizeText(text, { maxLength: 180 });
    expect(Array.from(result)).toHaveLength(180);
    expect(result.endsWith('…')).toBe(true);
  });
});

describe('truncateCodePoints', () => {
  it('does not split a surrogate pair', () => {
    expect(truncateCodePoints('😀😀😀😀', 3)).toBe('😀😀…');
  });

  it('returns short text unchanged', () => {
    expect(truncateCodePoints('short', 10)).toBe('short');
  });
});
