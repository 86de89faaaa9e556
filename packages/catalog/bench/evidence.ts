// pnpm bench:evidence [--data <dir>] [--sets a,b] [--ranking '<json overrides>'] [--map-bytes 5120]
// Calibrates the weak-evidence thresholds (`weakCoverage`, `weakStrength`) of `searchWithEvidence`: per set and pair, how many
// searches are called weak, how many of those had no relevant tool in the top 5 (the flag is right) and how many
// of the searches that missed were flagged; then, at the shipped threshold, what a first answer holds: a relevant
// tool named anywhere in it (hits, or the server map a weak answer carries) and its mean JSON bytes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRankedCatalog, DEFAULT_SERVER_MAP_BYTES } from '../src/create-catalog.js';
import { benchDataDir, rankingFrom } from './bench-options.js';
import { listBenchSets, loadBenchSet, loadModelQueries, type BenchQuery } from './load-bench-set.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    sets: { type: 'string' },
    ranking: { type: 'string' },
    'map-bytes': { type: 'string' },
    dump: { type: 'string' },
  },
});
const dataDir = benchDataDir(values.data);
const ranking = rankingFrom(values.ranking);
const mapBytes = Number(values['map-bytes'] ?? DEFAULT_SERVER_MAP_BYTES);
const wanted = values.sets?.split(',');
const setNames = listBenchSets(dataDir)
  .filter((name) => name !== 'mixed' && (!wanted || wanted.includes(name)))
  .sort();
/** (coverage, strength) pairs: weak when below both; Infinity strength = coverage alone. */
const THRESHOLDS: Array<[number, number]> = [[0.5, Infinity], [0.5, 1.0], [0.5, 1.2], [0.5, 1.5], [0.3, 1.2], [0.7, 1.2]];

/** The first query of each model-written first call (`args.query`, or the first of `args.queries`). */
function modelQueries(dir: string, gold: Map<string, string[]>): BenchQuery[] {
  return (loadModelQueries(dir) ?? [])
    .map((entry) => {
      const args = entry.args as { query?: string; queries?: Array<string | { query: string }> };
      const first = args.query ?? args.queries?.[0];
      return { qid: entry.qid, query: typeof first === 'string' ? first : (first?.query ?? ''), relevant: gold.get(entry.qid) ?? [] };
    })
    .filter((query) => query.query !== '' && query.relevant.length > 0);
}

const pct = (count: number, of: number) => (of === 0 ? '     -' : ((100 * count) / of).toFixed(1).padStart(6));
console.log(`data: ${dataDir}; shipped weakCoverage ${ranking.weakCoverage}, weakStrength ${ranking.weakStrength}; server map budget ${mapBytes} bytes`);
console.log('Per threshold: weak % (searches flagged), right % (flagged ones with no relevant tool in the top 5), caught % (misses flagged), false % (top-5 successes flagged)');
console.log(`| set | queries | top-5 miss % | ${THRESHOLDS.map(([coverage, strength]) => `${coverage} / ${strength === Infinity ? 'coverage alone' : strength}: weak / right / caught / false`).join(' | ')} |`);
console.log(`| --- | ---: | ---: | ${THRESHOLDS.map(() => '---').join(' | ')} |`);
const answerRows: string[] = [];
const dumped: string[] = [];
for (const name of setNames) {
  const set = loadBenchSet(join(dataDir, name), name);
  const catalog = createRankedCatalog(set.inputs, { maxSearchLimit: 10 }, ranking);
  const kinds: Array<[string, BenchQuery[]]> = [[name, set.queries]];
  const fromModel = modelQueries(join(dataDir, name), new Map(set.queries.map((query) => [query.qid, query.relevant])));
  if (fromModel.length > 0) kinds.push([`${name} (model-written)`, fromModel]);
  for (const [label, queries] of kinds) {
    const rows = queries.map((query) => {
      const answer = catalog.searchWithEvidence(query.query, { limit: 8 });
      const gold = new Set(query.relevant);
      const names = answer.hits.map((hit) => set.benchIdOf.get(hit.id) as string);
      return { query, answer, found5: names.slice(0, 5).some((id) => gold.has(id)), gold };
    });
    const misses = rows.filter((row) => !row.found5).length;
    const cells = THRESHOLDS.map(([coverage, strength]) => {
      const weak = rows.filter((row) => row.answer.hits.length === 0 || (row.answer.coverage < coverage && row.answer.strength < strength));
      const right = weak.filter((row) => !row.found5).length;
      return `${pct(weak.length, rows.length)} / ${pct(right, weak.length)} / ${pct(right, misses)} / ${pct(weak.length - right, rows.length - misses)}`;
    });
    console.log(`| ${label} | ${rows.length} | ${pct(misses, rows.length)} | ${cells.join(' | ')} |`);
    // The first answer at the shipped threshold: hits, plus the map when weak.
    let named = 0;
    let weakCount = 0;
    let bytes = 0;
    let mapNamed = 0;
    for (const row of rows) {
      const weak = row.answer.evidence === 'weak';
      const map = weak ? catalog.servers({ maxBytes: mapBytes, query: row.query.query }) : undefined;
      const body = { hits: row.answer.hits, ...(map ? { evidence: 'weak', servers: map } : {}) };
      bytes += Buffer.byteLength(JSON.stringify(body));
      const hitNamed = row.answer.hits.some((hit) => row.gold.has(set.benchIdOf.get(hit.id) as string));
      const inMap = map?.servers.some((server) => server.tools.some((tool) => row.gold.has(set.benchIdOf.get(`mcp:${server.owner}:${tool}`) as string))) ?? false;
      if (values.dump) {
        const always = map ?? catalog.servers({ maxBytes: mapBytes, query: row.query.query });
        const inAnyMap = always.servers.some((server) => server.tools.some((tool) => row.gold.has(set.benchIdOf.get(`mcp:${server.owner}:${tool}`) as string)));
        dumped.push(JSON.stringify({ set: label, share: row.answer.coverage, strength: row.answer.strength, found5: row.found5, hitNamed, inMap: inAnyMap, hitBytes: Buffer.byteLength(JSON.stringify(row.answer.hits)), mapBytes: Buffer.byteLength(JSON.stringify(always)) }));
      }
      if (weak) weakCount += 1;
      if (hitNamed || inMap) named += 1;
      if (!hitNamed && inMap) mapNamed += 1;
    }
    answerRows.push(`| ${label} | ${rows.length} | ${pct(weakCount, rows.length)} | ${pct(rows.filter((row) => row.answer.hits.some((hit) => row.gold.has(set.benchIdOf.get(hit.id) as string))).length, rows.length)} | ${pct(named, rows.length)} | ${pct(mapNamed, rows.length)} | ${Math.round(bytes / Math.max(1, rows.length))} |`);
  }
}
console.log('');
console.log(`First answer at weakCoverage ${ranking.weakCoverage} and weakStrength ${ranking.weakStrength} (8 hits; a weak one also carries the server map, tools nearest the query first): a relevant tool named in the hits, anywhere in the answer, only in the map; mean JSON bytes`);
console.log('| set | queries | weak % | named in hits % | named in the answer % | only in the map % | mean bytes |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const line of answerRows) console.log(line);
if (values.dump) writeFileSync(values.dump, dumped.join('\n') + '\n');
