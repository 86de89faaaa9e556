// pnpm bench:retrieval [--data <dir>] [--sets a,b] [--ranking '<json overrides>'] [--embedder use-lite]
//   [--embedding-cache <file>] [--thesaurus wordnet (default) | none | --thesaurus-options '<json>'] [--no-baseline] [--no-view]
//   [--no-likely]   (fusion knobs: --ranking '{"fusion":{...}}'; thesaurus knobs: --ranking '{"thesaurusWeight":..}')
// Per benchmark set: R@5, R@10, nDCG@10, MRR@10 for catalog.search, for plain BM25 and (with --embedder) for
// catalog.searchAsync fused with an embedder, side by side; realmcp subsets; likely tools; views; the weak flag's
// calibration. For a set with model-written first calls (realmcp/model-queries.jsonl): R@1 and R@5 of those calls
// beside the user-phrased queries. What a tools-mode session's tool_search answers them (a fitting tool named in the
// first answer, its bytes) is measured through gateway-adapter, by its bench/first-answers.ts, which
// `pnpm bench:retrieval` runs first. Data: ./data (the dev splits; see data/README.md).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRankedCatalog } from '../src/create-catalog.js';
import { DEFAULT_SEARCH_LIMIT } from '../src/resolve-search-limits.js';
import type { Catalog, CatalogOptions, Embedder } from '../src/index.js';
import { benchDataDir, rankingFrom, thesaurusFrom } from './bench-options.js';
import { listBenchSets, loadBenchSet, loadModelQueries, type BenchModelQuery, type BenchQuery, type BenchSet } from './load-bench-set.js';
import { meanMetrics, scoreRanking, type Metrics, type RelevanceMode } from './metrics.js';
import { PlainBm25 } from './plain-bm25.js';
import { queryHalf, sharesNoWord } from './query-subsets.js';
import { CALIBRATION_HEADER, calibrationRow, judgeQueries, modelWrittenQueries, PUBLIC_SAMPLE_PER_SET, sampleQueries, summarizeVerdicts, type WeakVerdict } from './weak-calibration.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    sets: { type: 'string' },
    ranking: { type: 'string' },
    embedder: { type: 'string' },
    'embedding-cache': { type: 'string' },
    thesaurus: { type: 'string' },
    'thesaurus-options': { type: 'string' },
    'no-baseline': { type: 'boolean' },
    'no-view': { type: 'boolean' },
    'no-likely': { type: 'boolean' },
  },
});
const dataDir = benchDataDir(values.data);
const ranking = rankingFrom(values.ranking);
const wanted = values.sets?.split(',');
const setNames = listBenchSets(dataDir)
  .filter((name) => !wanted || wanted.includes(name))
  .sort((a, b) => (a === 'mixed' ? 1 : b === 'mixed' ? -1 : a < b ? -1 : 1));
/** Sets whose `relevant` lists alternatives (any one listed tool is a right pick); see the bench README. */
const ANY_RELEVANT_SETS = new Set(['realmcp']);
/** Sets outside the six-set macro average. */
const OUTSIDE_MACRO = new Set(['mixed', 'realmcp']);

const embedder: Embedder | undefined = values.embedder ? await loadEmbedder(values.embedder) : undefined;
async function loadEmbedder(name: string): Promise<Embedder> {
  if (name !== 'use-lite') {
    console.error(`Unknown --embedder ${name} (known: use-lite).`);
    process.exit(1);
  }
  const { createUseLiteEmbedder } = await import('./use-lite-embedder.js');
  return createUseLiteEmbedder();
}
const embeddingCache = embedder ? (await import('./file-embedding-cache.js')).openFileEmbeddingCache(values['embedding-cache'] ?? fileURLToPath(new URL(`./.cache/${embedder.id.replace(/[^\w.-]/g, '_')}.jsonl`, import.meta.url))) : undefined;

const thesaurus = await thesaurusFrom(values.thesaurus, values['thesaurus-options']);
const catalogOptions = (extra: Partial<CatalogOptions> = {}): CatalogOptions => ({ maxSearchLimit: 10, ...(thesaurus ? { thesaurus } : {}), ...extra });
/** What the embedder costs, cold (no cache): per tool embedded in batches, and per query embedded alone. */
async function measureEmbedderCost(active: Embedder, set: BenchSet): Promise<string> {
  const cold = createRankedCatalog(set.inputs, catalogOptions({ embedder: active, embeddingCache: new Map() }), ranking);
  let started = performance.now();
  const update = await cold.updateEmbeddings();
  const perTool = (performance.now() - started) / Math.max(1, update.embedded);
  const times: number[] = [];
  for (const query of set.queries) {
    started = performance.now();
    await active.embed([query.query], { kind: 'query' });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  return `embedder cost, cold on ${set.name}: ${update.embedded} tools in ${((perTool * update.embedded) / 1000).toFixed(1)} s (${perTool.toFixed(1)} ms per tool, batches of ${active.maxBatchSize ?? 64}); one query embedded: median ${median.toFixed(1)} ms`;
}

const fmt = (n: number) => n.toFixed(2).padStart(6);
const average = (list: number[]) => list.reduce((a, b) => a + b, 0) / Math.max(1, list.length);
const signed = (n: number) => (n >= 0 ? '+' : '') + n.toFixed(2);
/** The policy of the view comparison: it hides every tool whose id hashes odd (about half of each set). */
const hiddenByPolicy = (id: string) => {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619);
  return (hash & 1) === 1;
};

interface SetResult {
  name: string;
  tools: number;
  queries: BenchQuery[];
  bm25?: Metrics[];
  lexical: Metrics[];
  fused?: Metrics[];
  lexicalMs: number;
  fusedMs?: number;
  embedMsPerTool?: number;
  mode: RelevanceMode;
}


const results: SetResult[] = [];
/** The weak flag's verdicts (see weak-calibration.ts): realmcp user phrasing, its model-written calls, the public sample. */
const calibration: Array<{ label: string; verdicts: WeakVerdict[] }> = [];
const publicSample: WeakVerdict[] = [];
const viewRows: string[] = [];
const likelyRows: string[] = [];
const modelWrittenBlocks: string[][] = [];
let costLine = '';
for (const name of setNames) {
  const set = loadBenchSet(join(dataDir, name), name);
  if (embedder && costLine === '' && name === 'realmcp') costLine = await measureEmbedderCost(embedder, set);
  const mode: RelevanceMode = ANY_RELEVANT_SETS.has(name) ? 'any' : 'all';
  const catalog = createRankedCatalog(set.inputs, catalogOptions(), ranking);
  const toBench = (ids: string[]) => ids.map((id) => set.benchIdOf.get(id) as string);
  let started = performance.now();
  const lexical = set.queries.map((query) => scoreRanking(toBench(catalog.search(query.query, { limit: 10 }).map((hit) => hit.id)), query.relevant, mode));
  const lexicalMs = (performance.now() - started) / Math.max(1, set.queries.length);
  const result: SetResult = { name, tools: set.tools.length, queries: set.queries, lexical, lexicalMs, mode };
  if (!values['no-baseline']) {
    const bm25 = new PlainBm25(set.tools);
    result.bm25 = set.queries.map((query) => scoreRanking(bm25.search(query.query, 10), query.relevant, mode));
  }
  if (embedder) {
    const semantic = createRankedCatalog(set.inputs, catalogOptions({ embedder, ...(embeddingCache ? { embeddingCache } : {}) }), ranking);
    started = performance.now();
    const update = await semantic.updateEmbeddings();
    result.embedMsPerTool = update.embedded > 0 ? (performance.now() - started) / update.embedded : 0;
    embeddingCache?.flush();
    started = performance.now();
    const fused: Metrics[] = [];
    for (const query of set.queries) {
      const hits = await semantic.searchAsync(query.query, { limit: 10 });
      fused.push(scoreRanking(toBench(hits.map((hit) => hit.id)), query.relevant, mode));
    }
    result.fusedMs = (performance.now() - started) / Math.max(1, set.queries.length);
    result.fused = fused;
    embeddingCache?.flush();
  }
  results.push(result);
  const modelQueries = loadModelQueries(join(dataDir, name));
  if (name === 'mixed') {
    // The union of the public sets: their sample is taken from each set's own catalog.
  } else if (OUTSIDE_MACRO.has(name)) {
    calibration.push({ label: `${name}: user phrasing`, verdicts: judgeQueries(catalog, set, set.queries) });
    if (modelQueries) calibration.push({ label: `${name}: model-written first calls`, verdicts: judgeQueries(catalog, set, modelWrittenQueries(modelQueries, set.queries)) });
  } else {
    const verdicts = judgeQueries(catalog, set, sampleQueries(set.queries));
    calibration.push({ label: `  ${name} (sample)`, verdicts });
    publicSample.push(...verdicts);
  }
  if (modelQueries) modelWrittenBlocks.push(measureModelWritten(set, modelQueries, catalog));
  if (!values['no-likely']) likelyRows.push(measureLikely(set, catalog, mode));
  if (!values['no-view']) viewRows.push(await compareView(set, mode));
}

/** The queries of one `tool_search` call, in order (a batch entry may be a string or `{ query }`). */
function callQueries(args: BenchModelQuery['args']): string[] {
  if (args.query !== undefined) return [args.query];
  return (args.queries ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.query));
}

/**
 * The model-written first calls beside the user-phrased queries of the same tasks: R@1 and R@5 of the call's first
 * query (ours and plain BM25), and whether plain BM25 would name a fitting tool in its top 8 of any of the call's
 * queries (what a tools-mode session answers is measured by gateway-adapter's bench/first-answers.ts).
 */
function measureModelWritten(set: BenchSet, modelQueries: BenchModelQuery[], catalog: Catalog): string[] {
  const byQid = new Map(set.queries.map((query) => [query.qid, query]));
  const missing = modelQueries.filter((entry) => !byQid.has(entry.qid)).map((entry) => entry.qid);
  if (missing.length > 0) throw new Error(`${set.name}/model-queries.jsonl names tasks that queries.jsonl does not: ${missing.slice(0, 5).join(', ')}`);
  const tasks = modelQueries.map((entry) => ({ call: entry.args, task: byQid.get(entry.qid) as BenchQuery }));
  const bm25 = values['no-baseline'] ? undefined : new PlainBm25(set.tools);
  const toBench = (ids: string[]) => ids.map((id) => set.benchIdOf.get(id) as string);
  const kinds = [
    { label: 'model-written first calls', calls: tasks.map(({ call }) => call) },
    { label: 'user phrasing (queries.jsonl), same tasks', calls: tasks.map(({ task }) => ({ query: task.query })) },
  ];
  const share = (count: number) => fmt((100 * count) / Math.max(1, tasks.length));
  const lines = [
    `Model-written first \`tool_search\` calls (${set.name}/model-queries.jsonl, ${tasks.length} tasks; ${tasks.filter(({ call }) => call.query === undefined).length} are batches, scored on their first query for R@k; BM25 named: a fitting tool in its top ${DEFAULT_SEARCH_LIMIT} of any of the call's queries; the first answers a tools-mode session gives are in gateway-adapter's first-answers table):`,
  ];
  const header = ['queries', 'tasks'];
  if (bm25) header.push('BM25 R@1', 'BM25 R@5');
  header.push('R@1', 'R@5');
  if (bm25) header.push('Δ R@1', 'Δ R@5', 'BM25 named in first answer %');
  lines.push(`| ${header.join(' | ')} |`, `| --- | ${header.slice(1).map(() => '---:').join(' | ')} |`);
  for (const kind of kinds) {
    const ours = meanMetrics(kind.calls.map((call, i) => scoreRanking(toBench(catalog.search(callQueries(call)[0] as string, { limit: 10 }).map((hit) => hit.id)), (tasks[i] as { task: BenchQuery }).task.relevant, 'any')));
    const cells = [kind.label.padEnd(42), String(tasks.length)];
    if (bm25) {
      const base = meanMetrics(kind.calls.map((call, i) => scoreRanking(bm25.search(callQueries(call)[0] as string, 10), (tasks[i] as { task: BenchQuery }).task.relevant, 'any')));
      const baseNamed = kind.calls.filter((call, i) => {
        const gold = new Set((tasks[i] as { task: BenchQuery }).task.relevant);
        return callQueries(call).some((query) => bm25.search(query, DEFAULT_SEARCH_LIMIT).some((id) => gold.has(id)));
      }).length;
      cells.push(fmt(base.r1), fmt(base.r5), fmt(ours.r1), fmt(ours.r5), signed(ours.r1 - base.r1), signed(ours.r5 - base.r5), share(baseNamed));
    } else {
      cells.push(fmt(ours.r1), fmt(ours.r5));
    }
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines;
}

/**
 * Search through a view of the whole set that hides half of it, against a catalog built from the other half
 * alone, on the queries whose gold tools are not all hidden (scored against the visible gold tools).
 */
async function compareView(set: BenchSet, mode: RelevanceMode): Promise<string> {
  const full = createRankedCatalog(set.inputs, catalogOptions(), ranking);
  const view = full.view((tool) => !hiddenByPolicy(tool.id));
  const visibleInputs = set.inputs.filter((input) => !hiddenByPolicy(`${input.source}:${input.owner}:${input.name}`));
  const alone = createRankedCatalog(visibleInputs, catalogOptions(), ranking);
  const visibleBenchIds = new Set([...set.benchIdOf].filter(([id]) => !hiddenByPolicy(id)).map(([, benchId]) => benchId));
  const throughView: Metrics[] = [];
  const fromAlone: Metrics[] = [];
  for (const query of set.queries) {
    const relevant = query.relevant.filter((id) => visibleBenchIds.has(id));
    if (relevant.length === 0) continue;
    const rank = (catalog: { search: typeof full.search }) => catalog.search(query.query, { limit: 10 }).map((hit) => set.benchIdOf.get(hit.id) as string);
    throughView.push(scoreRanking(rank(view), relevant, mode));
    fromAlone.push(scoreRanking(rank(alone), relevant, mode));
  }
  const a = meanMetrics(throughView).r5;
  const b = meanMetrics(fromAlone).r5;
  return `| ${set.name.padEnd(27)} | ${String(view.size).padStart(6)} | ${String(throughView.length).padStart(5)} | ${fmt(a)} | ${fmt(b)} | ${signed(a - b)} |`;
}

/** Likely tools for each query taken as a run's request: how often any are declared, right, and their bytes. */
function measureLikely(set: BenchSet, catalog: Catalog, mode: RelevanceMode): string {
  let declared = 0;
  let right = 0;
  let complete = 0;
  let tools = 0;
  let bytes = 0;
  for (const query of set.queries) {
    const likely = catalog.likelyTools(query.query);
    if (likely.length === 0) continue;
    declared += 1;
    tools += likely.length;
    // What a provider would be sent for each declared tool: name, description and input schema as JSON.
    bytes += likely.reduce((sum, tool) => sum + Buffer.byteLength(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })), 0);
    const gold = new Set(query.relevant);
    const found = likely.filter((tool) => gold.has(set.benchIdOf.get(tool.id) as string)).length;
    if (found > 0) right += 1;
    if (mode === 'any' ? found > 0 : found === gold.size) complete += 1;
  }
  const n = Math.max(1, set.queries.length);
  const share = (count: number, of: number) => fmt(of === 0 ? 0 : (100 * count) / of);
  return `| ${set.name.padEnd(27)} | ${String(set.queries.length).padStart(5)} | ${share(declared, n)} | ${share(right, declared)} | ${share(complete, declared)} | ${share(right, n)} | ${(declared === 0 ? 0 : tools / declared).toFixed(2)} | ${Math.round(declared === 0 ? 0 : bytes / declared)} | ${Math.round(bytes / n)} |`;
}

function row(label: string, tools: number | string, subset: number[], result: SetResult): string {
  const pick = (list: Metrics[] | undefined) => (list ? meanMetrics(subset.map((i) => list[i] as Metrics)) : undefined);
  const ours = pick(result.lexical) as Metrics;
  const base = pick(result.bm25);
  const fused = pick(result.fused);
  const cells = [label.padEnd(40), String(tools).padStart(6), String(subset.length).padStart(5)];
  if (base) cells.push(fmt(base.r5));
  cells.push(fmt(ours.r5), fmt(ours.r10), fmt(ours.ndcg10), fmt(ours.mrr10));
  if (base) cells.push(signed(ours.r5 - base.r5));
  if (fused) cells.push(fmt(fused.r5), fmt(fused.r10), fmt(fused.ndcg10), fmt(fused.mrr10), signed(fused.r5 - ours.r5));
  return `| ${cells.join(' | ')} |`;
}

console.log(`data: ${dataDir}${embedder ? `; embedder ${embedder.id}` : ''}${thesaurus ? `; thesaurus ${thesaurus.id}` : ''}`);
console.log('realmcp is scored "any relevant": a query counts as found at k when any one tool its `relevant` lists is in the top k.');
const header = ['set', 'tools', 'queries'];
if (!values['no-baseline']) header.push('BM25 R@5');
header.push('R@5', 'R@10', 'N@10', 'MRR@10');
if (!values['no-baseline']) header.push('Δ vs BM25');
if (embedder) header.push('+emb R@5', '+emb R@10', '+emb N@10', '+emb MRR@10', 'Δ emb');
console.log(`| ${header.join(' | ')} |`);
console.log(`| --- | ${header.slice(1).map(() => '---:').join(' | ')} |`);
const all = (result: SetResult) => result.queries.map((_, i) => i);
for (const result of results) {
  console.log(row(result.name, result.tools, all(result), result));
  if (result.name !== 'realmcp') continue;
  const set = loadBenchSet(join(dataDir, 'realmcp'), 'realmcp');
  const byId = new Map(set.tools.map((tool) => [tool.id, tool]));
  const where = (test: (query: BenchQuery) => boolean) => result.queries.map((query, i) => (test(query) ? i : -1)).filter((i) => i >= 0);
  console.log(row('  realmcp: no word shared with a listed tool', '', where((query) => sharesNoWord(query, byId)), result));
  console.log(row('  realmcp: no word shared with its name', '', where((query) => sharesNoWord(query, byId, true)), result));
  console.log(row('  realmcp: the rest (some word shared)', '', where((query) => !sharesNoWord(query, byId)), result));
  console.log(row('  realmcp: half A', '', where((query) => queryHalf(query) === 'A'), result));
  console.log(row('  realmcp: half B', '', where((query) => queryHalf(query) === 'B'), result));
}
const macro = results.filter((result) => !OUTSIDE_MACRO.has(result.name));
if (macro.length === 6) {
  const cells = ['**macro R@5 (6 sets)**', '', ''];
  const r5 = (list: Metrics[] | undefined) => meanMetrics(list ?? []).r5;
  const ours = average(macro.map((result) => r5(result.lexical)));
  if (!values['no-baseline']) cells.push(fmt(average(macro.map((result) => r5(result.bm25)))));
  cells.push(`**${fmt(ours).trim()}**`, '', '', '');
  if (!values['no-baseline']) cells.push(signed(ours - average(macro.map((result) => r5(result.bm25)))));
  if (embedder) {
    const fused = average(macro.map((result) => r5(result.fused)));
    cells.push(`**${fmt(fused).trim()}**`, '', '', '', signed(fused - ours));
  }
  console.log(`| ${cells.join(' | ')} |`);
}
console.log('');
console.log(`ms per query: ${results.map((result) => `${result.name} ${result.lexicalMs.toFixed(2)}${result.fusedMs === undefined ? '' : ` (+emb ${result.fusedMs.toFixed(2)})`}`).join(', ')}`);
if (embedder) console.log(`embedder ms per tool embedded this run (0 = all from the cache): ${results.map((result) => `${result.name} ${(result.embedMsPerTool ?? 0).toFixed(1)}`).join(', ')}`);
if (costLine !== '') console.log(costLine);
for (const block of modelWrittenBlocks) {
  console.log('');
  for (const line of block) console.log(line);
}
if (calibration.length > 0) {
  console.log('');
  console.log(`The weak flag (\`searchWithEvidence\`, lexical, top 5): junk-strong = strong answers with no fitting tool in the top 5; false alarm = weak answers whose top hit fits. Public sample: ${PUBLIC_SAMPLE_PER_SET} queries of each public set by a hash of the query id, each against its own set's tools:`);
  for (const line of CALIBRATION_HEADER) console.log(line);
  const rows = calibration.filter((entry) => !entry.label.startsWith('  '));
  for (const entry of rows) console.log(calibrationRow(entry.label, summarizeVerdicts(entry.verdicts)));
  if (publicSample.length > 0) console.log(calibrationRow('public sets, user-phrased sample', summarizeVerdicts(publicSample)));
  for (const entry of calibration.filter((item) => item.label.startsWith('  '))) console.log(calibrationRow(entry.label, summarizeVerdicts(entry.verdicts)));
}
if (likelyRows.length > 0) {
  console.log('');
  console.log('Likely tools (`catalog.likelyTools(query)`, lexical, default limit 3): share of requests that get any; of those, the share with a relevant tool among them and the share with all it needs (realmcp: any listed tool; elsewhere every listed tool); relevant over all requests; tools and schema JSON bytes (name, description, input schema) per request that gets any, and over all requests:');
  console.log('| set | requests | declared % | a relevant one % | all needed % | relevant, all requests % | tools | bytes when declared | bytes per request |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const line of likelyRows) console.log(line);
}
if (viewRows.length > 0) {
  console.log('');
  console.log('Through a view that hides about half of each set, against a catalog of the visible half alone:');
  console.log('| set | visible tools | queries | view R@5 | alone R@5 | Δ |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const line of viewRows) console.log(line);
}
