import { describe, expect, it } from 'vitest';
import { normalizeTerm } from './tokenize-text.js';
import { expandQueryTerms, INTENT_GROUPS, intentSides, OPPOSITE_INTENTS, oppositeSides, relatedTerms } from './intent-table.js';

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

  it('relates a common abbreviation and its word both ways, and not an abbreviation of two meanings', () => {
    for (const [word, short] of [['information', 'info'], ['configuration', 'config'], ['database', 'db'], ['javascript', 'js']]) {
      expect(relatedTerms(stem(word as string))).toContain(stem(short as string));
      expect(relatedTerms(stem(short as string))).toContain(stem(word as string));
    }
    expect(relatedTerms(stem('ts'))).toEqual([]);
  });

  it('returns nothing for a word in no group', () => {
    expect(relatedTerms(stem('cluster'))).toEqual([]);
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

describe('intentSides and oppositeSides', () => {
  const pairOf = (word: string) => OPPOSITE_INTENTS.findIndex(([first, second]) => first.includes(word) || second.includes(word));
  const start = 2 * pairOf('start');
  const stop = 2 * pairOf('stop') + 1;
  const close = 2 * pairOf('close') + 1;

  it("reads a query's words in any regular inflection, a name's only as the verb (or its -s form)", () => {
    for (const word of ['run', 'runs', 'running', 'launched', 'executing', 'executes']) expect(intentSides([word], true)).toEqual([start]);
    expect(intentSides(['dropped'], true)).toHaveLength(1);
    expect(intentSides(['dropped'], false)).toEqual([]);
    expect(intentSides(['drop'], false)).toHaveLength(1);
  });

  it('compares words as written, not as stems: terminal is no terminate, address no add, start no star', () => {
    expect(intentSides(['terminal'], true)).toEqual([]);
    expect(intentSides(['terminate'], true)).toEqual([stop]);
    expect(intentSides(['address'], true)).toEqual([]);
    expect(intentSides(['start'], true)).toEqual([start]);
  });

  it('tells every pair apart, the last as well as the first', () => {
    const last = OPPOSITE_INTENTS.at(-1) as readonly [readonly string[], readonly string[]];
    const sides = intentSides([last[0][0] as string, 'close'], true);
    expect(sides).toEqual([close, 2 * (OPPOSITE_INTENTS.length - 1)]);
  });

  it('gives the other side of each pair the words are on, and nothing for a pair they are on both sides of', () => {
    expect(oppositeSides([start])).toEqual([stop]);
    expect(oppositeSides([stop])).toEqual([start]);
    expect(oppositeSides(intentSides(['start', 'stop', 'close'], true))).toEqual([close - 1]);
    expect(oppositeSides([])).toEqual([]);
  });
});
