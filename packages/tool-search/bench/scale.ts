// pnpm bench:scale [--stdio 70] [--http 30 | --servers N] [--tools 10000] [--replicas 3] [--clients 200] [--rounds 3]
//   [--pace-ms 2000] [--paced-seconds 30] [--kill] [--redis-stop] [--hang-ms 30000] [--cpu-prof] [--startup-only]
// An organisation-sized deployment on this machine: upstream MCP servers replaying the bench data (`mixed`, the
// first --tools tools spread evenly over --stdio stdio servers and --http Streamable HTTP servers; --servers N is
// 70 % stdio, 30 % HTTP), --replicas `tool-search serve --http --store redis://…` processes on a real redis-server
// behind nginx (the README's block, round robin; the 2025-era clients on a second, ip_hash port, since their
// sessions live in one replica), and --clients MCP clients, half pinned to 2026-07-28 (SDK v2) and half on
// 2025-06-18 (SDK v1). Two client phases, both printed:
// - burst: every client connects at once and does --rounds rounds of tools/list and tool_search as fast as it can
//   (the queueing of a connect storm on this machine's cores);
// - paced: the clients connect first (at most 10 at a time; the connect latency printed apart), then, all open,
//   each sends one request every --pace-ms ms, tools/list and tool_search in turn, open loop (on a clock, whether
//   or not the last one answered; latency counted from the time it was due), for --paced-seconds.
// Then, each only when asked, a fault phase on the same open sessions at the same pace, with a tool_call to an HTTP
// upstream every fourth request (each with a nonce the upstream logs, so a call that ran twice is counted):
// - --kill: one replica SIGKILLed halfway; client hangs (no answer within --hang-ms), calls run twice upstream;
// - --redis-stop: redis-server stopped for 10 s, then started again (empty) on the same port; errors by kind
//   before, during and after the outage.
// Before all that, in this process: the same catalog's build, search, memory per session, and one server's
// list_changed with a view per client. Prints start-up, latencies (p50/p95/p99), the list_changed cost, RSS per
// replica, per upstream and per session, file descriptors and errors by kind. Installs nothing; asserts nothing.
// The replicas start one after another (each measured alone: on 2 cores, three starting together would measure the
// machine). --startup-only: only the deployment's start-up (no in-process part, no clients), for the README's Sizing
// at 10, 50 and 100 servers. --cpu-prof: the first replica writes a V8 CPU profile (its path is printed). Every
// figure is printed with the machine's load average at the time.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { benchFile, percentile, readJsonLines } from '@tool-search/bench-stats';
import { createCatalog, type ToolInput } from '@tool-search/catalog';
import { createToolSearchHost, type ExecutableTool } from '@tool-search/gateway-adapter';
import { freePort, REPLAY_MCP_SERVER_PATH, startRedisServer } from '@tool-search/test-utils';
import { urlPrinted } from '../src/cli/url-printed.js';

const { values } = parseArgs({
  options: {
    stdio: { type: 'string' },
    http: { type: 'string' },
    tools: { type: 'string' },
    replicas: { type: 'string' },
    clients: { type: 'string' },
    rounds: { type: 'string' },
    servers: { type: 'string' },
    'pace-ms': { type: 'string' },
    'paced-seconds': { type: 'string' },
    'hang-ms': { type: 'string' },
    kill: { type: 'boolean' },
    'redis-stop': { type: 'boolean' },
    'cpu-prof': { type: 'boolean' },
    'startup-only': { type: 'boolean' },
  },
});
const STARTUP_ONLY = values['startup-only'] === true;
// --servers N: 70 % over stdio, the rest over HTTP, 100 tools each up to 10,000 (unless --stdio, --http or --tools say otherwise).
const SERVERS_GIVEN = values.servers === undefined ? undefined : Number(values.servers);
const STDIO = Number(values.stdio ?? (SERVERS_GIVEN === undefined ? 70 : Math.round(SERVERS_GIVEN * 0.7)));
const HTTP = Number(values.http ?? (SERVERS_GIVEN === undefined ? 30 : SERVERS_GIVEN - STDIO));
const TOOLS = Number(values.tools ?? (SERVERS_GIVEN === undefined ? 10_000 : Math.min(10_000, SERVERS_GIVEN * 100)));
const PACE_MS = Number(values['pace-ms'] ?? 2_000);
const PACED_SECONDS = Number(values['paced-seconds'] ?? 30);
const HANG_MS = Number(values['hang-ms'] ?? 30_000);
const KILL = values.kill === true;
const REDIS_STOP = values['redis-stop'] === true;
const CPU_PROF = values['cpu-prof'] === true;
const REPLICAS = Number(values.replicas ?? 3);
const CLIENTS = Number(values.clients ?? 200);
const ROUNDS = Number(values.rounds ?? 3);
const SERVERS = STDIO + HTTP;
const badNumber = [STDIO, HTTP, TOOLS, REPLICAS, CLIENTS, ROUNDS, PACED_SECONDS].some((n) => !Number.isInteger(n) || n < 0) || [PACE_MS, HANG_MS].some((n) => !Number.isInteger(n) || n < 1);
if (badNumber || SERVERS < 1 || REPLICAS < 1 || TOOLS < SERVERS || TOOLS > 10_957 || (KILL && REPLICAS < 2) || ((KILL || REDIS_STOP) && HTTP < 1)) {
  process.stderr.write(
    'usage: bench:scale [--stdio 70] [--http 30 | --servers N] [--tools 10000 (at most 10957)] [--replicas 3] [--clients 200] [--rounds 3] [--pace-ms 2000] [--paced-seconds 30] [--kill (needs 2+ replicas)] [--redis-stop] [--hang-ms 30000] [--cpu-prof] [--startup-only]; --kill and --redis-stop need an HTTP upstream (--http 1 or more)\n',
  );
  process.exit(2);
}

const BIN = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
// Installs nothing: redis-server and nginx come as they do for the tests (`pnpm test` checks for them first).
const onPath = (command: string) => (process.env['PATH'] ?? '').split(':').some((dir) => existsSync(join(dir, command)));
for (const command of ['redis-server', 'nginx']) {
  if (!onPath(command)) {
    process.stderr.write(`bench:scale needs ${command} on the PATH: node tooling/system-packages/ensure-system-packages.mjs installs it (as pnpm test does)\n`);
    process.exit(2);
  }
}
if (!existsSync(BIN)) {
  process.stderr.write(`${BIN} is missing: build first (pnpm --filter tool-search build)\n`);
  process.exit(2);
}
const README = fileURLToPath(new URL('../README.md', import.meta.url));
const HTTP_UPSTREAMS = fileURLToPath(new URL('./replay-http-servers.mjs', import.meta.url));
const DATA = fileURLToPath(new URL('../../catalog/bench/data/mixed', import.meta.url));
const SECRET = 'bench-scale-secret-of-at-least-32-bytes';
const work = mkdtempSync(join(tmpdir(), 'bench-scale-'));
// Outside the work folder (which is removed at the end), so the profile stays to be read.
const PROFILE_DIR = join(tmpdir(), `bench-scale-profile-${process.pid}`);
// Every call an HTTP upstream runs, one line each (see replay-http-servers.mjs): the fault phases count double runs.
const callLog = join(work, 'upstream-calls.log');
const children: ChildProcess[] = [];
const out = (line = '') => process.stdout.write(`${line}\n`);
const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));
const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `${sorted.length} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 95))} | ${ms(percentile(sorted, 99))}`;
};
const rssMb = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};
const fds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;
/** Pids of the direct children of `pid` (a replica's stdio upstreams). */
const childrenOf = (pid: number) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
/** A full collection (for heap figures that count what is held, not garbage not yet collected). */
const collectGarbage = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => gc();
})();
const sleep = (wait: number) => new Promise((resolve) => setTimeout(resolve, wait));
const load = () => `load average ${loadavg().map((value) => value.toFixed(1)).join(', ')}`;

// The tools, server by server: tool i goes to server i mod SERVERS, its name made unique within its server.
/** One JSONL file of a bench set, plain or gzipped, as its parsed lines (a missing file throws, naming it). */
const readJsonl = <T>(dir: string, base: string): T[] => readJsonLines<T>(benchFile(dir, base) ?? join(dir, base));
// `mixed` is the union of the public sets (its union.json names them), in that order.
const sets = (JSON.parse(readFileSync(join(DATA, 'union.json'), 'utf8')) as { sets: string[] }).sets;
const set = {
  tools: sets.flatMap((name) => readJsonl<{ name: string; description?: string; parameters: unknown }>(join(DATA, '..', name), 'tools.jsonl')),
  queries: sets.flatMap((name) => readJsonl<{ query: string }>(join(DATA, '..', name), 'queries.jsonl')),
};
const serverName = (index: number) => (index < STDIO ? `stdio${String(index).padStart(2, '0')}` : `http${String(index - STDIO).padStart(2, '0')}`);
const toolsOf: Array<Array<{ name: string; description: string; parameters: unknown; source: string }>> = Array.from({ length: SERVERS }, () => []);
set.tools.slice(0, TOOLS).forEach((tool, index) => {
  const server = index % SERVERS;
  const taken = new Set(toolsOf[server]!.map((entry) => entry.name));
  let name = tool.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60) || 'tool';
  for (let suffix = 2; taken.has(name); suffix += 1) name = `${name.replace(/_\d+$/, '')}_${suffix}`;
  toolsOf[server]!.push({ name, description: tool.description ?? '', parameters: tool.parameters, source: serverName(server) });
});
const toolsFile = join(work, 'tools.jsonl');
writeFileSync(toolsFile, toolsOf.flat().map((tool) => JSON.stringify(tool)).join('\n'));
// Each stdio server reads a file of its own tools only (as a real server holds its own, not the whole catalog's).
const toolsFileOf = (server: number) => {
  const file = join(work, `tools-${serverName(server)}.jsonl`);
  writeFileSync(file, toolsOf[server]!.map((tool) => JSON.stringify(tool)).join('\n'));
  return file;
};
const inputsOf = (server: number): ToolInput[] =>
  toolsOf[server]!.map((tool) => ({ name: tool.name, description: tool.description, source: 'mcp', owner: serverName(server), inputSchema: (tool.parameters ?? { type: 'object' }) as Record<string, unknown> }));
const QUERIES = set.queries.slice(0, 50).map((query) => query.query);

out(`bench:scale: ${SERVERS} upstream servers (${STDIO} stdio, ${HTTP} Streamable HTTP), ${TOOLS} tools, ${REPLICAS} replicas, ${STARTUP_ONLY ? 'start-up only' : `${CLIENTS} clients x ${ROUNDS} rounds`}; ${load()}`);
out();

// 1. In this process: the catalog of one replica, its search, and one server's list_changed with a view per client.
if (!STARTUP_ONLY) {
  const inputs = Array.from({ length: SERVERS }, (_, server) => inputsOf(server)).flat();
  const heapBefore = process.memoryUsage().heapUsed;
  let started = performance.now();
  const catalog = createCatalog(inputs);
  const buildMs = performance.now() - started;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  let asked = 0;
  const views = Array.from({ length: CLIENTS }, (_, index) => catalog.view((tool) => (asked++, (tool.name.length + index) % 11 !== 0)));
  for (const view of views) view.search(QUERIES[0] ?? 'read a file');
  asked = 0;
  const changed = inputsOf(SERVERS - 1);
  const updates: number[] = [];
  const updateCpu: number[] = [];
  const catchUps: number[] = [];
  const CHANGES = 20;
  for (let round = 0; round < CHANGES; round += 1) {
    const cpuBefore = process.cpuUsage();
    started = performance.now();
    // A server whose list changed: its tools out, its new list in (every description changed: the worst case).
    catalog.remove(changed.map((tool) => `mcp:${tool.owner}:${tool.name}`));
    catalog.add(changed.map((tool) => ({ ...tool, description: `${tool.description} (v${round + 2})` })));
    updates.push(performance.now() - started);
    const cpuUsed = process.cpuUsage(cpuBefore);
    updateCpu.push((cpuUsed.user + cpuUsed.system) / 1000);
    started = performance.now();
    for (const view of views) view.search(QUERIES[round] ?? 'read a file');
    catchUps.push((performance.now() - started) / views.length);
  }
  const rebuilt = asked > changed.length * views.length * CHANGES ? views.length : 0;
  // The host as a replica runs it: sessions over the same tools (as local tools here), tool_search through a session.
  const host = await createToolSearchHost({
    sources: { openclaw: inputs.map((input): ExecutableTool => ({ name: input.name, owner: input.owner, description: input.description ?? '', inputSchema: input.inputSchema ?? { type: 'object' }, execute: () => 'ok' })) },
  });
  // Warm-up, not counted: the first weak search parses the thesaurus, once per process.
  const first = await host.openSession({ config: { mode: 'tools' } });
  await first.execute({ name: 'tool_search', args: { query: QUERIES[0] ?? 'x' }, toolCallId: 'warm-first' });
  // Memory per session: the heap after a collection, before and after opening the sessions (each searched once).
  collectGarbage();
  const heapBeforeSessions = process.memoryUsage().heapUsed;
  const sessions = await Promise.all(Array.from({ length: Math.max(CLIENTS, 50) }, () => host.openSession({ config: { mode: 'tools' } })));
  for (const [index, session] of sessions.entries()) await session.execute({ name: 'tool_search', args: { query: QUERIES[index % QUERIES.length] ?? 'x' }, toolCallId: `warm-${index}` });
  collectGarbage();
  const heapPerSessionKb = (process.memoryUsage().heapUsed - heapBeforeSessions) / 1024 / sessions.length;
  const searches: number[] = [];
  for (let round = 0; round < 4; round += 1) {
    for (const [index, session] of sessions.slice(0, 50).entries()) {
      const query = QUERIES[(index + round) % QUERIES.length] ?? 'read a file';
      started = performance.now();
      await session.execute({ name: 'tool_search', args: { query }, toolCallId: `s${round}-${index}` });
      searches.push(performance.now() - started);
    }
  }
  await host.close();
  out('## In one process (what one replica holds)');
  out();
  out(`| catalog build | ${(buildMs / 1000).toFixed(2)} s for ${inputs.length} tools, heap +${heapMb.toFixed(1)} MB (${((heapMb / inputs.length) * 1000).toFixed(2)} MB per 1,000 tools) |`);
  out('| --- | --- |');
  const p = (samples: number[], at: number) => ms(percentile([...samples].sort((a, b) => a - b), at));
  out(`| list_changed of one server (${changed.length} tools replaced, ${CHANGES} times), index update p50 / p95 / max | ${p(updates, 50)} / ${p(updates, 95)} / ${ms(Math.max(...updates))} ms wall-clock; CPU ${p(updateCpu, 50)} / ${p(updateCpu, 95)} / ${ms(Math.max(...updateCpu))} ms (${load()}) |`);
  out(`| views rebuilt by it (of ${views.length}); filter calls | ${rebuilt}; ${asked} (${(asked / CHANGES / views.length).toFixed(0)} per view per change: the changed tools only) |`);
  out(`| a view's catch-up and next search, mean | ${ms(percentile([...catchUps].sort((a, b) => a - b), 50))} ms |`);
  out(`| a session (host.openSession, tools mode, after one search), heap | ${heapPerSessionKb.toFixed(1)} KB each (${sessions.length} sessions, heap after a full collection) |`);
  out();
  out('| in-process tool_search (session.execute) | count | p50 ms | p95 ms | p99 ms |');
  out('| --- | ---: | ---: | ---: | ---: |');
  out(`| search | ${stats(searches)} |`);
  out();
}

// 2. The deployment: Redis, the HTTP upstreams, the replicas, nginx.
const redis = await startRedisServer();
const httpSources = Array.from({ length: HTTP }, (_, index) => serverName(STDIO + index));
let httpUrls: string[] = [];
let httpPid = 0;
if (HTTP > 0) {
  const upstreams = spawn(process.execPath, [HTTP_UPSTREAMS, toolsFile, ...httpSources], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, REPLAY_CALL_LOG: callLog } });
  children.push(upstreams);
  httpPid = upstreams.pid!;
  httpUrls = await new Promise<string[]>((resolve) => {
    let text = '';
    upstreams.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) resolve((JSON.parse(text.split('\n')[0]!) as { urls: string[] }).urls);
    });
  });
}
// The slowest upstream's own start, alone: a stdio replay server spawned, initialized and listed.
const ownStart = await (async () => {
  const started = performance.now();
  const client = new LegacyClient({ name: 'own-start', version: '1' });
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [REPLAY_MCP_SERVER_PATH], env: { ...process.env, REPLAY_TOOLS_FILE: toolsFileOf(0) } as Record<string, string> }));
  await client.listTools();
  const took = performance.now() - started;
  await client.close();
  return took;
})();
const config = join(work, 'config.json');
writeFileSync(
  config,
  JSON.stringify({
    mcpServers: Object.fromEntries([
      ...Array.from({ length: STDIO }, (_, index) => [serverName(index), { command: process.execPath, args: [REPLAY_MCP_SERVER_PATH], env: { REPLAY_TOOLS_FILE: toolsFileOf(index) } }]),
      ...httpUrls.map((url, index) => [serverName(STDIO + index), { url }]),
    ]),
    toolSearch: { mode: 'tools' },
    // startupTimeoutMs left at its default (5 s): a session opened while servers start does not wait for them all.
    http: { maxSessions: CLIENTS * 2, maxSessionsPerClient: CLIENTS * 2 },
  }),
);

interface Replica {
  child: ChildProcess;
  address: string;
  spawnedAt: number;
  /** Epoch ms of the spawn (to compare with the replica's log times). */
  spawnedEpoch: number;
  /** Epoch ms of each upstream's `mcp server connected` log line, by server name. */
  connectedAt: Map<string, number>;
}
interface Startup {
  firstSearch: number;
  covering: number;
  /** Epoch ms when the covering search answered. */
  coveredAt: number;
  /** Epoch ms of the last upstream's `mcp server connected` in that replica's log. */
  lastConnectedAt: number;
  /** Upstreams whose `mcp server connected` the log showed. */
  connected: number;
  spawnedEpoch: number;
  load: string;
}
const replicas: Replica[] = [];
const startup: Startup[] = [];
const startedAll = performance.now();

// A modern client to one replica; the connect is retried while the loaded replica does not answer it in time.
const modern = async (url: string) => {
  for (let attempt = 1; ; attempt += 1) {
    const client = new ModernClient({ name: 'bench-scale', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new ModernTransport(new URL(url)), { timeout: 600_000 });
      return client;
    } catch (error) {
      await client.close().catch(() => undefined);
      if (attempt >= 5) throw error;
      await sleep(1_000);
    }
  }
};
/** How long a replica may take to cover every server before the bench goes on without the missing ones. */
const STARTUP_LIMIT_MS = 30 * 60_000;
const probeIds = Array.from({ length: SERVERS }, (_, server) => `mcp:${serverName(server)}:${toolsOf[server]![0]!.name}`);

/**
 * Start-up of one replica, alone: spawn to its first answered search, and to its first search that covers every
 * server (a describe of one tool of each answers). The ids still missing are asked again at once while few are
 * left, so the covering moment is known to a few requests' time.
 */
async function measureStartup(replica: Replica): Promise<Startup> {
  const client = await modern(`http://${replica.address}/mcp`);
  let firstSearch = Number.NaN;
  let covering = Number.NaN;
  let coveredAt = Number.NaN;
  const giveUpAt = performance.now() + STARTUP_LIMIT_MS;
  for (let missing = probeIds; missing.length > 0; ) {
    if (performance.now() > giveUpAt) {
      out(`replica at ${replica.address}: ${missing.length} of ${SERVERS} servers still not in after ${STARTUP_LIMIT_MS / 60_000} minutes (${missing.slice(0, 5).join(', ')}...); going on without them`);
      break;
    }
    // A request the loaded replica does not answer in time counts as not yet (the probe goes on).
    if (Number.isNaN(firstSearch)) {
      const found = await client.callTool({ name: 'tool_search', arguments: { query: QUERIES[0] ?? 'read a file' } }, { timeout: 600_000 }).catch(() => ({ isError: true }));
      if (found.isError !== true) firstSearch = performance.now() - replica.spawnedAt;
    }
    const still: string[] = [];
    for (const id of missing) {
      const described = await client.callTool({ name: 'tool_describe', arguments: { id } }, { timeout: 600_000 }).catch(() => ({ isError: true }));
      if (described.isError === true) still.push(id);
    }
    missing = still;
    if (missing.length === 0) {
      covering = performance.now() - replica.spawnedAt;
      coveredAt = Date.now();
    } else await sleep(missing.length <= 5 ? 5 : 200);
  }
  await client.close();
  return { firstSearch, covering, coveredAt, lastConnectedAt: Math.max(...replica.connectedAt.values()), connected: replica.connectedAt.size, spawnedEpoch: replica.spawnedEpoch, load: load() };
}

for (let index = 0; index < REPLICAS; index += 1) {
  // Info-level JSON logs on stderr: each upstream's `mcp server connected`, with its time.
  const spawnedAt = performance.now();
  const spawnedEpoch = Date.now();
  // --cpu-prof: the first replica writes a V8 CPU profile when it exits (stopped with SIGTERM at the end).
  const profile = CPU_PROF && index === 0 ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [];
  const child = spawn(process.execPath, [...profile, BIN, 'serve', '--config', config, '--http', '127.0.0.1:0', '--json', '--log-level', 'info', '--store', redis.url], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TOOL_SEARCH_STATE_SECRET: SECRET, TOOL_SEARCH_TOKEN: undefined } as NodeJS.ProcessEnv,
  });
  children.push(child);
  const connectedAt = new Map<string, number>();
  let pending = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('mcp server connected')) continue;
      try {
        const entry = JSON.parse(line) as { time?: number; server?: string; msg?: string };
        if (entry.msg === 'mcp server connected' && typeof entry.time === 'number') connectedAt.set(entry.server ?? String(connectedAt.size), entry.time);
      } catch {
        // Not a JSON log line.
      }
    }
  });
  const replica: Replica = { child, address: new URL(await urlPrinted(child)).host, spawnedAt, spawnedEpoch, connectedAt };
  replicas.push(replica);
  startup.push(await measureStartup(replica));
  out(`replica ${index + 1} covered all ${SERVERS} servers ${(startup[index]!.covering / 1000).toFixed(1)} s after its spawn (${startup[index]!.load})`);
}
const allCovered = performance.now() - startedAll;

/** Errors by kind, per phase (and, in a fault phase, per window: before, during and after the fault). */
const errors = new Map<string, Map<string, number>>();
const failedWith = (phase: string, error: unknown) => {
  const kind = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).replace(/\d+/g, 'N').slice(0, 140);
  const byKind = errors.get(phase) ?? new Map<string, number>();
  errors.set(phase, byKind.set(kind, (byKind.get(kind) ?? 0) + 1));
};
const timed = async <T>(into: number[], run: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  const value = await run();
  into.push(performance.now() - started);
  return value;
};
const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
/** The RSS of each replica still running (0 for one that was killed). */
const replicaRss = () => replicas.map((replica) => (replica.child.exitCode === null && replica.child.signalCode === null ? rssMb(replica.child.pid!) : 0));
const burst = { list: [] as number[], search: [] as number[], connect: [] as number[], seconds: 0 };
const connectPaced: number[] = [];
interface PhaseResult {
  name: string;
  seconds: number;
  list: number[];
  search: number[];
  call: number[];
  sent: number;
  /** Requests answered without an error. */
  answered: number;
  hangs: number;
  /** Calls (tool_call with a nonce) the HTTP upstreams logged more than once. */
  ranTwice: number;
  /** Calls whose client got an error while the upstream logged them: they ran, and the client was told they may have. */
  ranButFailed: number;
  note: string;
}
const phases: PhaseResult[] = [];
let perLegacySessionMb = Number.NaN;
let legacyOpen = 0;
let nginx: ChildProcess | undefined;
let redisProcess: ChildProcess = redis.process;
// --startup-only stops here: no balancer, no clients.
if (!STARTUP_ONLY) {
  // nginx: the README's block, round robin; the 2025-era clients on an ip_hash port.
  const nginxDir = join(work, 'nginx');
  mkdirSync(nginxDir);
  const readmeBlock = /```nginx\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'))?.[1] ?? '';
  const withoutComments = (text: string) =>
    text
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').replace(/^\s*#.*$/, '').trim())
      .filter((line) => line !== '');
  const location = (name: string) => withoutComments(new RegExp(`location ${name} \\{\\n([\\s\\S]*?)\\n    \\}`).exec(readmeBlock)?.[1] ?? '');
  // The upstream block's own directives (keepalive and its timeout, when the README sets them), not its servers.
  const upstreamDirectives = withoutComments(/upstream \S+ \{\n([\s\S]*?)\n\}/.exec(readmeBlock)?.[1] ?? '')
    .filter((line) => !line.startsWith('server ') && !line.startsWith('ip_hash'))
    .map((line) => `    ${line}`);
  const proxy = location('/mcp').map((line) => `      ${line.startsWith('proxy_pass ') ? 'proxy_pass http://$upstream_group;' : line}`).join('\n');
  const failed = `    location @replica_failed {\n${location('@replica_failed').map((line) => `      ${line}`).join('\n')}\n    }`;
  const [roundRobinPort, stickyPort] = [await freePort(), await freePort()];
  const servers = [...replicas.map((replica) => `    server ${replica.address};`), ...upstreamDirectives].join('\n');
  writeFileSync(
    join(nginxDir, 'nginx.conf'),
    [
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(nginxDir, 'nginx.pid')};`,
      `error_log ${join(nginxDir, 'error.log')} warn;`,
      'events { worker_connections 4096; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(nginxDir, kind)};`),
      `  upstream round_robin {\n${servers}\n  }`,
      `  upstream sticky {\n    ip_hash;\n${servers}\n  }`,
      `  server {\n    listen 127.0.0.1:${roundRobinPort};\n    set $upstream_group round_robin;\n    location / {\n${proxy}\n    }\n${failed}\n  }`,
      `  server {\n    listen 127.0.0.1:${stickyPort};\n    set $upstream_group sticky;\n    location / {\n${proxy}\n    }\n${failed}\n  }`,
      '}',
    ].join('\n'),
  );
  nginx = spawn('nginx', ['-p', nginxDir, '-c', join(nginxDir, 'nginx.conf'), '-e', join(nginxDir, 'error.log')], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await fetch(`http://127.0.0.1:${roundRobinPort}/mcp`).then(() => true, () => false)) break;
    await sleep(50);
  }
  out(`nginx upstream directives from the README: ${upstreamDirectives.length === 0 ? 'none (a new connection to a replica per request)' : upstreamDirectives.map((line) => line.trim()).join(' ')}`);

  // 3. The clients. The two SDKs' clients, as the few calls made here: connect, list, call. Even indexes speak
  // 2026-07-28 through round robin, odd ones 2025-06-18 through ip_hash. Every tools/list is a round trip: the v2
  // client's cache (the front says its control-tool list may be reused for 5 minutes) is refreshed on each.
  interface Calls {
    isModern: boolean;
    connect(): Promise<void>;
    listTools(): Promise<unknown>;
    callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
    close(): Promise<void>;
  }
  const requestOptions = { timeout: HANG_MS * 2 };
  const makeClient = (index: number): Calls => {
    const isModern = index % 2 === 0;
    const url = new URL(`http://127.0.0.1:${isModern ? roundRobinPort : stickyPort}/mcp`);
    if (isModern) {
      const inner = new ModernClient({ name: `scale-${index}`, version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      return {
        isModern,
        connect: () => inner.connect(new ModernTransport(url), requestOptions),
        listTools: () => inner.listTools(undefined, { ...requestOptions, cacheMode: 'refresh' }),
        callTool: async (params) => (await inner.callTool(params, requestOptions)) as Record<string, unknown>,
        close: () => inner.close(),
      };
    }
    const inner = new LegacyClient({ name: `scale-${index}`, version: '1' });
    return {
      isModern,
      connect: () => inner.connect(new LegacyTransport(url), requestOptions),
      listTools: () => inner.listTools(undefined, requestOptions),
      callTool: async (params) => (await inner.callTool(params, undefined, requestOptions)) as Record<string, unknown>,
      close: () => inner.close(),
    };
  };

  // 3a. Burst: every client at once, --rounds rounds as fast as each can.
  async function burstClient(index: number): Promise<void> {
    const client = makeClient(index);
    try {
      await timed(burst.connect, () => client.connect());
      for (let round = 0; round < ROUNDS; round += 1) {
        await timed(burst.list, () => client.listTools());
        const query = QUERIES[(index + round) % QUERIES.length] ?? 'read a file';
        const found = await timed(burst.search, () => client.callTool({ name: 'tool_search', arguments: { query } }));
        if (found['isError'] === true) failedWith('burst', new Error(`tool_search answered an error: ${JSON.stringify(found['content']).slice(0, 80)}`));
      }
    } catch (error) {
      failedWith('burst', error);
    } finally {
      await client.close().catch(() => undefined);
    }
  }
  if (ROUNDS > 0) {
    const burstStarted = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => burstClient(index)));
    burst.seconds = (performance.now() - burstStarted) / 1000;
  }

  // 3b. Paced: the clients connect first, at most 10 at a time; the replicas' RSS before and after says what a
  // 2025-era session holds (a 2026-07-28 client holds nothing in a replica between its requests).
  interface OpenClient {
    index: number;
    client: Calls;
    /** A reconnect under way (a 2025-era session lost with its replica). */
    reconnecting?: Promise<void> | undefined;
  }
  await sleep(2_000);
  const rssBefore = replicaRss();
  const open: OpenClient[] = [];
  let nextIndex = 0;
  await Promise.all(
    Array.from({ length: Math.min(10, CLIENTS) }, async () => {
      while (nextIndex < CLIENTS) {
        const index = nextIndex++;
        const client = makeClient(index);
        try {
          await timed(connectPaced, () => client.connect());
          open.push({ index, client });
        } catch (error) {
          failedWith('paced connect', error);
        }
      }
    }),
  );
  open.sort((a, b) => a.index - b.index);
  await sleep(2_000);
  legacyOpen = open.filter((one) => !one.client.isModern).length;
  const rssGrowth = replicaRss().reduce((sum, value, index) => sum + value - rssBefore[index]!, 0);
  perLegacySessionMb = legacyOpen === 0 ? Number.NaN : rssGrowth / legacyOpen;

  // The upstream tool the fault phases call: one of an HTTP server whose schema takes the nonce (no required
  // argument but strings, or none and extra properties allowed). The HTTP upstreams log every call they run.
  const callTarget = (() => {
    for (let server = STDIO; server < SERVERS; server += 1) {
      for (const tool of toolsOf[server]!) {
        const schema = (tool.parameters ?? {}) as { properties?: Record<string, { type?: unknown }>; required?: unknown; additionalProperties?: unknown };
        const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
        if (required.length === 0 && schema.additionalProperties === false) continue;
        if (!required.every((name) => schema.properties?.[name]?.type === 'string')) continue;
        return { id: `mcp:${serverName(server)}:${tool.name}`, keys: required.length === 0 ? ['nonce'] : required };
      }
    }
    return undefined;
  })();

  /**
   * One paced phase over the open clients: each sends a request every PACE_MS ms, open loop, for `seconds`; the
   * events run at their times (a kill, a Redis stop) and name the window the requests sent after them fall in.
   */
  async function pacedPhase(name: string, seconds: number, options: { calls: boolean; events?: Array<{ atMs: number; window: string; run: () => Promise<void> }> }): Promise<PhaseResult> {
    const result: PhaseResult = { name, seconds, list: [], search: [], call: [], sent: 0, answered: 0, hangs: 0, ranTwice: 0, ranButFailed: 0, note: '' };
    const kinds = options.calls && callTarget !== undefined ? (['list', 'search', 'call', 'search'] as const) : (['list', 'search'] as const);
    const failedNonces = new Set<string>();
    let window = options.events === undefined || options.events.length === 0 ? name : `${name}, before the first fault (sent before it)`;
    const started = performance.now();
    const told: string[] = [];
    const eventsDone = (async () => {
      for (const event of options.events ?? []) {
        await sleep(started + event.atMs - performance.now());
        await event.run();
        window = `${name}, ${event.window} (sent after it)`;
        told.push(`${event.window}: at ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
    })();
    const sendOne = async (one: OpenClient, step: number, due: number): Promise<void> => {
      const kind = kinds[step % kinds.length]!;
      const sentIn = window;
      const nonce = `nonce-${name.replace(/\W+/g, '')}-${one.index}-${step}`;
      await one.reconnecting;
      result.sent += 1;
      const client = one.client;
      const request: Promise<unknown> =
        kind === 'list'
          ? client.listTools()
          : kind === 'search'
            ? client.callTool({ name: 'tool_search', arguments: { query: QUERIES[(one.index + step) % QUERIES.length] ?? 'read a file' } })
            : client.callTool({ name: 'tool_call', arguments: { id: callTarget!.id, args: Object.fromEntries(callTarget!.keys.map((key) => [key, nonce])) } });
      const outcome = await Promise.race([request.then((value) => ({ value }), (error: unknown) => ({ error })), sleep(HANG_MS).then(() => 'hang' as const)]);
      if (outcome === 'hang') {
        result.hangs += 1;
        failedWith(sentIn, new Error(`hang: no answer within ${HANG_MS} ms (${kind})`));
        return;
      }
      const failure = 'error' in outcome ? outcome.error : (outcome.value as { isError?: boolean }).isError === true ? new Error(`${kind} answered an error: ${JSON.stringify((outcome.value as { content?: unknown }).content).slice(0, 100)}`) : undefined;
      if (failure !== undefined) {
        if (kind === 'call') failedNonces.add(nonce);
        failedWith(sentIn, failure);
        // A 2025-era session its replica lost (killed): the client opens a new one, as a real client would.
        if (!client.isModern && /session not found/i.test(String(failure)) && one.reconnecting === undefined) {
          one.reconnecting = (async () => {
            const fresh = makeClient(one.index);
            await fresh.connect().then(
              () => ((one.client = fresh), failedWith(sentIn, new Error('reconnected: a 2025-era session opened again'))),
              (error: unknown) => failedWith(sentIn, error),
            );
            one.reconnecting = undefined;
          })();
        }
        return;
      }
      result[kind].push(performance.now() - due);
      result.answered += 1;
    };
    await Promise.all(
      open.map(async (one, position) => {
        const pending: Array<Promise<void>> = [];
        for (let step = 0; ; step += 1) {
          const dueAt = (position * PACE_MS) / open.length + step * PACE_MS;
          if (dueAt >= seconds * 1000) break;
          const due = started + dueAt;
          const wait = due - performance.now();
          if (wait > 0) await sleep(wait);
          pending.push(sendOne(one, step, due));
        }
        await Promise.all(pending);
      }),
    );
    await eventsDone;
    if (options.calls && callTarget !== undefined && existsSync(callLog)) {
      const runs = new Map<string, number>();
      // One line per call run; its arguments may carry the nonce more than once (one per required argument).
      for (const line of readFileSync(callLog, 'utf8').split('\n')) {
        for (const nonce of new Set(line.match(/nonce-[A-Za-z0-9]+-\d+-\d+/g) ?? [])) runs.set(nonce, (runs.get(nonce) ?? 0) + 1);
      }
      const prefix = `nonce-${name.replace(/\W+/g, '')}-`;
      for (const [nonce, count] of runs) {
        if (!nonce.startsWith(prefix)) continue;
        if (count > 1) result.ranTwice += 1;
        if (failedNonces.has(nonce)) result.ranButFailed += 1;
      }
    }
    if (options.calls && callTarget === undefined) told.push('no HTTP upstream tool takes a nonce: no tool_call sent');
    result.note = told.join('; ');
    return result;
  }

  if (open.length > 0 && PACED_SECONDS > 0) phases.push(await pacedPhase('paced', PACED_SECONDS, { calls: false }));
  if (open.length > 0 && KILL) {
    const victim = replicas[REPLICAS - 1]!;
    phases.push(
      await pacedPhase('kill', Math.max(PACED_SECONDS, 20), {
        calls: true,
        events: [{ atMs: (Math.max(PACED_SECONDS, 20) * 1000) / 2, window: `after the SIGKILL of replica ${REPLICAS}`, run: async () => void victim.child.kill('SIGKILL') }],
      }),
    );
  }
  if (open.length > 0 && REDIS_STOP) {
    const seconds = Math.max(PACED_SECONDS, 40);
    const redisDir = join(work, 'redis-again');
    mkdirSync(redisDir);
    phases.push(
      await pacedPhase('redis-stop', seconds, {
        calls: true,
        events: [
          {
            atMs: 10_000,
            window: 'while Redis was stopped (10 s)',
            run: async () => {
              const exited = new Promise((resolve) => redisProcess.once('exit', resolve));
              redisProcess.kill('SIGTERM');
              await exited;
            },
          },
          {
            atMs: 20_000,
            window: 'after Redis started again (empty, same port)',
            run: async () => {
              const again = spawn('redis-server', ['--port', String(redis.port), '--bind', '127.0.0.1', '--dir', redisDir, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
              redisProcess = again;
              await new Promise<void>((resolve) => {
                let text = '';
                again.stdout!.on('data', (chunk: Buffer) => {
                  text += chunk.toString('utf8');
                  if (text.includes('Ready to accept connections')) resolve();
                });
              });
            },
          },
        ],
      }),
    );
    // Reconnected without a restart: the replicas' connections the new redis-server has (each replica holds a few).
    const clients = await new Promise<string>((resolve) => execFile('redis-cli', ['-p', String(redis.port), 'client', 'list'], (error, stdout) => resolve(error === null ? stdout : '')));
    const replicasRunning = replicas.filter((replica) => alive(replica.child)).length;
    phases.at(-1)!.note += `; at the phase's end the restarted redis-server had ${clients.split('\n').filter((line) => line.includes('addr=')).length - 1} client connections from the ${replicasRunning} replicas still running (redis-cli's own not counted)`;
  }
  await Promise.all(open.map((one) => one.client.close().catch(() => undefined)));
}

// 4. What it all costs.
const upstreamRss = replicas.filter((replica) => alive(replica.child)).flatMap((replica) => childrenOf(replica.child.pid!).map(rssMb)).filter((value) => value > 0);
out('## The deployment');
out();
out(`| start-up of each replica, alone (spawn to answer) | first search | slowest upstream connected (its log) | first covering search (all ${SERVERS} servers in) | covering search after the slowest upstream connected | load average then |`);
out('| --- | ---: | ---: | ---: | ---: | --- |');
for (const [index, one] of startup.entries()) {
  const gap = one.coveredAt - one.lastConnectedAt;
  const slowest = one.connected === SERVERS ? `${((one.lastConnectedAt - one.spawnedEpoch) / 1000).toFixed(1)} s` : `- (${one.connected} of ${SERVERS} logged)`;
  out(`| replica ${index + 1} | ${(one.firstSearch / 1000).toFixed(1)} s | ${slowest} | ${(one.covering / 1000).toFixed(1)} s | ${Number.isFinite(gap) && one.connected === SERVERS ? `${gap.toFixed(0)} ms` : '-'} | ${one.load.replace('load average ', '')} |`);
}
out();
out(`all replicas covered ${(allCovered / 1000).toFixed(1)} s after the first spawn; one stdio upstream's own start, alone (spawn, initialize, tools/list): ${(ownStart / 1000).toFixed(2)} s`);
out();
if (!STARTUP_ONLY) {
  out('At the client, through nginx. Every tools/list is a round trip (the 2026-07-28 client\'s list cache refreshed on each).');
  out();
  if (ROUNDS > 0) {
    out(`| burst: ${CLIENTS} clients connect at once, ${ROUNDS} rounds each as fast as they can (${burst.seconds.toFixed(1)} s) | count | p50 ms | p95 ms | p99 ms |`);
    out('| --- | ---: | ---: | ---: | ---: |');
    out(`| connect (initialize, or the modern discover) | ${stats(burst.connect)} |`);
    out(`| tools/list | ${stats(burst.list)} |`);
    out(`| tool_search | ${stats(burst.search)} |`);
    out();
  }
  const rate = (open: number) => `${((open * 1000) / PACE_MS).toFixed(1)} requests/s in all`;
  out(`| paced: ${connectPaced.length} clients connected first, 10 at a time | count | p50 ms | p95 ms | p99 ms |`);
  out('| --- | ---: | ---: | ---: | ---: |');
  out(`| connect (initialize, or the modern discover) | ${stats(connectPaced)} |`);
  out();
  for (const phase of phases) {
    out(`| ${phase.name}: ${connectPaced.length} sessions open, each one request every ${PACE_MS} ms (${rate(connectPaced.length)}), open loop, ${phase.seconds} s; latency from when each was due | count | p50 ms | p95 ms | p99 ms |`);
    out('| --- | ---: | ---: | ---: | ---: |');
    out(`| tools/list | ${stats(phase.list)} |`);
    out(`| tool_search | ${stats(phase.search)} |`);
    if (phase.call.length > 0 || phase.name !== 'paced') out(`| tool_call (an HTTP upstream's tool, with a nonce) | ${stats(phase.call)} |`);
    out();
    // Open loop: a deployment slower than the pace queues the requests, and the latency grows through the phase.
    out(`${phase.name}: ${phase.sent} requests due, ${phase.answered} answered without an error (${(phase.answered / phase.seconds).toFixed(1)} per second of the phase, against ${rate(connectPaced.length)} offered)`);
    out();
    if (phase.name !== 'paced') {
      out(`${phase.name}: hangs (no answer within ${HANG_MS} ms): ${phase.hangs}; calls run twice upstream: ${phase.ranTwice}; calls that ran upstream while their client got an error: ${phase.ranButFailed}${phase.note === '' ? '' : `; ${phase.note}`}`);
      out();
    }
  }
  if (phases.length > 0) out();
}
out('| process | RSS MB | fds |');
out('| --- | ---: | ---: |');
for (const [index, replica] of replicas.entries()) out(alive(replica.child) ? `| replica ${index + 1} | ${rssMb(replica.child.pid!).toFixed(0)} | ${fds(replica.child.pid!)} |` : `| replica ${index + 1} | (killed) | |`);
out(`| stdio upstream (mean of ${upstreamRss.length}) | ${(upstreamRss.reduce((sum, value) => sum + value, 0) / Math.max(1, upstreamRss.length)).toFixed(1)} | |`);
if (httpPid > 0) out(`| HTTP upstreams (${HTTP} in one process; per server) | ${(rssMb(httpPid) / HTTP).toFixed(1)} | ${fds(httpPid)} |`);
out(`| redis-server | ${redisProcess.pid === undefined || !alive(redisProcess) ? '-' : rssMb(redisProcess.pid).toFixed(0)} | |`);
if (!STARTUP_ONLY) out(`| a 2025-era session in its replica (RSS growth while ${legacyOpen} opened, per session) | ${ms(perLegacySessionMb * 1024)} KB | |`);
out();
out(`(${load()})`);
if (errors.size === 0) out('errors: none');
for (const [phase, byKind] of errors) out(`errors by kind, ${phase}:\n${[...byKind].map(([kind, count]) => `  ${count}x ${kind}`).join('\n')}`);

// Everything stops: nginx first (its fast shutdown stops its worker), then the replicas, the upstreams, Redis.
nginx?.kill('SIGTERM');
for (const child of children) child.kill('SIGTERM');
// A profiled replica writes its profile as it exits: give it its drain.
await sleep(CPU_PROF ? 8_000 : 1_000);
for (const child of children) if (alive(child)) child.kill('SIGKILL');
if (redisProcess !== redis.process && alive(redisProcess)) redisProcess.kill('SIGKILL');
await redis.stop();
rmSync(work, { recursive: true, force: true });
if (CPU_PROF) out(`CPU profile of replica 1: ${existsSync(PROFILE_DIR) ? readdirSync(PROFILE_DIR).map((file) => join(PROFILE_DIR, file)).join(', ') : 'none written'}`);
process.exit(0);
