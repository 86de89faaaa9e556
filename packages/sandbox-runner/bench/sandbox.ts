// `pnpm bench:sandbox`: round-trip figures of the sandbox runner on this machine. Prints a table; asserts nothing.
// Targets (issue 3): warm no-op p50 <= 10 ms, cold <= 60 ms, <= 1 ms per bridge call.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRunner, probeRuntime, type Bridge, type Runner } from '../src/index.js';

const COLD_RUNS = 12;
const WARM_RUNS = 25;
/** Pause between warm runs so the pool has refilled: this measures a run served by a ready child. */
const REFILL_PAUSE_MS = 400;

const bridge: Bridge = {
  search: () => [],
  describe: (id) => ({ id }),
  call: (_id, args) => args,
};

const NO_OP = 'return null;';
const SEQUENTIAL = "for (let i = 0; i < 10; i += 1) await tools.call('mcp:bench:echo', { i }); return null;";
const PARALLEL = "await Promise.all(Array.from({ length: 10 }, (_, i) => tools.call('mcp:bench:echo', { i }))); return null;";

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

async function measure(runner: Runner, code: string, runs: number, pauseMs: number): Promise<{ times: number[]; warm: number }> {
  const times: number[] = [];
  let warm = 0;
  for (let index = 0; index < runs; index += 1) {
    if (pauseMs > 0) await sleep(pauseMs);
    const result = await runner.run({ code, bridge, timeoutMs: 10_000 });
    if (!result.ok) throw new Error(`bench run failed: ${result.error.code}: ${result.error.message}`);
    times.push(result.stats.wallTimeMs);
    if (result.stats.warm) warm += 1;
  }
  return { times, warm };
}

/** Reference: a bare `node -e 0` of the same binary, spawn to exit (no sandbox at all). */
async function measureBareNode(nodePath: string, runs: number): Promise<{ times: number[]; warm: number }> {
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    await new Promise((resolve) => spawn(nodePath, ['-e', '0'], { stdio: 'ignore' }).on('close', resolve));
    times.push(performance.now() - started);
  }
  return { times, warm: 0 };
}

const format = (value: number) => value.toFixed(1).padStart(8);

const probe = await probeRuntime();
if (!probe.ok) throw new Error(`no sandbox runtime: ${probe.reason}`);
console.log(`runtime ${probe.version} (${probe.nodePath}), isolation ${probe.isolation}`);
console.log(`host node ${process.version}, load average ${loadavg().map((value) => value.toFixed(2)).join(' ')}\n`);

const bare = await measureBareNode(probe.nodePath, COLD_RUNS);
const coldRunner = createRunner({ pool: { size: 0 } });
const cold = await measure(coldRunner, NO_OP, COLD_RUNS, 0);
await coldRunner.close();

const warmRunner = createRunner({ pool: { size: 2 } });
await sleep(1_500);
const warm = await measure(warmRunner, NO_OP, WARM_RUNS, REFILL_PAUSE_MS);
const sequential = await measure(warmRunner, SEQUENTIAL, WARM_RUNS, REFILL_PAUSE_MS);
const parallel = await measure(warmRunner, PARALLEL, WARM_RUNS, REFILL_PAUSE_MS);
await warmRunner.close();

const rows: Array<[string, { times: number[]; warm: number }]> = [
  ['reference: bare node -e 0', bare],
  ['cold no-op (pool 0)', cold],
  ['warm no-op (pool 2)', warm],
  ['warm, 10 sequential calls', sequential],
  ['warm, 10 parallel calls', parallel],
];
console.log('| case                      |   runs | warm |  p50 ms |  p95 ms |');
console.log('|---------------------------|-------:|-----:|--------:|--------:|');
for (const [name, data] of rows) {
  console.log(
    `| ${name.padEnd(25)} | ${String(data.times.length).padStart(6)} | ${String(data.warm).padStart(4)} |${format(percentile(data.times, 0.5))} |${format(percentile(data.times, 0.95))} |`,
  );
}
const warmP50 = percentile(warm.times, 0.5);
const perSequentialCall = (percentile(sequential.times, 0.5) - warmP50) / 10;
const perParallelCall = (percentile(parallel.times, 0.5) - warmP50) / 10;
console.log(`\nper bridge call (p50 difference to the warm no-op / 10): sequential ${perSequentialCall.toFixed(2)} ms, parallel ${perParallelCall.toFixed(2)} ms`);
console.log(`targets: warm no-op p50 <= 10 ms, cold p50 <= 60 ms, <= 1 ms per bridge call`);
