// pnpm tsx packages/catalog/bench/generate-name-cases.ts
// Writes bench/data/names/cases.jsonl, the names suite (see data/names/README.md and name-cases.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DATA_DIR } from './bench-options.js';
import { generateNameCases } from './name-cases.js';

const cases = generateNameCases(BENCH_DATA_DIR);
writeFileSync(join(BENCH_DATA_DIR, 'names', 'cases.jsonl'), cases.map((entry) => JSON.stringify(entry)).join('\n') + '\n');
const kinds = new Map<string, number>();
for (const entry of cases) kinds.set(entry.kind, (kinds.get(entry.kind) ?? 0) + 1);
console.log(`${cases.length} cases: ${[...kinds].map(([kind, count]) => `${kind} ${count}`).join(', ')}`);
