// Reads one benchmark folder (tools.jsonl + queries.jsonl, each plain or gzipped) and maps its tools to catalog
// entries. A folder holding `union.json` instead (`{ "sets": [...] }`) is the concatenation of those sibling sets.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { benchFile, readJsonLines } from '@tool-search/bench-stats';
import type { ToolInput } from '../src/index.js';

export interface BenchTool {
  id: string;
  name: string;
  description: string;
  parameters: Record<string, unknown> | null;
  source: string;
  category?: string;
}

export interface BenchQuery {
  qid: string;
  query: string;
  relevant: string[];
}

export interface BenchSet {
  name: string;
  tools: BenchTool[];
  queries: BenchQuery[];
  /** Catalog entries, in the order of `tools`. */
  inputs: ToolInput[];
  /** catalog id -> benchmark tool id */
  benchIdOf: Map<string, string>;
}

/** One first `tool_search` call a model wrote for a task (`model-queries.jsonl`). */
export interface BenchModelQuery {
  qid: string;
  args: { query?: string; queries?: Array<string | { query: string; limit?: number }>; limit?: number };
}

function readSetLines<T>(dir: string, base: string): T[] {
  const file = benchFile(dir, base);
  if (file === undefined) throw new Error(`No ${base} (or ${base}.gz) in ${dir}`);
  return readJsonLines<T>(file);
}

/** The sets a union folder (`union.json`) stands for, or undefined for a plain folder. */
function unionOf(dir: string): string[] | undefined {
  const file = join(dir, 'union.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { sets: string[] }).sets : undefined;
}

/** The benchmark folders under `dataDir`: those with queries (plain or gzipped) or a `union.json`. */
export function listBenchSets(dataDir: string): string[] {
  return readdirSync(dataDir).filter((name) => {
    const dir = join(dataDir, name);
    return statSync(dir).isDirectory() && (benchFile(dir, 'queries.jsonl') !== undefined || existsSync(join(dir, 'union.json')));
  });
}

/** The set's model-written first calls (`model-queries.jsonl`), or undefined when it has none. */
export function loadModelQueries(dir: string): BenchModelQuery[] | undefined {
  return benchFile(dir, 'model-queries.jsonl') === undefined ? undefined : readSetLines<BenchModelQuery>(dir, 'model-queries.jsonl');
}

/** Benchmark names may use characters tool names may not (`org/model`); those become `_`. */
function toToolName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 120);
  return cleaned === '' ? 'tool' : cleaned;
}

function readToolsAndQueries(dir: string): { tools: BenchTool[]; queries: BenchQuery[] } {
  const union = unionOf(dir);
  if (union === undefined) return { tools: readSetLines<BenchTool>(dir, 'tools.jsonl'), queries: readSetLines<BenchQuery>(dir, 'queries.jsonl') };
  const parts = union.map((name) => readToolsAndQueries(join(dirname(dir), name)));
  return { tools: parts.flatMap((part) => part.tools), queries: parts.flatMap((part) => part.queries) };
}

export function loadBenchSet(dir: string, name: string): BenchSet {
  const { tools, queries } = readToolsAndQueries(dir);
  const inputs: ToolInput[] = [];
  const benchIdOf = new Map<string, string>();
  const taken = new Set<string>();
  for (const tool of tools) {
    const owner = tool.source.replace(/[^A-Za-z0-9_.@/-]/g, '_') || 'bench';
    let toolName = toToolName(tool.name);
    for (let n = 2; taken.has(`${owner}:${toolName}`); n++) toolName = `${toToolName(tool.name)}_${n}`;
    taken.add(`${owner}:${toolName}`);
    const params = tool.parameters && typeof tool.parameters === 'object' && !Array.isArray(tool.parameters) ? tool.parameters : undefined;
    inputs.push({ name: toolName, source: 'mcp', owner, description: tool.description ?? '', ...(params ? { inputSchema: params } : {}) });
    benchIdOf.set(`mcp:${owner}:${toolName}`, tool.id);
  }
  return { name, tools, queries, inputs, benchIdOf };
}
