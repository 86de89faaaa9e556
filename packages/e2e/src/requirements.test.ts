import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { citedRequirementIds, REQUIREMENTS, untestedRequirements } from './requirements.js';

const SRC_DIR = fileURLToPath(new URL('.', import.meta.url));

async function citedIds(): Promise<Map<string, Set<string>>> {
  const files = (await readdir(SRC_DIR)).filter((file) => file.endsWith('.test.ts') && file !== 'requirements.test.ts');
  const cited = new Map<string, Set<string>>();
  for (const file of files) cited.set(file, citedRequirementIds(await readFile(new URL(file, import.meta.url), 'utf8')));
  return cited;
}

describe('REQUIREMENTS', () => {
  it('has unique ids', () => {
    expect(new Set(REQUIREMENTS.map((requirement) => requirement.id)).size).toBe(REQUIREMENTS.length);
  });

  it('has a test title citing every requirement in the file it names', async () => {
    const untested = untestedRequirements(REQUIREMENTS, await citedIds()).map((requirement) => `${requirement.id} (${requirement.testFile})`);
    expect(untested).toEqual([]);
  });

  it('is cited only with ids it lists', async () => {
    const known = new Set(REQUIREMENTS.map((requirement) => requirement.id));
    const unknown = [...(await citedIds()).entries()].flatMap(([file, ids]) =>
      [...ids].filter((id) => !known.has(id)).map((id) => `${id} in ${file}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe('untestedRequirements', () => {
  const table = [
    { id: 'P1', text: 'one', testFile: 'a.test.ts' },
    { id: 'P2', text: 'two', testFile: 'a.test.ts' },
    { id: 'F1', text: 'three', testFile: 'b.test.ts' },
  ];

  it('reports a requirement no test cites, and one cited only in another file', () => {
    const source = "it('[P1] does one', () => {});\n// [P2] in a comment does not count\n";
    const cited = new Map([
      ['a.test.ts', citedRequirementIds(source)],
      ['c.test.ts', citedRequirementIds("it('[F1] elsewhere', () => {});")],
    ]);
    expect(untestedRequirements(table, cited).map((requirement) => requirement.id)).toEqual(['P2', 'F1']);
  });
});

describe('citedRequirementIds', () => {
  it('reads ids from it, it.each and template-literal titles', () => {
    const source = [
      "it('[P1] a', () => {});",
      "it.each(['x', 'y'] as const)('[P2] %s', () => {});",
      'it(`[F1][F2] c ${name}`, () => {});',
      "describe('[H1] not a test title', () => {});",
    ].join('\n');
    expect([...citedRequirementIds(source)].sort()).toEqual(['F1', 'F2', 'P1', 'P2']);
  });
});
