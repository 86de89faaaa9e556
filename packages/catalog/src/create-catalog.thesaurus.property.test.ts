// Property: a thesaurus never moves an answer its query's own words already give. For any catalog and query whose
// search without a thesaurus is strong evidence by the words' coverage (the rule the thesaurus is read by: the
// verdict-only rules, `quotedOutOfCoverage` and `strongWhenNameAskedCoverage`, are left out of it so no ranking
// moves), the catalog with one answers the search, its evidence and its explanation exactly as without; one whose
// answer is weak by that rule may differ only through thesaurus relatives. And the verdict-only rules never move a
// hit, with or without a thesaurus.
import fc from 'fast-check';
import { propertySettings } from '@tool-search/property-settings';
import { describe, expect, it } from 'vitest';
import { createCatalog, createRankedCatalog } from './create-catalog.js';
import { DEFAULT_RANKING } from './internal/ranking-settings.js';
import { normalizeTerm } from './internal/tokenize-text.js';
import type { Thesaurus, ToolInput } from './types.js';

const WORDS = ['file', 'read', 'write', 'issue', 'create', 'delete', 'calendar', 'event', 'mail', 'send', 'list', 'search', 'repo', 'user', 'image'];
/** Words no tool has, each with relatives among the tools' words (what a thesaurus is read for). */
const UNKNOWN: Record<string, string[]> = { folder: ['file', 'repo'], ticket: ['issue', 'event'], erase: ['delete'], letter: ['mail', 'send'], photo: ['image'] };
const stem = (word: string) => normalizeTerm(word) as string;
const TABLE = new Map(Object.entries(UNKNOWN).map(([key, words]) => [stem(key), words.map(stem)]));
const THESAURUS: Thesaurus = { id: 'property', related: (key) => TABLE.get(key) };

const toolArbitrary = fc.record({
  nameWords: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  owner: fc.constantFrom('github', 'fs', 'mail', 'cal'),
  descriptionWords: fc.array(fc.constantFrom(...WORDS), { maxLength: 10 }),
});
const queryArbitrary = fc.array(fc.constantFrom(...WORDS, ...Object.keys(UNKNOWN), 'zzz'), { minLength: 1, maxLength: 7 }).map((words) => words.join(' '));
/** Queries with a quoted part of words no tool has, beside the catalog's words. */
const quotedQueryArbitrary = fc
  .tuple(queryArbitrary, fc.array(fc.constantFrom('zzz', 'qux', 'plover', 'xyzzy'), { minLength: 1, maxLength: 3 }))
  .map(([words, quoted]) => `${words} "${quoted.join(' ')}"`);

/** The ranking settings without the verdict-only rules: the verdict the thesaurus trigger reads. */
const COVERAGE_ONLY = { ...DEFAULT_RANKING, quotedOutOfCoverage: false, strongWhenNameAskedCoverage: 0 };

describe('createCatalog with a thesaurus (property)', () => {
  it('answers a query whose answer without it is strong by its words\' coverage exactly as without it, and reads relatives only for weak ones', () => {
    const settings = propertySettings();
    let strongSeen = 0;
    let weakChanged = 0;
    fc.assert(
      fc.property(fc.array(toolArbitrary, { minLength: 1, maxLength: 20 }), fc.array(queryArbitrary, { minLength: 1, maxLength: 6 }), (raw, queries) => {
        const seen = new Set<string>();
        const tools: ToolInput[] = raw
          .map((tool) => ({ name: tool.nameWords.join('_'), owner: tool.owner, source: 'mcp' as const, description: tool.descriptionWords.join(' ') }))
          .filter((tool) => !seen.has(`${tool.owner}:${tool.name}`) && seen.add(`${tool.owner}:${tool.name}`) !== undefined);
        const plain = createCatalog(tools);
        const withThesaurus = createCatalog(tools, { thesaurus: THESAURUS });
        const byCoverage = createRankedCatalog(tools, {}, COVERAGE_ONLY);
        for (const query of queries) {
          const before = plain.searchWithEvidence(query);
          const after = withThesaurus.searchWithEvidence(query);
          if (byCoverage.searchWithEvidence(query).evidence === 'strong') {
            strongSeen += 1;
            expect(after).toEqual(before);
            expect(withThesaurus.explain(query)).toEqual(plain.explain(query));
          } else if (JSON.stringify(after) !== JSON.stringify(before)) {
            weakChanged += 1;
            // What moved it is a relative: the explanation names a thesaurus match.
            expect(withThesaurus.explain(query).hits.some((hit) => hit.matches.some((match) => match.path === 'thesaurus'))).toBe(true);
          }
        }
      }),
      { numRuns: settings.runs(100), seed: settings.seed },
    );
    // Both kinds were generated (the property is not vacuous).
    expect(strongSeen).toBeGreaterThan(0);
    expect(weakChanged).toBeGreaterThan(0);
  });

  it('never moves a hit by the verdict-only rules (quoted text, a name asked for), with or without a thesaurus', () => {
    const settings = propertySettings();
    let verdictMoved = 0;
    fc.assert(
      fc.property(fc.array(toolArbitrary, { minLength: 1, maxLength: 20 }), fc.array(quotedQueryArbitrary, { minLength: 1, maxLength: 6 }), (raw, queries) => {
        const seen = new Set<string>();
        const tools: ToolInput[] = raw
          .map((tool) => ({ name: tool.nameWords.join('_'), owner: tool.owner, source: 'mcp' as const, description: tool.descriptionWords.join(' ') }))
          .filter((tool) => !seen.has(`${tool.owner}:${tool.name}`) && seen.add(`${tool.owner}:${tool.name}`) !== undefined);
        for (const options of [{}, { thesaurus: THESAURUS }]) {
          const shipped = createCatalog(tools, options);
          const byCoverage = createRankedCatalog(tools, options, COVERAGE_ONLY);
          for (const query of queries) {
            const answer = shipped.searchWithEvidence(query);
            const reference = byCoverage.searchWithEvidence(query);
            expect(answer.hits).toEqual(reference.hits);
            if (answer.evidence !== reference.evidence) verdictMoved += 1;
          }
        }
      }),
      { numRuns: settings.runs(100), seed: settings.seed },
    );
    // The rules did change some verdicts (the property is not vacuous).
    expect(verdictMoved).toBeGreaterThan(0);
  });
});
