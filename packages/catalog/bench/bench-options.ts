// What both benchmark scripts read from their command line: the data folder, ranking overrides, a thesaurus.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RANKING, type RankingSettings } from '../src/internal/search-index.js';
import type { Thesaurus } from '../src/wordnet/index.js';

/** The dev splits kept in the repository (see data/README.md). */
export const BENCH_DATA_DIR = fileURLToPath(new URL('./data/', import.meta.url));

/** `--data`, or the dev splits in this repository; exits when `required` (a set inside it) is missing. */
export function benchDataDir(value: string | undefined, required = ''): string {
  const dataDir = resolve(value ?? BENCH_DATA_DIR);
  const needed = join(dataDir, required);
  if (!existsSync(needed)) {
    console.error(`No benchmark data at ${needed} (pass --data <dir>).`);
    process.exit(1);
  }
  return dataDir;
}

/** The default ranking with `--ranking` JSON overrides on top (field weights merged, not replaced). */
export function rankingFrom(json: string | undefined): RankingSettings {
  const overrides = json ? (JSON.parse(json) as Partial<RankingSettings>) : {};
  return {
    ...DEFAULT_RANKING,
    ...overrides,
    fieldWeights: { ...DEFAULT_RANKING.fieldWeights, ...overrides.fieldWeights },
    fusion: { ...DEFAULT_RANKING.fusion, ...overrides.fusion },
  };
}

/**
 * `--thesaurus wordnet` (the default: what a tool-search host searches with) or `none` (the catalog's own default);
 * `--thesaurus-options '<json>'`: a variant built from the WordNet database itself (the shipped table's derivation
 * options with these overrides; see scripts/read-wordnet.ts).
 */
export async function thesaurusFrom(name: string | undefined, optionsJson: string | undefined): Promise<Thesaurus | undefined> {
  if (optionsJson !== undefined) {
    const { buildThesaurus, readWordNet, WORDNET_TABLE_OPTIONS } = await import('../scripts/read-wordnet.js');
    const table = buildThesaurus(readWordNet(), { ...WORDNET_TABLE_OPTIONS, ...(JSON.parse(optionsJson) as object) });
    return { id: 'wordnet-variant', related: (key) => table.get(key) };
  }
  if (name === 'none') return undefined;
  if (name !== undefined && name !== 'wordnet') {
    console.error(`Unknown --thesaurus ${name} (known: wordnet, none).`);
    process.exit(1);
  }
  const { wordnetThesaurus } = await import('../src/wordnet/index.js');
  return wordnetThesaurus();
}
