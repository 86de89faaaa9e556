import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from './requirements.js';

const SRC_DIR = fileURLToPath(new URL('.', import.meta.url));
// A test title citing a requirement: it('[P1] ...') or it(`[P1] ...`), possibly among other ids.
const TITLE_PATTERN = /\bit(?:\.each\([^)]*\))?\(\s*['"`]((?:\[[A-Z]\d+\]\s*)+)/g;

async function citedIds(): Promise<Map<string, Set<string>>> {
  const files = (await readdir(SRC_DIR)).filter((file) => file.endsWith('.test.ts') && file !== 'requirements.test.ts');
  const cited = new Map<string, Set<string>>();
  for (const file of files) {
    const text = await readFile(new URL(file, import.meta.url), 'utf8');
    const ids = new Set<string>();
    for (const match of text.matchAll(TITLE_PATTERN)) {
      for (const id of match[1]!.matchAll(/\[([A-Z]\d+)\]/g)) ids.add(id[1]!);
    }
    cited.set(file, ids);
  }
  return cited;
}

describe('REQUIREMENTS', () => {
  it('has unique ids', () => {
    expect(new Set(REQUIREMENTS.map((requirement) => requirement.id)).size).toBe(REQUIREMENTS.length);
  });

  it('has a test title citing every requirement in the file it names', async () => {
    const cited = await citedIds();
    const untested = REQUIREMENTS.filter((requirement) => !cited.get(requirement.testFile)?.has(requirement.id)).map(
      (requirement) => `${requirement.id} (${requirement.testFile})`,
    );
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
