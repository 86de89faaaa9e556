import { describe, expect, it } from 'vitest';
import { normalizeTerm } from './tokenize-text.js';
import { expandQueryTerms, INTENT_GROUPS, relatedTerms } from './intent-table.js';

const stem = (word: string) => normalizeTerm(word) as string;

describe('relatedTerms', () => {
  it('relates remove and delete both ways', () => {
    expect(relatedTerms(stem('remove'))).toContain(stem('delete'));
    expect(relatedTerms(stem('delete'))).toContain(stem('remove'));
  });

  it('relates find, search and lookup', () => {
    expect(relatedTerms(stem('find'))).toEqual(expect.arrayContaining([stem('search'), stem('lookup')]));
  });

  it('relates make, create and add', () => {
    expect(relatedTerms(stem('make'))).toEqual(expect.arrayContaining([stem('create'), stem('add')]));
  });

  it('relates open to create (open an issue, a ticket, a pull request)', () => {
    expect(relatedTerms(stem('open'))).toContain(stem('create'));
  });

  it('returns nothing for a word in no group', () => {
    expect(relatedTerms(stem('kubernetes'))).toEqual([]);
  });

  it('has no group word that normalisation drops (a stop word would silently vanish)', () => {
    const dropped = INTENT_GROUPS.flat().filter((word) => normalizeTerm(word) === undefined);
    expect(dropped).toEqual([]);
  });
});

describe('expandQueryTerms', () => {
  it('keeps the query terms at weight 1 and adds relatives at the expansion weight', () => {
    const expanded = expandQueryTerms([stem('delete'), stem('repo')], 0.4);
    expect(expanded.slice(0, 2)).toEqual([
      { term: stem('delete'), weight: 1, origin: stem('delete') },
      { term: stem('repo'), weight: 1, origin: stem('repo') },
    ]);
    expect(expanded).toContainEqual({ term: stem('remove'), weight: 0.4, origin: stem('delete') });
    expect(expanded).toContainEqual({ term: stem('repository'), weight: 0.4, origin: stem('repo') });
  });

  it('does not add a relative that is already a query term', () => {
    const expanded = expandQueryTerms([stem('remove'), stem('delete')], 0.4);
    expect(expanded.filter((entry) => entry.term === stem('delete'))).toEqual([{ term: stem('delete'), weight: 1, origin: stem('delete') }]);
  });
});
