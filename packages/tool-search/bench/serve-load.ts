// pnpm bench:serve-load [--sessions 10,50,200] [--soak <seconds>] [--soak-sessions 20]
// `tool-search serve --http` under concurrent official SDK clients (Streamable HTTP, loopback only), with the real
// server-everything and server-memory behind it. For each N: N sessions at once, each doing open (initialize),
// list (tools/list), 3 searches (tool_search), describe (tool_describe), 2 calls (tool_call: everything echo,
// memory read_graph) and close (DELETE, then the client's close). Prints p50/p95/p99 per operation and the serve
// process's RSS and open file descriptors before and after. `--soak S` then runs rounds of `--soak-sessions`
// sessions for S seconds (at most 600) and prints how RSS and fds moved. Asserts nothing.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { percentile } from '@tool-search/bench-stats';
import { urlPrinted } from '../src/cli/url-printed.js';

const require = createRequire(import.meta.url);
const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const { values } = parseArgs({ options: { sessions: { type: 'string' }, soak: { type: 'string' }, 'soak-sessions': { type: 'string' } } });
const LOADS = (values.sessions ?? '10,50,200').split(',').map(Number);
const SOAK_SECONDS = Math.min(600, Number(values.soak ?? 0));
const SOAK_SESSIONS = Number(values['soak-sessions'] ?? 20);
if (LOADS.some((n) => !Number.isInteger(n) || n < 1 || n > 1_000) || !Number.isFinite(SOAK_SECONDS) || !Number.isInteger(SOAK_SESSIONS) || SOAK_SESSIONS < 1) {
  process.stderr.write('usage: bench:serve-load [--sessions 10,50,200] (each 1-1000) [--soak <seconds, at most 600>] [--soak-sessions N]\n');
  process.exit(2);
}
if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (pnpm --filter tool-search build)`);

const work = mkdtempSync(join(tmpdir(), 'bench-serve-load-'));
const config = join(work, 'config.json');
const maxSessions = Math.max(...LOADS, SOAK_SESSIONS) + 10;
writeFileSync(
  config,
  JSON.stringify({
    mcpServers: {
      everything: { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js')] },
      memory: { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-memory/dist/index.js')], env: { MEMORY_FILE_PATH: join(work, 'memory.jsonl') } },
    },
    toolSearch: { mode: 'tools' },
    startupTimeoutMs: 30_000,
    // Every client of the bench comes from one address: the per-client cap is the whole limit here.
    http: { maxSessions, maxSessionsPerClient: maxSessions },
  }),
);

const OPERATIONS = ['open', 'list', 'search', 'describe', 'call', 'close'] as const;
type Operation = (typeof OPERATIONS)[number];
type Samples = Record<Operation, number[]>;
const emptySamples = (): Samples => Object.fromEntries(OPERATIONS.map((name) => [name, []])) as unknown as Samples;

const child = spawn(process.execPath, [bin, 'serve', '--config', config, '--http', '127.0.0.1:0', '--json', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
const pid = child.pid!;
const url = await urlPrinted(child);

const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const fds = () => readdirSync(`/proc/${pid}/fd`).length;
const timed = async <T>(samples: number[], run: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  const value = await run();
  samples.push(performance.now() - started);
  return value;
};

/** Why sessions failed (the first 120 characters of the error), with how often. */
const failures = new Map<string, number>();

/** One client's whole session; failures are counted, not thrown. */
async function oneSession(samples: Samples, index: number): Promise<boolean> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: `load-${index}`, version: '0.0.0' });
  try {
    await timed(samples.open, () => client.connect(transport));
    await timed(samples.list, () => client.listTools());
    for (const query of ['echo a message', 'add two numbers', 'read the knowledge graph']) {
      await timed(samples.search, () => client.callTool({ name: 'tool_search', arguments: { query } }));
    }
    await timed(samples.describe, () => client.callTool({ name: 'tool_describe', arguments: { id: 'mcp:everything:echo' } }));
    const echoed = await timed(samples.call, () => client.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: `session ${index}` } } }));
    const graph = await timed(samples.call, () => client.callTool({ name: 'tool_call', arguments: { id: 'mcp:memory:read_graph', args: {} } }));
    for (const result of [echoed, graph]) {
      if (result.isError === true) throw new Error(`a call failed: ${JSON.stringify(result.content).slice(0, 200)}`);
    }
    await timed(samples.close, async () => {
      await transport.terminateSession();
      await client.close();
    });
    return true;
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${(error.cause as NodeJS.ErrnoException).code ?? error.cause.message})` : "";
    const reason = `${error instanceof Error ? error.message : String(error)}${cause}`.slice(0, 160);
    failures.set(reason, (failures.get(reason) ?? 0) + 1);
    await client.close().catch(() => undefined);
    return false;
  }
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : `${value.toFixed(1)}`);
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

// Warm-up: the upstreams are started and the first session's costs are not counted.
await oneSession(emptySamples(), -1);
process.stdout.write(`tool-search serve --http on loopback (pid ${pid}), upstreams: server-everything, server-memory; maxSessions ${maxSessions}\n\n`);
process.stdout.write('| N | op | count | p50 ms | p95 ms | p99 ms |\n| ---: | --- | ---: | ---: | ---: | ---: |\n');
const resources: string[] = [];
for (const load of LOADS) {
  await settle();
  const before = { rss: rssMb(), fds: fds() };
  const samples = emptySamples();
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: load }, (_, index) => oneSession(samples, index)));
  const wallMs = performance.now() - started;
  await settle();
  const after = { rss: rssMb(), fds: fds() };
  for (const operation of OPERATIONS) {
    const sorted = [...samples[operation]].sort((a, b) => a - b);
    process.stdout.write(`| ${load} | ${operation} | ${sorted.length} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 95))} | ${ms(percentile(sorted, 99))} |\n`);
  }
  resources.push(`| ${load} | ${results.filter(Boolean).length}/${load} | ${(wallMs / 1000).toFixed(1)} | ${before.rss.toFixed(0)} -> ${after.rss.toFixed(0)} | ${before.fds} -> ${after.fds} |`);
}
process.stdout.write(`\n| N | sessions ok | wall s | RSS MB before -> after | fds before -> after |\n| ---: | ---: | ---: | --- | --- |\n${resources.join('\n')}\n`);
const reportFailures = () => {
  for (const [reason, count] of failures) process.stdout.write(`  failed ${count}x: ${reason}\n`);
  failures.clear();
};
reportFailures();

if (SOAK_SECONDS > 0) {
  await settle();
  const before = { rss: rssMb(), fds: fds() };
  const deadline = Date.now() + SOAK_SECONDS * 1000;
  let ok = 0;
  let failed = 0;
  let rounds = 0;
  let peakRss = before.rss;
  while (Date.now() < deadline) {
    const results = await Promise.all(Array.from({ length: SOAK_SESSIONS }, (_, index) => oneSession(emptySamples(), index)));
    ok += results.filter(Boolean).length;
    failed += results.filter((result) => !result).length;
    rounds += 1;
    peakRss = Math.max(peakRss, rssMb());
  }
  reportFailures();
  await settle();
  const after = { rss: rssMb(), fds: fds() };
  process.stdout.write(
    `\nsoak: ${SOAK_SECONDS} s, ${rounds} rounds of ${SOAK_SESSIONS} sessions: ${ok} ok, ${failed} failed; RSS ${before.rss.toFixed(0)} -> ${after.rss.toFixed(0)} MB (peak ${peakRss.toFixed(0)}), fds ${before.fds} -> ${after.fds}\n`,
  );
}

child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
rmSync(work, { recursive: true, force: true });
