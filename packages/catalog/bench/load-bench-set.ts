// Reads one benchmark folder (tools.jsonl + queries.jsonl) and maps its tools to catalog entries.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

function readJsonLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Benchmark names may use characters tool names may not (`org/model`); those become `_`. */
function toToolName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 120);
  return cleaned === '' ? 'tool' : cleaned;
}

export function loadBenchSet(dir: string, name: string): BenchSet {
  const tools = readJsonLines<BenchTool>(join(dir, 'tools.jsonl'));
  const queries = readJsonLines<BenchQuery>(join(dir, 'queries.jsonl'));
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
