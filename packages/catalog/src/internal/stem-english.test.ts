import { describe, expect, it } from 'vitest';
import { stemEnglish } from './stem-english.js';

describe('stemEnglish', () => {
  it('reduces plurals to the singular stem', () => {
    expect(stemEnglish('files')).toBe('file');
    expect(stemEnglish('issues')).toBe(stemEnglish('issue'));
    expect(stemEnglish('queries')).toBe(stemEnglish('query'));
  });

  it('reduces -ing and -ed forms to the same stem', () => {
    expect(stemEnglish('creating')).toBe(stemEnglish('create'));
    expect(stemEnglish('created')).toBe(stemEnglish('create'));
    expect(stemEnglish('running')).toBe('run');
  });

  it('reduces derivational suffixes', () => {
    expect(stemEnglish('translation')).toBe(stemEnglish('translate'));
    expect(stemEnglish('generalization')).toBe(stemEnglish('generalize'));
  });

  it('produces the classic Porter stems', () => {
    expect(['caresses', 'ponies', 'agreed', 'hopping', 'relational', 'hopefulness', 'adjustment'].map(stemEnglish)).toEqual([
      'caress', 'poni', 'agre', 'hop', 'relat', 'hope', 'adjust',
    ]);
  });

  it('leaves short words and non-ASCII words unchanged', () => {
    expect(stemEnglish('is')).toBe('is');
    expect(stemEnglish('größen')).toBe('größen');
    expect(stemEnglish('v2')).toBe('v2');
  });
});
