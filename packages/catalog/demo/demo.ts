// pnpm demo: builds a catalog from the bundled sample (64 tools across the four sources) and prints a few
// searches the way a model would see the hits.
import { readFileSync } from 'node:fs';
import { createCatalog, type ToolInput } from '../src/index.js';

const tools = JSON.parse(readFileSync(new URL('./sample-catalog.json', import.meta.url), 'utf8')) as ToolInput[];
const catalog = createCatalog(tools);

const sources = Object.entries(catalog.sources())
  .map(([source, count]) => `${source} ${count}`)
  .join(', ');
console.log(`Catalog: ${catalog.size} tools (${sources})\n`);

const queries = [
  'open a github issue about the login bug',
  'remove a file',
  'what is the weather going to be in Lisbon this weekend',
  'email the invoice to a customer',
  'schedule a meeting with the team next tuesday',
  'refund a payment',
  'weather alerts',
  'read_file',
];
for (const query of queries) {
  console.log(`search ${JSON.stringify(query)}`);
  for (const hit of catalog.search(query, { limit: 3 })) {
    console.log(`  ${hit.score.toFixed(3).padStart(7)}  ${hit.id}`);
    console.log(`           ${hit.description}`);
    console.log(`           input: ${hit.input}`);
  }
  console.log('');
}

const miss = catalog.describe('mcp:github:create_isue');
if (!miss.found) console.log(`describe "mcp:github:create_isue" -> ${miss.reason}: ${miss.message}`);
