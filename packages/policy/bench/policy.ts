// `pnpm bench:policy`: how long `policy.filter` takes for 10,000 tools through 6 applicable layers
// (global, agent, profile, sandbox, channel, session). Target: p50 <= 20 ms. Prints figures; asserts nothing.
import { loadavg } from 'node:os';
import { createPolicy, type PolicyConfig, type PolicyTool } from '../src/index';

const TOOL_COUNT = 10_000;
const WARMUP_RUNS = 20;
const MEASURED_RUNS = 200;

const SOURCES = ['openclaw', 'plugin', 'mcp', 'client'] as const;
const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'send', 'read', 'write', 'run'];
const NOUNS = ['issue', 'file', 'message', 'user', 'page', 'record', 'event', 'ticket', 'note', 'job'];

function makeCatalog(): PolicyTool[] {
  const tools: PolicyTool[] = [];
  for (let index = 0; index < TOOL_COUNT; index++) {
    const source = SOURCES[index % SOURCES.length]!;
    const owner = `${source === 'openclaw' ? 'core' : 'server'}${index % 50}`;
    const name = `${VERBS[index % VERBS.length]}_${NOUNS[Math.floor(index / 10) % NOUNS.length]}_${index}`;
    tools.push({ id: `${source}:${owner}:${name}`, name, source, owner, ownerOnly: index % 97 === 0 });
  }
  return tools;
}

// A realistic mix: exact names, name globs, id globs, built-in and user groups, in every layer.
const config: PolicyConfig = {
  groups: { 'group:writes': ['create_*', 'update_*', 'delete_*', 'mcp:*:write_*'] },
  deny: ['group:runtime', 'mcp:server13:*', 'delete_user_*', 'plugin:*:run_job_*'],
  agents: { main: { allow: ['*:*:*'], deny: ['client:server7:*', 'send_message_42'], requireApproval: ['group:writes'] } },
  profiles: { coding: { allow: ['group:fs', 'group:mcp', 'group:plugins', 'group:client', 'group:openclaw'], deny: ['*_ticket_*'] } },
  sandboxes: { '*': { deny: ['group:ui', 'group:automation'] }, box1: { deny: ['mcp:server2*:*'] } },
  channels: { discord: { deny: ['*_note_9*', 'group:messaging'] } },
  sessions: { s1: { deny: ['search_page_*', 'openclaw:*:read_*7'] } },
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const tools = makeCatalog();
const policy = createPolicy(config);
const context = { agentId: 'main', profile: 'coding', sandboxId: 'box1', channel: 'discord', sessionId: 's1', isOwner: false };

let admitted = 0;
for (let run = 0; run < WARMUP_RUNS; run++) admitted = policy.filter(tools, context).length;
// Wall time is what a run waits; CPU time (this process, user + system) is what the work costs and is
// far less disturbed when other processes share the cores.
const timings: number[] = [];
const cpuTimings: number[] = [];
for (let run = 0; run < MEASURED_RUNS; run++) {
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  policy.filter(tools, context);
  timings.push(performance.now() - started);
  const cpu = process.cpuUsage(cpuStarted);
  cpuTimings.push((cpu.user + cpu.system) / 1000);
}
timings.sort((a, b) => a - b);
cpuTimings.sort((a, b) => a - b);

const checkStarted = performance.now();
for (const tool of tools) policy.check(tool, context);
const checkEach = ((performance.now() - checkStarted) / tools.length) * 1000;

const format = (ms: number) => ms.toFixed(2).padStart(8);
console.log(`policy.filter: ${TOOL_COUNT} tools x 7 applicable layers (global + agent, profile, sandbox *, sandbox, channel, session)`);
console.log(`node ${process.version}, ${MEASURED_RUNS} runs after ${WARMUP_RUNS} warm-up runs, ${admitted} tools admitted`);
console.log('');
console.log('| metric | wall ms  | cpu ms   |');
console.log('|--------|----------|----------|');
console.log(`| p50    | ${format(percentile(timings, 50))} | ${format(percentile(cpuTimings, 50))} |`);
console.log(`| p95    | ${format(percentile(timings, 95))} | ${format(percentile(cpuTimings, 95))} |`);
console.log(`| max    | ${format(timings[timings.length - 1]!)} | ${format(cpuTimings[cpuTimings.length - 1]!)} |`);
console.log('');
console.log(`policy.check one tool at a time (context parsed per call): ${checkEach.toFixed(2)} µs per tool`);
console.log(`target p50 <= 20 ms (wall): ${percentile(timings, 50) <= 20 ? 'met' : 'NOT met'}`);
console.log(`load average while measuring: ${loadavg().map((load) => load.toFixed(2)).join(' ')}`);
