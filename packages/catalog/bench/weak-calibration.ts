// How true the weak flag is, on what an agent needs (issue: "a weak flag calibrated on what an agent needs"):
// junk-strong = strong answers with no fitting tool in the top 5 (no map is sent, and the hits are junk);
// false alarm = weak answers whose top hit fits (the map costs bytes and the flag sends the agent searching again).
// "Fits" is read twice: by the labels alone, and with near-duplicates counted: a hit that is a near-duplicate of a
// labelled tool by the catalog's own family rule (`areNearDuplicateTools`: description words and parameter names
// each overlapping at least 0.8, or the same name and descriptions overlapping at least 0.3) fits as that tool does.
// The rule reads only the two tools, never the query, and is the same for every set. Both figures are printed.
import type { Catalog } from '../src/index.js';
import { areNearDuplicateTools } from '../src/internal/tool-families.js';
import type { BenchModelQuery, BenchQuery, BenchSet } from './load-bench-set.js';

/** Queries of one public set in the user-phrased sample. */
export const PUBLIC_SAMPLE_PER_SET = 50;

export interface WeakCalibration {
  queries: number;
  strong: number;
  /** Strong answers with no fitting tool in the top 5. */
  junkStrong: number;
  weak: number;
  /** Weak answers whose top hit fits. */
  falseAlarm: number;
  /** Answers with a fitting tool in the top 5 (R@5, "any relevant"). */
  found5: number;
  /** `junkStrong` and `falseAlarm` with near-duplicates of a labelled tool counted as fitting. */
  junkStrongNear: number;
  falseAlarmNear: number;
}

/** One verdict per query: evidence, and whether the top hit and the top 5 hold a fitting (relevant) tool. */
export interface WeakVerdict {
  query: BenchQuery;
  weak: boolean;
  top1: boolean;
  top5: boolean;
  /** `top1` and `top5` with near-duplicates of a labelled tool counted as fitting. */
  top1Near: boolean;
  top5Near: boolean;
}

export function judgeQueries(catalog: Catalog, set: Pick<BenchSet, 'benchIdOf'>, queries: readonly BenchQuery[]): WeakVerdict[] {
  const catalogIdOf = new Map([...set.benchIdOf].map(([catalogId, benchId]) => [benchId, catalogId]));
  return queries.map((query) => {
    const answer = catalog.searchWithEvidence(query.query, { limit: 5 });
    const gold = new Set(query.relevant);
    const labelled = query.relevant.map((id) => catalog.get(catalogIdOf.get(id) ?? '')).filter((tool) => tool !== undefined);
    const fits = answer.hits.map((hit) => gold.has(set.benchIdOf.get(hit.id) as string));
    const fitsNear = answer.hits.map((hit, at) => {
      const tool = catalog.get(hit.id);
      return fits[at] === true || (tool !== undefined && labelled.some((other) => areNearDuplicateTools(tool, other)));
    });
    return { query, weak: answer.evidence === 'weak', top1: fits[0] === true, top5: fits.some(Boolean), top1Near: fitsNear[0] === true, top5Near: fitsNear.some(Boolean) };
  });
}

export function summarizeVerdicts(verdicts: readonly WeakVerdict[]): WeakCalibration {
  const strong = verdicts.filter((verdict) => !verdict.weak);
  const weak = verdicts.filter((verdict) => verdict.weak);
  return {
    queries: verdicts.length,
    strong: strong.length,
    junkStrong: strong.filter((verdict) => !verdict.top5).length,
    weak: weak.length,
    falseAlarm: weak.filter((verdict) => verdict.top1).length,
    found5: verdicts.filter((verdict) => verdict.top5).length,
    junkStrongNear: strong.filter((verdict) => !verdict.top5Near).length,
    falseAlarmNear: weak.filter((verdict) => verdict.top1Near).length,
  };
}

/** A fixed sample of a public set's queries (by a hash of the query id), the same on every run. */
export function sampleQueries(queries: readonly BenchQuery[], count = PUBLIC_SAMPLE_PER_SET): BenchQuery[] {
  const hash = (text: string) => {
    let value = 2166136261;
    for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 16777619);
    return value >>> 0;
  };
  return [...queries].sort((a, b) => hash(a.qid) - hash(b.qid) || (a.qid < b.qid ? -1 : 1)).slice(0, count);
}

/** The first query of each model-written first call, with its task's relevant tools. */
export function modelWrittenQueries(modelQueries: readonly BenchModelQuery[], tasks: readonly BenchQuery[]): BenchQuery[] {
  const gold = new Map(tasks.map((task) => [task.qid, task.relevant]));
  return modelQueries
    .map((entry) => {
      const first = entry.args.query ?? entry.args.queries?.[0];
      return { qid: entry.qid, query: typeof first === 'string' ? first : (first?.query ?? ''), relevant: gold.get(entry.qid) ?? [] };
    })
    .filter((query) => query.query !== '' && query.relevant.length > 0);
}

const pct = (count: number, of: number) => (of === 0 ? '-' : ((100 * count) / of).toFixed(1));

/**
 * A Markdown row: kind, queries, R@5, weak %, junk-strong and false alarm (% of strong and of weak, with counts) by
 * the labels, then the same two with near-duplicates of a labelled tool counted as fitting.
 */
export function calibrationRow(label: string, calibration: WeakCalibration): string {
  const { queries, strong, junkStrong, weak, falseAlarm, found5, junkStrongNear, falseAlarmNear } = calibration;
  const share = (count: number, of: number) => `${pct(count, of)} (${count} of ${of})`;
  return `| ${label} | ${queries} | ${pct(found5, queries)} | ${pct(weak, queries)} | ${share(junkStrong, strong)} | ${share(falseAlarm, weak)} | ${share(junkStrongNear, strong)} | ${share(falseAlarmNear, weak)} |`;
}

export const CALIBRATION_HEADER = [
  '| queries | n | R@5 | weak % | junk-strong % of strong | false alarm % of weak | junk-strong, near-duplicates counted | false alarm, near-duplicates counted |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
