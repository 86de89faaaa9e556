// pnpm bench:retrieval [--data <dir>] [--sets a,b] [--ranking '<json overrides>']
// Per benchmark set: R@5, R@10, nDCG@10, MRR@10 for catalog.search and for plain BM25, side by side.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createCatalog } from '../src/index.js';
import { benchDataDir, rankingFrom } from './bench-options.js';
import { loadBenchSet } from './load-bench-set.js';
import { meanMetrics, scoreRanking, type Metrics } from './metrics.js';
import { PlainBm25 } from './plain-bm25.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    sets: { type: 'string' },
    ranking: { type: 'string' },
    'no-baseline': { type: 'boolean' },
    'no-view': { type: 'boolean' },
  },
});
const dataDir = benchDataDir(values.data);
const ranking = rankingFrom(values.ranking);
const wanted = values.sets?.split(',');
const setNames = readdirSync(dataDir)
  .filter((name) => statSync(join(dataDir, name)).isDirectory() && existsSync(join(dataDir, name, 'queries.jsonl')))
  .filter((name) => !wanted || wanted.includes(name))
  .sort((a, b) => (a === 'mixed' ? 1 : b === 'mixed' ? -1 : a < b ? -1 : 1));

const fmt = (n: number) => n.toFixed(2).padStart(6);
const rows: string[] = [];
const viewRows: string[] = [];
/** The policy of the view comparison: it hides every tool whose id hashes odd (about half of each set). */
const hiddenByPolicy = (id: string) => {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619);
  return (hash & 1) === 1;
};
const macro: { ours: number[]; bm25: number[] } = { ours: [], bm25: [] };
for (const name of setNames) {
  const set = loadBenchSet(join(dataDir, name), name);
  // The ranking knobs are internal; the benchmark is their only other user.
  const catalog = createCatalog(set.inputs, { maxSearchLimit: 10, ranking } as Parameters<typeof createCatalog>[1]);
  const ours: Metrics[] = [];
  const started = performance.now();
  for (const query of set.queries) {
    const ranked = catalog.search(query.query, { limit: 10 }).map((hit) => set.benchIdOf.get(hit.id) as string);
    ours.push(scoreRanking(ranked, query.relevant));
  }
  const msPerQuery = (performance.now() - started) / Math.max(1, set.queries.length);
  const oursMean = meanMetrics(ours);
  let baselineCells = '';
  if (!values['no-baseline']) {
    const bm25 = new PlainBm25(set.tools);
    const base = meanMetrics(set.queries.map((query) => scoreRanking(bm25.search(query.query, 10), query.relevant)));
    baselineCells = ` | ${fmt(base.r5)} | ${fmt(base.r10)} | ${fmt(base.ndcg10)} | ${fmt(base.mrr10)} | ${(oursMean.r5 - base.r5 >= 0 ? '+' : '') + (oursMean.r5 - base.r5).toFixed(2)}`;
    if (name !== 'mixed' && name !== 'realmcp') macro.bm25.push(base.r5);
  }
  if (name !== 'mixed' && name !== 'realmcp') macro.ours.push(oursMean.r5);
  if (!values['no-view']) viewRows.push(compareView(set));
  rows.push(
    `| ${name.padEnd(27)} | ${String(set.tools.length).padStart(6)} | ${String(set.queries.length).padStart(5)} | ${fmt(oursMean.r5)} | ${fmt(oursMean.r10)} | ${fmt(oursMean.ndcg10)} | ${fmt(oursMean.mrr10)}${baselineCells} | ${msPerQuery.toFixed(2)} |`,
  );
}
/**
 * Search through a view of the whole set that hides half of it, against a catalog built from the other half
 * alone, on the queries whose gold tools are not all hidden (scored against the visible gold tools).
 */
function compareView(set: ReturnType<typeof loadBenchSet>): string {
  const full = createCatalog(set.inputs, { maxSearchLimit: 10, ranking } as Parameters<typeof createCatalog>[1]);
  const view = full.view((tool) => !hiddenByPolicy(tool.id));
  const visibleInputs = set.inputs.filter((input) => !hiddenByPolicy(`${input.source}:${input.owner}:${input.name}`));
  const alone = createCatalog(visibleInputs, { maxSearchLimit: 10, ranking } as Parameters<typeof createCatalog>[1]);
  const visibleBenchIds = new Set([...set.benchIdOf].filter(([id]) => !hiddenByPolicy(id)).map(([, benchId]) => benchId));
  const throughView: Metrics[] = [];
  const fromAlone: Metrics[] = [];
  for (const query of set.queries) {
    const relevant = query.relevant.filter((id) => visibleBenchIds.has(id));
    if (relevant.length === 0) continue;
    const rank = (catalog: { search: typeof full.search }) => catalog.search(query.query, { limit: 10 }).map((hit) => set.benchIdOf.get(hit.id) as string);
    throughView.push(scoreRanking(rank(view), relevant));
    fromAlone.push(scoreRanking(rank(alone), relevant));
  }
  const a = meanMetrics(throughView).r5;
  const b = meanMetrics(fromAlone).r5;
  return `| ${set.name.padEnd(27)} | ${String(view.size).padStart(6)} | ${String(throughView.length).padStart(5)} | ${fmt(a)} | ${fmt(b)} | ${(a - b >= 0 ? '+' : '') + (a - b).toFixed(2)} |`;
}

const average = (list: number[]) => list.reduce((a, b) => a + b, 0) / Math.max(1, list.length);
console.log(`data: ${dataDir}`);
console.log('| set | tools | queries | R@5 | R@10 | N@10 | MRR@10 | BM25 R@5 | BM25 R@10 | BM25 N@10 | BM25 MRR@10 | ΔR@5 | ms/query |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) console.log(row);
if (macro.ours.length === 6) {
  const bm25Macro = macro.bm25.length === 6 ? ` | BM25 ${average(macro.bm25).toFixed(2)}` : '';
  console.log(`| **macro R@5 (6 sets)** | | | ${fmt(average(macro.ours))}${bm25Macro} |`);
}
if (viewRows.length > 0) {
  console.log('');
  console.log('Through a view that hides about half of each set, against a catalog of the visible half alone:');
  console.log('| set | visible tools | queries | view R@5 | alone R@5 | Δ |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const row of viewRows) console.log(row);
}
