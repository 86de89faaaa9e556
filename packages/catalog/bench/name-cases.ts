// The names suite (see data/names/README.md): tool names written the ways models and people write them, each with
// the tools it names. From realmcp's tools (with data/names/extra-tools.jsonl: stop-word names), and a fixed sample
// of the public sets' tools (by a hash of their ids). `generate-name-cases.ts` writes it; the catalog's names test
// reads it.
import { join } from 'node:path';
import { readJsonLines } from '@tool-search/bench-stats';
import { loadBenchSet, type BenchSet, type BenchTool } from './load-bench-set.js';
import { analyzeQuery } from '../src/internal/index-fields.js';

/** One case of the suite: `query` asked of the catalog of `set` must put exactly `expect` first. */
export interface NameCase {
  set: string;
  kind: NameCaseKind;
  query: string;
  /** Benchmark ids (`<server>:<name>`). */
  expect: string[];
}

export type NameCaseKind = 'id' | 'bare' | 'server__tool' | 'server.tool' | 'mcp__server__tool' | 'upper' | 'separator' | 'camel' | 'stop-words';

/** realmcp's tools with the suite's own stop-word tools added. */
export const REALMCP_EXTRA = 'realmcp+extra';
/** Public sets sampled, and how many tools of each. */
const SAMPLED: ReadonlyArray<[string, number]> = [
  ['toolret-apibank', 30],
  ['toolret-apigen', 30],
  ['toolret-toolink', 20],
  ['sealtools', 20],
  ['toollens', 20],
];

/** The catalog a case set names: a benchmark folder, or realmcp with the suite's extra tools. */
export function loadNameSet(dataDir: string, set: string): BenchSet {
  if (set !== REALMCP_EXTRA) return loadBenchSet(join(dataDir, set), set);
  const base = loadBenchSet(join(dataDir, 'realmcp'), 'realmcp');
  const extra = readJsonLines<BenchTool>(join(dataDir, 'names', 'extra-tools.jsonl'));
  const inputs = [...base.inputs];
  const benchIdOf = new Map(base.benchIdOf);
  for (const tool of extra) {
    inputs.push({ name: tool.name, source: 'mcp', owner: tool.source, description: tool.description, ...(tool.parameters ? { inputSchema: tool.parameters } : {}) });
    benchIdOf.set(`mcp:${tool.source}:${tool.name}`, tool.id);
  }
  return { name: set, tools: [...base.tools, ...extra], queries: [], inputs, benchIdOf };
}

/** A name without case or separators: two writings of one name have the same. */
const plain = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
const camel = (name: string) => name.replace(/[-_.\s]+([\p{L}\p{N}])/gu, (_, next: string) => next.toUpperCase());
const hash = (text: string) => {
  let value = 2166136261;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 16777619);
  return value >>> 0;
};

function casesOf(set: BenchSet, picked: ReadonlySet<string> | undefined): NameCase[] {
  const entries = set.inputs.map((input) => ({ input, bench: set.benchIdOf.get(`mcp:${input.owner}:${input.name}`) as string }));
  /** The tools a bare name written any way names: every tool whose name is that name without case or separators. */
  const byPlainName = new Map<string, string[]>();
  for (const { input, bench } of entries) byPlainName.set(plain(input.name), [...(byPlainName.get(plain(input.name)) ?? []), bench]);
  const cases: NameCase[] = [];
  const add = (kind: NameCaseKind, query: string, expect: string[]) => cases.push({ set: set.name, kind, query, expect: [...expect].sort() });
  for (const { input, bench } of entries) {
    const stopWords = analyzeQuery(input.name).terms.length === 0;
    if (picked !== undefined && !picked.has(bench) && !stopWords) continue;
    const shared = byPlainName.get(plain(input.name)) as string[];
    const { name, owner } = input;
    add(stopWords ? 'stop-words' : 'bare', name, shared);
    add('id', `mcp:${owner}:${name}`, [bench]);
    add('server__tool', `${owner}__${name}`, [bench]);
    add('server.tool', `${owner}.${name}`, [bench]);
    if (hash(bench) % 2 === 0) add('mcp__server__tool', `mcp__${owner}__${name}`, [bench]);
    if (name.toUpperCase() !== name) add('upper', name.toUpperCase(), shared);
    const swapped = name.includes('_') ? name.replaceAll('_', '-') : name.includes('-') ? name.replaceAll('-', '_') : undefined;
    if (swapped !== undefined) add('separator', swapped, shared);
    const camelName = camel(name);
    if (camelName !== name) add('camel', camelName, shared);
  }
  // One case per query: a bare name shared by several tools is listed once.
  const seen = new Set<string>();
  return cases.filter((entry) => {
    const key = `${entry.set}\u0000${entry.query}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The suite, in a fixed order. */
export function generateNameCases(dataDir: string): NameCase[] {
  const cases = casesOf(loadNameSet(dataDir, REALMCP_EXTRA), undefined);
  for (const [name, count] of SAMPLED) {
    const set = loadNameSet(dataDir, name);
    const ids = [...set.benchIdOf.values()].sort((a, b) => hash(a) - hash(b) || (a < b ? -1 : 1));
    cases.push(...casesOf(set, new Set(ids.slice(0, count))));
  }
  return cases;
}

/** The committed suite (`data/names/cases.jsonl`). */
export function readNameCases(dataDir: string): NameCase[] {
  return readJsonLines<NameCase>(join(dataDir, 'names', 'cases.jsonl'));
}
