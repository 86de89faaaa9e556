import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderWordNetLicenseFile, renderWordNetTableModule } from '../../scripts/render-wordnet-table.js';
import { normalizeTerm } from '../internal/tokenize-text.js';
import { wordnetThesaurus } from './index.js';
import { scaledTimeout } from '@tool-search/property-settings';

const stem = (word: string) => normalizeTerm(word) as string;

describe('wordnetThesaurus', () => {
  it('relates a verb to its synonyms and hypernyms (relocate -> move)', () => {
    expect(wordnetThesaurus().related(stem('relocate'))).toContain(stem('move'));
  });

  it('relates a two-word verb as such (kick off -> start)', () => {
    expect(wordnetThesaurus().related(`${stem('kick')} off`)).toContain(stem('start'));
  });

  it('has nothing for a word WordNet does not know, nor for proper names', () => {
    expect(wordnetThesaurus().related('kubernet')).toBeUndefined();
    expect(wordnetThesaurus().related(stem('tokyo'))).toBeUndefined();
  });

  it('is one frozen object named after its source', () => {
    expect(wordnetThesaurus()).toBe(wordnetThesaurus());
    expect(Object.isFrozen(wordnetThesaurus())).toBe(true);
    expect(wordnetThesaurus().id).toBe('wordnet-3.1');
  });

  it('is the table and licence that scripts/generate-wordnet-table.ts writes from the WordNet database', () => {
    expect(readFileSync(new URL('./wordnet-table.ts', import.meta.url), 'utf8')).toBe(renderWordNetTableModule());
    expect(readFileSync(new URL('../../WORDNET-LICENSE', import.meta.url), 'utf8')).toBe(renderWordNetLicenseFile());
  }, scaledTimeout(60_000));
});
