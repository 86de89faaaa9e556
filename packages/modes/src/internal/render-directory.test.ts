import { describe, expect, it } from 'vitest';
import { directoryBudget, renderDirectory, type DirectoryRow } from './render-directory.js';
import { utf8Length } from './text.js';

const rows: DirectoryRow[] = [
  { name: 'zeta', owner: 'p', description: 'Last tool by name, from a plugin, with a long description here.', source: 'plugin' },
  { name: 'alpha', owner: 'core', description: 'First tool\n\tby  name.', source: 'openclaw' },
  { name: 'mid', owner: 'core', description: 'A core tool in the middle of the list.', source: 'openclaw' },
];

describe('directoryBudget', () => {
  it('is min(11500, max(768, contextWindowTokens / 10)), 11500 by default, maxChars first', () => {
    expect(directoryBudget({})).toBe(11_500);
    expect(directoryBudget({ contextWindowTokens: 1_000_000 })).toBe(11_500);
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

  it('removes what the catalog sanitiser removes: tag characters, soft hyphens, private-use and bidi characters', () => {
    const hidden = 'se\u00adnd\u{E0041}\u{E0042} mail\uE000 now\u202e';
    const directory = renderDirectory({ rows: [{ name: 'send_mail', owner: 'core', description: hidden, source: 'openclaw' }], hiddenCount: 1, budget: 400 });
    expect(directory.text).toBe('- send_mail (core): send mail now');
  });

  it('is empty when nothing fits', () => {
    expect(renderDirectory({ rows, hiddenCount: 3, budget: 5 })).toEqual({ text: '', listed: 0, descriptionChars: 0 });
  });
});

describe('renderDirectory budget accounting', () => {
  const mixed: DirectoryRow[] = [
    { name: 'wetter', owner: 'dwd', description: 'Wetterbericht für München, Köln und Straße 🌦 mit Vorhersage über sieben Tage', source: 'plugin' },
    { name: 'kanji', owner: 'jp', description: '日本語の説明文 with mixed text and a trailing word boundary here ok', source: 'plugin' },
    { name: 'plain', owner: 'core', description: 'a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f', source: 'openclaw' },
  ];

  it('is never above the budget, at every budget from 0 to 400 bytes', () => {
    for (let budget = 0; budget <= 400; budget += 1) {
      const directory = renderDirectory({ rows: mixed, hiddenCount: 5, budget });
      expect(utf8Length(directory.text)).toBeLessThanOrEqual(budget);
    }
  });

  it('uses the budget tightly: a cut directory is within one row-step of the budget', () => {
    const full = renderDirectory({ rows: mixed, hiddenCount: 3, budget: 12_000 });
    const directory = renderDirectory({ rows: mixed, hiddenCount: 3, budget: utf8Length(full.text) - 30 });
    expect(directory.listed).toBe(3);
    expect(utf8Length(directory.text)).toBeGreaterThan(utf8Length(full.text) - 30 - 3 * 4 - 6);
  });
});

describe('renderDirectory row dropping', () => {
  it('takes owners round-robin, so every plugin keeps a row before any keeps two', () => {
    const many: DirectoryRow[] = [];
    for (const owner of ['aa', 'bb', 'cc']) {
      for (let index = 0; index < 4; index += 1) many.push({ name: `${owner}_tool_${index}`, owner, description: '', source: 'plugin' });
    }
    const directory = renderDirectory({ rows: many, hiddenCount: 12, budget: 115 });
    expect(directory.text).toBe(
      ['- aa_tool_0 (aa)', '- aa_tool_1 (aa)', '- bb_tool_0 (bb)', '- bb_tool_1 (bb)', '- cc_tool_0 (cc)', '7 more tools: use tool_search'].join('\n'),
    );
  });
});
