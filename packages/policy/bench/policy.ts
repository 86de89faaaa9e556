// `pnpm bench:policy`: how long `policy.filter` takes for 10,000 tools through 7 applicable layers
// (global, agent, profile, sandbox *, sandbox, channel, session), without and with hint patterns, and what
// `check` and `scopeKey` cost. Target: filter p50 <= 20 ms. Prints figures; asserts nothing.
import { loadavg } from 'node:os';
import { createPolicy, type PolicyConfig, type PolicyTool } from '../src/index';
import { percentile } from '@tool-search/bench-stats';

const TOOL_COUNT = 10_000;
const WARMUP_RUNS = 20;
const MEASURED_RUNS = 200;

const SOURCES = ['openclaw', 'plugin', 'mcp', 'client'] as const;
const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'send', 'read', 'write', 'run'];
const NOUNS = ['issue', 'file', 'message', 'user', 'page', 'record', 'event', 'ticket', 'note', 'job'];

// Every third tool carries MCP annotations (as most real MCP tools do), half of those trusted.
const ANNOTATIONS = [{ readOnlyHint: true }, { destructiveHint: true }, { destructiveHint: false, openWorldHint: false }];

function makeCatalog(): PolicyTool[] {
  const tools: PolicyTool[] = [];
  for (let index = 0; index < TOOL_COUNT; index++) {
    const source = SOURCES[index % SOURCES.length]!;
    const owner = `${source === 'openclaw' ? 'core' : 'server'}${index % 50}`;
    const name = `${VERBS[index % VERBS.length]}_${NOUNS[Math.floor(index / 10) % NOUNS.length]}_${index}`;
    const tool: PolicyTool = { id: `${source}:${owner}:${name}`, name, source, owner, ownerOnly: index % 97 === 0 };
    if (index % 3 === 0) tool.annotations = ANNOTATIONS[(index / 3) % ANNOTATIONS.length]!;
    tool.trusted = source === 'openclaw' || source === 'plugin' || index % 6 === 0;
    tools.push(tool);
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

// The same, plus hint patterns in three layers: approvals for destructive tools, no open-world tools in the
// sandbox, and a channel that admits read-only tools and one server.
const hintConfig: PolicyConfig = {
  ...config,
  agents: { main: { ...config.agents!.main!, requireApproval: ['group:writes', 'hint:destructive'] } },
  sandboxes: { ...config.sandboxes, box1: { deny: ['mcp:server2*:*', 'hint:openWorld'] } },
  channels: { discord: { allow: ['hint:readOnly', 'mcp:server1:*', 'group:openclaw'], deny: ['*_note_9*', 'group:messaging'] } },
};

const tools = makeCatalog();
const context = { agentId: 'main', profile: 'coding', sandboxId: 'box1', channel: 'discord', sessionId: 's1', isOwner: false };

interface Timing {
  wall: number[];
  cpu: number[];
  admitted: number;
}

// Wall time is what a run waits; CPU time (this process, user + system) is what the work costs and is
// far less disturbed when other processes share the cores.
function measureFilter(policy: ReturnType<typeof createPolicy>): Timing {
  let admitted = 0;
  for (let run = 0; run < WARMUP_RUNS; run++) admitted = policy.filter(tools, context).length;
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < MEASURED_RUNS; run++) {
    const cpuStarted = process.cpuUsage();
    const started = performance.now();
    policy.filter(tools, context);
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuStarted);
    cpu.push((used.user + used.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { wall, cpu, admitted };
}

function microsecondsPer(count: number, work: () => void): number {
  work();
  const started = performance.now();
  work();
  return ((performance.now() - started) / count) * 1000;
}

const plain = createPolicy(config);
const hinted = createPolicy(hintConfig);
const rows: [string, Timing][] = [
  ['filter', measureFilter(plain)],
  ['filter, hint patterns', measureFilter(hinted)],
];
const checkEach = microsecondsPer(tools.length, () => {
  for (const tool of tools) plain.check(tool, context);
});
const KEY_CALLS = 10_000;
const scopeKeyEach = microsecondsPer(KEY_CALLS, () => {
  for (let call = 0; call < KEY_CALLS; call++) plain.scopeKey({ ...context, senderId: `u${call}` });
});

const format = (ms: number) => ms.toFixed(2).padStart(8);
console.log(`policy.filter: ${TOOL_COUNT} tools x 7 applicable layers (global + agent, profile, sandbox *, sandbox, channel, session)`);
console.log(`node ${process.version}, ${MEASURED_RUNS} runs after ${WARMUP_RUNS} warm-up runs`);
console.log('');
console.log('| run                   | admitted | p50 wall | p95 wall | max wall | p50 cpu  | p95 cpu  |');
console.log('|-----------------------|----------|----------|----------|----------|----------|----------|');
for (const [label, { wall, cpu, admitted }] of rows) {
  const cells = [percentile(wall, 50), percentile(wall, 95), wall[wall.length - 1]!, percentile(cpu, 50), percentile(cpu, 95)];
  console.log(`| ${label.padEnd(21)} | ${String(admitted).padStart(8)} | ${cells.map(format).join(' | ')} |`);
}
console.log('');
console.log(`policy.check one tool at a time (context parsed per call): ${checkEach.toFixed(2)} µs per tool`);
console.log(`policy.scopeKey (context parsed per call): ${scopeKeyEach.toFixed(2)} µs per call`);
const worst = Math.max(...rows.map(([, timing]) => percentile(timing.wall, 50)));
console.log(`target filter p50 <= 20 ms (wall): ${worst <= 20 ? 'met' : 'NOT met'}`);
console.log(`load average while measuring: ${loadavg().map((load) => load.toFixed(2)).join(' ')}`);
