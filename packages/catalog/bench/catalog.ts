// pnpm bench:catalog [--data <dir>] [--queries 1000] [--ranking '<json overrides>'] [--skip-synthetic]
//   [--embedder use-lite [--embedding-cache <file>]] [--thesaurus wordnet (default) | none]
// Build time, heap, search latency (p50/p95/p99 over natural-language queries) and `add` of 100 tools, on the
// `mixed` benchmark catalog (10,957 tools) and on a 100,000-tool synthetic catalog. With --embedder, also
// searchAsync on `mixed` (tool vectors from the cache the retrieval bench fills): with the query embedded, and
// with the query vector already known (the fusion's own cost).
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRankedCatalog } from '../src/create-catalog.js';
import type { Catalog, ToolInput } from '../src/index.js';
import { benchDataDir, rankingFrom, thesaurusFrom } from './bench-options.js';
import { loadBenchSet } from './load-bench-set.js';
import { syntheticTools } from './synthetic-tools.js';
import { percentile } from '@tool-search/bench-stats';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    queries: { type: 'string' },
    ranking: { type: 'string' },
    'skip-synthetic': { type: 'boolean' },
    embedder: { type: 'string' },
    'embedding-cache': { type: 'string' },
    thesaurus: { type: 'string' },
  },
});
const dataDir = benchDataDir(values.data, 'mixed');
const ranking = rankingFrom(values.ranking);
const queryCount = Number(values.queries ?? 1000);
const thesaurus = await thesaurusFrom(values.thesaurus, undefined);
// The table is parsed on first use; time that apart from the builds and searches.
let thesaurusParseMs = 0;
if (thesaurus) {
  const started = performance.now();
  thesaurus.related('');
  thesaurusParseMs = performance.now() - started;
}

const mixed = loadBenchSet(join(dataDir, 'mixed'), 'mixed');
// Every other query, so the 1,000 spread over all six benchmarks' styles.
const queries = mixed.queries.filter((_, i) => i % 2 === 0).slice(0, queryCount).map((query) => query.query);

function measure(label: string, tools: ToolInput[], extra: ToolInput[]): string {
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const catalog = createRankedCatalog(tools, { ...(thesaurus ? { thesaurus } : {}) }, ranking);
  const buildMs = performance.now() - started;
  collectGarbage();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  // Warm-up, then time every query on its own.
  for (const query of queries.slice(0, 50)) catalog.search(query);
  const times: number[] = [];
  for (const query of queries) {
    const t0 = performance.now();
    catalog.search(query);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const t0 = performance.now();
  catalog.add(extra);
  const addMs = performance.now() - t0;
  const f = (n: number) => n.toFixed(2).padStart(8);
  const row = `| ${label.padEnd(22)} | ${String(catalog.size - extra.length).padStart(7)} | ${f(buildMs)} | ${f(heapMb)} | ${f(percentile(times, 50))} | ${f(percentile(times, 95))} | ${f(percentile(times, 99))} | ${f(addMs)} |`;
  return `${row}\n${measureView(`${label}, half-view`, catalog)}`;
}

/** The same queries through a view that admits about half of the catalog (first use included in "view ms"). */
function measureView(label: string, catalog: Catalog): string {
  const started = performance.now();
  const view = catalog.view((tool) => tool.id.length % 2 === 0);
  const size = view.size;
  const firstUseMs = performance.now() - started;
  for (const query of queries.slice(0, 50)) view.search(query);
  const times: number[] = [];
  for (const query of queries) {
    const t0 = performance.now();
    view.search(query);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(2).padStart(8);
  return `| ${label.padEnd(22)} | ${String(size).padStart(7)} | ${f(firstUseMs)} (view) |  | ${f(percentile(times, 50))} | ${f(percentile(times, 95))} | ${f(percentile(times, 99))} |  |`;
}

const extraTools = syntheticTools(100, 'extra');
console.log(`node ${process.version}; ${queries.length} natural-language queries from ${join(dataDir, 'mixed')}${thesaurus ? `; thesaurus ${thesaurus.id} (table parsed in ${thesaurusParseMs.toFixed(1)} ms)` : ''}`);
console.log('| catalog | tools | build ms | heap MB | p50 ms | p95 ms | p99 ms | add 100 ms |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
console.log(measure('mixed', mixed.inputs, extraTools));
if (!values['skip-synthetic']) console.log(measure('synthetic', syntheticTools(100_000, 'synth'), extraTools));

if (values.embedder === 'use-lite') console.log(await measureEmbedder());

/** searchAsync on `mixed` with USE-lite: per query with the model call, and with the query vector known. */
async function measureEmbedder(): Promise<string> {
  const { createUseLiteEmbedder } = await import('./use-lite-embedder.js');
  const { openFileEmbeddingCache } = await import('./file-embedding-cache.js');
  const embedder = await createUseLiteEmbedder();
  const embeddingCache = openFileEmbeddingCache(values['embedding-cache'] ?? fileURLToPath(new URL(`./.cache/${embedder.id}.jsonl`, import.meta.url)));
  const catalog = createRankedCatalog(mixed.inputs, { embedder, embeddingCache, ...(thesaurus ? { thesaurus } : {}) }, ranking);
  let started = performance.now();
  const update = await catalog.updateEmbeddings();
  const updateMs = performance.now() - started;
  embeddingCache.flush();
  const sample = queries.slice(0, 300);
  const withModel: number[] = [];
  const fusionOnly: number[] = [];
  for (const query of sample) {
    started = performance.now();
    await catalog.searchAsync(query);
    const middle = performance.now();
    await catalog.searchAsync(query);
    withModel.push(middle - started);
    fusionOnly.push(performance.now() - middle);
  }
  withModel.sort((a, b) => a - b);
  fusionOnly.sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(2);
  return [
    `searchAsync on mixed with ${embedder.id}: ${update.vectors} vectors (${update.fromCache} from the cache, ${update.embedded} embedded now) in ${f(updateMs)} ms;`,
    `  ${sample.length} queries, query embedded by the model: p50 ${f(percentile(withModel, 50))} ms, p95 ${f(percentile(withModel, 95))} ms;`,
    `  query vector known (lexical + semantic scan + fusion): p50 ${f(percentile(fusionOnly, 50))} ms, p95 ${f(percentile(fusionOnly, 95))} ms`,
  ].join('\n');
}
