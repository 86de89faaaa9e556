import { describe, expect, it } from 'vitest';
import { directoryBudget, renderDirectory, type DirectoryRow } from './render-directory.js';
import { utf8Length } from './text.js';

const rows: DirectoryRow[] = [
  { name: 'zeta', owner: 'p', description: 'Last tool by name, from a plugin, with a long description here.', source: 'plugin' },
  { name: 'alpha', owner: 'core', description: 'First tool\n\tby  name.', source: 'openclaw' },
  { name: 'mid', owner: 'core', description: 'A core tool in the middle of the list.', source: 'openclaw' },
];

describe('directoryBudget', () => {
  it('is min(12000, max(768, contextWindowTokens / 10)), 12000 by default, maxChars first', () => {
    expect(directoryBudget({})).toBe(12_000);
    expect(directoryBudget({ contextWindowTokens: 1_000_000 })).toBe(12_000);
    expect(directoryBudget({ contextWindowTokens: 64_005 })).toBe(6_400);
    expect(directoryBudget({ contextWindowTokens: 2_000 })).toBe(768);
    expect(directoryBudget({ maxChars: 18_000, contextWindowTokens: 2_000 })).toBe(18_000);
  });
});

describe('renderDirectory', () => {
  it('sorts rows by name and collapses whitespace', () => {
    const directory = renderDirectory({ rows, hiddenCount: 3, budget: 12_000 });
    expect(directory.text.split('\n')).toEqual([
      '- alpha (core): First tool by name.',
      '- mid (core): A core tool in the middle of the list.',
      '- zeta (p): Last tool by name, from a plugin, with a long description here.',
    ]);
  });

  it('cuts every description to the same cap when the budget is tight', () => {
    const directory = renderDirectory({ rows, hiddenCount: 3, budget: 130 });
    expect(directory.descriptionChars).toBeLessThan(60);
    expect(directory.descriptionChars).toBeGreaterThanOrEqual(24);
    expect(directory.listed).toBe(3);
    expect(utf8Length(directory.text)).toBeLessThanOrEqual(130);
    expect(directory.text).toContain('…');
  });

  it('shows names alone before dropping a row', () => {
    const directory = renderDirectory({ rows, hiddenCount: 3, budget: 45 });
    expect(directory.text).toBe('- alpha (core)\n- mid (core)\n- zeta (p)');
  });

  it('drops plugin rows before core rows and says how many are not listed', () => {
    const directory = renderDirectory({ rows, hiddenCount: 10, budget: 60 });
    expect(directory.text).toBe('- alpha (core)\n- mid (core)\n8 more tools: use tool_search');
  });

  it('is empty when nothing fits', () => {
    expect(renderDirectory({ rows, hiddenCount: 3, budget: 5 })).toEqual({ text: '', listed: 0, descriptionChars: 0 });
  });
});
