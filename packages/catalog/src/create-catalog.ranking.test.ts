import { describe, expect, it } from 'vitest';
import { createCatalog, createRankedCatalog } from './create-catalog.js';
import { isCatalogError } from './errors.js';
import { DEFAULT_RANKING } from './internal/search-index.js';
import type { ToolInput } from './types.js';

const TOOLS: ToolInput[] = [
  { name: 'read_file', source: 'openclaw', owner: 'core', description: 'Read the contents of a file.' },
  { name: 'fetch_page', source: 'plugin', owner: 'web', description: 'Read a web page and return its file of text.' },
];

describe('createRankedCatalog', () => {
  it('ranks with DEFAULT_RANKING exactly as createCatalog does', () => {
    const ranked = createRankedCatalog(TOOLS, {}, DEFAULT_RANKING).search('read file');
    expect(ranked).toEqual(createCatalog(TOOLS).search('read file'));
  });

  it('ranks with the settings it is given', () => {
    const nameBlind = { ...DEFAULT_RANKING, fieldWeights: { ...DEFAULT_RANKING.fieldWeights, name: 0 } };
    const withNames = createRankedCatalog(TOOLS, {}, DEFAULT_RANKING).search('read file');
    const withoutNames = createRankedCatalog(TOOLS, {}, nameBlind).search('read file');
    expect(withoutNames.map((hit) => hit.id)).toEqual(withNames.map((hit) => hit.id));
    expect(withoutNames[0]?.score).toBeLessThan(withNames[0]?.score as number);
  });
});

describe('createCatalog', () => {
  it('rejects a ranking option: ranking settings are not public', () => {
    let caught: unknown;
    try {
      createCatalog(TOOLS, { ranking: DEFAULT_RANKING } as never);
    } catch (error) {
      caught = error;
    }
    expect(isCatalogError(caught) && caught.code).toBe('invalid_options');
    expect(isCatalogError(caught) && caught.message).toContain('ranking');
  });
});
