// pnpm bench:list-changed [--tools 10000] [--servers 100] [--views 200] [--rounds 30]
// The cost of one server's `list_changed` on a shared catalog: the first --tools tools of the `mixed` benchmark
// catalog spread evenly over --servers owners, --views live views (each with its own filter, as sessions hold),
// then --rounds updates of one server: remove all its tools and add its new list (every description changed, the
// worst case for the postings), and, separately, a list that adds and drops tools. Prints the index update time
// p50 / p95 / max, wall-clock and this process's CPU time (on a loaded machine the wall-clock time is mostly
// waiting for a core), and the views' catch-up (their next search). Asserts nothing.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { percentile } from '@tool-search/bench-stats';
import { createCatalog } from '../src/create-catalog.js';
import type { ToolInput } from '../src/index.js';
import { benchDataDir } from './bench-options.js';
import { loadBenchSet } from './load-bench-set.js';

const { values } = parseArgs({
  options: { tools: { type: 'string' }, servers: { type: 'string' }, views: { type: 'string' }, rounds: { type: 'string' }, data: { type: 'string' } },
});
const TOOLS = Number(values.tools ?? 10_000);
const SERVERS = Number(values.servers ?? 100);
const VIEWS = Number(values.views ?? 200);
const ROUNDS = Number(values.rounds ?? 30);
if ([TOOLS, SERVERS, VIEWS, ROUNDS].some((n) => !Number.isInteger(n) || n < 1) || TOOLS < SERVERS) {
  process.stderr.write('usage: bench:list-changed [--tools 10000] [--servers 100] [--views 200] [--rounds 30] [--data <dir>]\n');
  process.exit(2);
}

const set = loadBenchSet(join(benchDataDir(values.data, 'mixed'), 'mixed'), 'mixed');
if (set.inputs.length < TOOLS) {
  process.stderr.write(`the mixed set has ${set.inputs.length} tools, fewer than --tools ${TOOLS}\n`);
  process.exit(2);
}
const serverName = (index: number) => `server${String(index).padStart(3, '0')}`;
// Tool i goes to server i mod SERVERS, its name made unique within its server.
const toolsOf: ToolInput[][] = Array.from({ length: SERVERS }, () => []);
set.inputs.slice(0, TOOLS).forEach((input, index) => {
  const server = index % SERVERS;
  const taken = new Set(toolsOf[server]!.map((tool) => tool.name));
  let name = input.name;
  for (let suffix = 2; taken.has(name); suffix += 1) name = `${input.name}_${suffix}`;
  toolsOf[server]!.push({ ...input, name, owner: serverName(server) });
});
const queries = set.queries.slice(0, 50).map((query) => query.query);
const idOf = (tool: ToolInput) => `mcp:${tool.owner}:${tool.name}`;

const catalog = createCatalog(toolsOf.flat());
const views = Array.from({ length: VIEWS }, (_, index) => catalog.view((tool) => (tool.name.length + index) % 11 !== 0));
for (const view of views) view.search(queries[0] ?? 'read a file');

const ms = (value: number) => value.toFixed(1);
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 95))} | ${ms(sorted[sorted.length - 1] ?? Number.NaN)}`;
};

/** One round per server in turn (never the same server twice in a row): the update, then every view's next search. */
function measure(update: (server: number, round: number) => void): { updates: number[]; cpu: number[]; catchUps: number[] } {
  const updates: number[] = [];
  const cpu: number[] = [];
  const catchUps: number[] = [];
  // Two rounds of warm-up (not counted): the first update of a process compiles its code paths.
  for (let round = -2; round < ROUNDS; round += 1) {
    const server = (round + 2) % SERVERS;
    const cpuBefore = process.cpuUsage();
    let started = performance.now();
    update(server, round);
    const took = performance.now() - started;
    const cpuUsed = process.cpuUsage(cpuBefore);
    started = performance.now();
    for (const view of views) view.search(queries[(round + 2) % queries.length] ?? 'read a file');
    if (round >= 0) {
      updates.push(took);
      cpu.push((cpuUsed.user + cpuUsed.system) / 1000);
      catchUps.push((performance.now() - started) / views.length);
    }
  }
  return { updates, cpu, catchUps };
}

const version = new Map<number, number>();
const nextVersion = (server: number) => {
  const next = (version.get(server) ?? 1) + 1;
  version.set(server, next);
  return next;
};
// Replace: the server's whole list out, its new list in (every description changed).
const replaced = measure((server) => {
  const tools = toolsOf[server]!;
  const v = nextVersion(server);
  catalog.remove(tools.map(idOf));
  catalog.add(tools.map((tool) => ({ ...tool, description: `${tool.description ?? ''} (v${v})` })));
});
// Add and drop: the new list keeps the first half, drops the second half and adds as many new tools.
const addDrop = measure((server) => {
  const tools = toolsOf[server]!;
  const half = Math.floor(tools.length / 2);
  const v = nextVersion(server);
  const dropped = tools.slice(half);
  const added = dropped.map((tool) => ({ ...tool, name: `${tool.name.slice(0, 50)}_v${v}` }));
  catalog.remove(dropped.map(idOf));
  catalog.add(added);
  toolsOf[server] = [...tools.slice(0, half), ...added];
});

const perServer = Math.round(TOOLS / SERVERS);
const row = (label: string, { updates, cpu, catchUps }: ReturnType<typeof measure>) => {
  const sortedCatchUps = [...catchUps].sort((a, b) => a - b);
  return `| ${label} | ${summary(updates)} | ${summary(cpu)} | ${ms(percentile(sortedCatchUps, 50))} / ${ms(percentile(sortedCatchUps, 95))} |`;
};
const load = loadavg().map((value) => value.toFixed(1)).join(', ');
process.stdout.write(
  [
    `bench:list-changed: ${catalog.size} tools over ${SERVERS} servers (about ${perServer} each), ${VIEWS} live views, ${ROUNDS} rounds per row; load average ${load}`,
    '',
    "| one server's list_changed | index update p50 ms | p95 ms | max ms | CPU p50 ms | p95 ms | max ms | views' catch-up and next search, mean p50 / p95 ms |",
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    row(`replace all ${perServer} of its tools (every description changed)`, replaced),
    row('drop half of its tools, add as many new ones', addDrop),
    '',
  ].join('\n'),
);
