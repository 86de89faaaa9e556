// pnpm bench:first-answers [--data <dir>] [--misses] (also run by pnpm bench:retrieval, before the catalog's tables)
// What a tools-mode `tool_search` call answers, taken from the real path: a host whose MCP servers replay a benchmark
// set's tools (one stdio replay server per `source`, listed with the official MCP SDK), and a tools-mode session that
// executes the call as a model's tool call. The answer is the text the model would read. For each set with
// model-written first calls (`model-queries.jsonl`), both the model-written calls and the user-phrased requests of the
// same tasks: how often a fitting tool is named anywhere in that first answer, the answer's mean bytes, and how many
// answers name no tool at all. Runs the built packages (`pnpm bench:retrieval` builds them first), so it measures what a
// host runs: WordNet on, no ranking overrides. Data: the catalog's dev splits (see its bench/data/README.md).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchFile, readJsonLines } from '@tool-search/bench-stats';
import { REPLAY_MCP_SERVER_PATH } from '@tool-search/test-utils';
import { createToolSearchHost } from '../src/index.js';

/** A benchmark tool (`tools.jsonl`): `id` is `<source>:<name>`, and the replay server lists it under `source`. */
interface BenchTool {
  id: string;
  source: string;
}
interface BenchQuery {
  qid: string;
  query: string;
  relevant: string[];
}
/** One first `tool_search` call a model wrote for a task (`model-queries.jsonl`). */
interface BenchModelQuery {
  qid: string;
  args: Record<string, unknown>;
}

const { values } = parseArgs({ options: { data: { type: 'string' }, misses: { type: 'boolean' } } });
const dataDir = resolve(values.data ?? fileURLToPath(new URL('../../catalog/bench/data/', import.meta.url)));
if (!existsSync(dataDir)) {
  console.error(`No benchmark data at ${dataDir} (pass --data <dir>).`);
  process.exit(1);
}

/** The answer text of each `tool_search` call (args as a model sends them), in order. */
async function toolsModeAnswers(toolsFile: string, tools: readonly BenchTool[], calls: ReadonlyArray<Record<string, unknown>>): Promise<string[]> {
  const sources = [...new Set(tools.map((tool) => tool.source))].sort();
  const host = await createToolSearchHost({
    sources: {
      mcp: sources.map((source) => ({ name: source, transport: 'stdio' as const, command: process.execPath, args: [REPLAY_MCP_SERVER_PATH], env: { REPLAY_TOOLS_FILE: toolsFile, REPLAY_SOURCE: source } })),
    },
    startupTimeoutMs: 120_000,
  });
  try {
    const session = await host.openSession({ config: { mode: 'tools' } });
    const answers: string[] = [];
    for (const [index, args] of calls.entries()) {
      const outcome = await session.execute({ name: 'tool_search', args, toolCallId: `bench-${index}` });
      if (outcome.status !== 'ok') throw new Error(`tool_search ${JSON.stringify(args)} answered ${outcome.status}: ${outcome.content.slice(0, 300)}`);
      answers.push(outcome.content);
    }
    await session.close();
    return answers;
  } finally {
    await host.close();
  }
}

/**
 * A test of whether an answer names one of these tools (`<server>:<name>` bench ids) so that a model could call or
 * describe it: its catalog id `mcp:<server>:<name>`, or both its server and its name as whole words (as a map that
 * lists each server's tool names under the server would).
 */
function answerNames(ids: readonly string[]): (answer: string) => boolean {
  const word = (text: string) => new RegExp(`(?<![\\w.-])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`);
  const matchers = ids.map((id) => {
    const colon = id.indexOf(':');
    return { id: `mcp:${id}`, server: word(id.slice(0, colon)), name: word(id.slice(colon + 1)) };
  });
  return (answer) => matchers.some((matcher) => answer.includes(matcher.id) || (matcher.name.test(answer) && matcher.server.test(answer)));
}

/** Whether an answer is a weak one (`{ evidence: 'weak', ... }`). */
function isWeakAnswer(text: string): boolean {
  const value = JSON.parse(text) as unknown;
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { evidence?: unknown }).evidence === 'weak';
}

/** Why an answer names none of `relevant` (`<server>:<name>` bench ids): strong or weak, and whether the map shows the fitting server. */
function whyMissed(text: string, relevant: readonly string[]): string {
  if (!isWeakAnswer(text)) return 'strong, not among the hits';
  const page = (JSON.parse(text) as { servers?: { servers?: Array<{ owner: string; tools: string[]; toolCount: number }> } }).servers?.servers ?? [];
  const shown = page.filter((server) => relevant.some((id) => id.slice(0, id.indexOf(':')) === server.owner));
  if (shown.length === 0) return `weak, the fitting server is not on the map page (${page.map((server) => server.owner).join(', ')})`;
  return `weak, ${shown.map((server) => `${server.owner} on the map with ${server.tools.length} of ${server.toolCount} names`).join('; ')}`;
}

const sets = readdirSync(dataDir)
  .filter((name) => statSync(join(dataDir, name)).isDirectory() && benchFile(join(dataDir, name), 'model-queries.jsonl') !== undefined)
  .sort();
for (const name of sets) {
  const dir = join(dataDir, name);
  const toolsFile = benchFile(dir, 'tools.jsonl');
  const queriesFile = benchFile(dir, 'queries.jsonl');
  if (toolsFile === undefined || queriesFile === undefined) throw new Error(`${dir} has model-queries.jsonl but no tools.jsonl or queries.jsonl`);
  const tools = readJsonLines<BenchTool>(toolsFile);
  const byQid = new Map(readJsonLines<BenchQuery>(queriesFile).map((query) => [query.qid, query]));
  const modelQueries = readJsonLines<BenchModelQuery>(benchFile(dir, 'model-queries.jsonl') as string);
  const missing = modelQueries.filter((entry) => !byQid.has(entry.qid)).map((entry) => entry.qid);
  if (missing.length > 0) throw new Error(`${name}/model-queries.jsonl names tasks that queries.jsonl does not: ${missing.slice(0, 5).join(', ')}`);
  const tasks = modelQueries.map((entry) => ({ call: entry.args, task: byQid.get(entry.qid) as BenchQuery }));
  const kinds = [
    { label: 'model-written first calls', calls: tasks.map(({ call }) => call) },
    { label: 'user phrasing (queries.jsonl), same tasks', calls: tasks.map(({ task }) => ({ query: task.query })) },
  ];
  const all = await toolsModeAnswers(toolsFile, tools, kinds.flatMap((kind) => kind.calls));
  const namesAnyTool = answerNames(tools.map((tool) => tool.id));
  const share = (count: number) => ((100 * count) / Math.max(1, tasks.length)).toFixed(2).padStart(6);
  console.log(
    `First answers (${name}/model-queries.jsonl, ${tasks.length} tasks): what a tools-mode session's tool_search answers the whole call over ${tools.length} tools from replaying MCP servers; "named" = a fitting tool's id, or its server and name as words, anywhere in it:`,
  );
  console.log('| queries | tasks | named in first answer % | mean answer bytes | answers naming no tool | weak answers | mean / largest weak answer bytes |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const missed: string[] = [];
  kinds.forEach((kind, kindIndex) => {
    const texts = all.slice(kindIndex * tasks.length, (kindIndex + 1) * tasks.length);
    const isNamed = texts.map((text, i) => answerNames((tasks[i] as { task: BenchQuery }).task.relevant)(text));
    const named = isNamed.filter(Boolean).length;
    const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / Math.max(1, texts.length);
    const empty = texts.filter((text) => !namesAnyTool(text)).length;
    const weak = texts.filter(isWeakAnswer).map((text) => Buffer.byteLength(text));
    const weakBytes = weak.length === 0 ? '–' : `${(weak.reduce((sum, size) => sum + size, 0) / weak.length).toFixed(0)} / ${Math.max(...weak)}`;
    console.log(`| ${kind.label.padEnd(42)} | ${tasks.length} | ${share(named)} | ${bytes.toFixed(0)} | ${empty} | ${weak.length} | ${weakBytes} |`);
    texts.forEach((text, i) => {
      if (isNamed[i]) return;
      const { task } = tasks[i] as { task: BenchQuery };
      missed.push(`| ${kind.label} | ${task.qid} | ${JSON.stringify(task.query)} | ${task.relevant.join(', ')} | ${whyMissed(text, task.relevant)} | ${Buffer.byteLength(text)} |`);
    });
  });
  console.log('');
  if (values.misses && missed.length > 0) {
    console.log(`First answers that name no fitting tool (${name}):`);
    console.log('| queries | task | request | fitting tools | answer | bytes |');
    console.log('| --- | --- | --- | --- | --- | ---: |');
    for (const row of missed) console.log(row);
    console.log('');
  }
}
