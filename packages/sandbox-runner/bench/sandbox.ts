// `pnpm bench:sandbox`: figures of both sandbox engines on this machine, side by side. Prints tables; asserts
// nothing. Targets: QuickJS cold no-op p50 <= 5 ms, warm <= 1 ms, <= 0.1 ms per bridge call; the parent's
// event loop never blocked more than 20 ms at a time under the 50 x 1 MiB attack (both engines), and a
// concurrent benign run within 2x its idle latency during it.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createRunner, probeRuntime, type Bridge, type Runner } from '../src/index.js';
import { PACED_QUEUE_STATS } from '../src/internal/create-paced-queue.js';
import type { SandboxEngine } from '../src/types.js';
import { percentile } from '@tool-search/bench-stats';

const RUNS = 25;
/** Pause between warm runs so the pool has refilled: this measures a run served by a ready context or child. */
const REFILL_PAUSE_MS = 150;

const bridge: Bridge = {
  search: () => [{ id: 'mcp:bench:echo', score: 1 }],
  describe: (id) => ({ id }),
  call: (_id, args) => args,
};

const NO_OP = 'return null;';
const SEQUENTIAL = "for (let i = 0; i < 10; i += 1) await tools.call('mcp:bench:echo', { i }); return null;";
const BENIGN = 'return 6 * 7;';

/**
 * The at-cap attack's work inside the sandbox (the object built, serialised once per call) with small messages:
 * what is left of the figures when the parent has nothing large to parse.
 */
const BASELINE_SAME_WORK = `
  const big = {};
  const filler = 'x'.repeat(90);
  for (let index = 0; index < 9990; index += 1) big['k' + index] = filler;
  let total = 0;
  for (let call = 0; call < 50; call += 1) total += (await tools.search('q', { length: JSON.stringify(big).length })).length;
  return total;
`;
/** The red-team attack: 50 searches, each with ~1 MiB of options of 95,000 keys (the body catches refusals). */
const ATTACK_95K = `
  const big = {};
  for (let index = 0; index < 95000; index += 1) big['k' + index] = 0;
  let refused = 0;
  for (let call = 0; call < 50; call += 1) { try { await tools.search('q', big); } catch (error) { refused += 1; } }
  return refused;
`;
/** The worst that passes the caps: 50 searches of ~1 MiB options holding 9,990 members each. */
const ATTACK_AT_CAP = `
  const big = {};
  const filler = 'x'.repeat(90);
  for (let index = 0; index < 9990; index += 1) big['k' + index] = filler;
  let refused = 0;
  for (let call = 0; call < 50; call += 1) { try { await tools.search('q', big); } catch (error) { refused += 1; } }
  return refused;
`;

async function measure(runner: Runner, code: string, runs: number, pauseMs: number): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    if (pauseMs > 0) await sleep(pauseMs);
    const result = await runner.run({ code, bridge, timeoutMs: 20_000 });
    if (!result.ok) throw new Error(`bench run failed: ${result.error.code}: ${result.error.message}`);
    times.push(result.stats.wallTimeMs);
  }
  return times;
}

/** Runs `attack` while measuring the parent's longest event-loop block and a concurrent benign run's latency. */
async function measureAttack(
  engine: SandboxEngine,
  attack: string,
): Promise<{
  maxStallMs: number;
  p99StallMs: number;
  longestMessageMs: number;
  heavyMessageP50Ms: number;
  heavyMessages: number;
  benignP50: number;
  /** The same benign runs paced so that the pool keeps up (each is served by a ready child or context). */
  warmBenignP50: number;
  attackMs: number;
}> {
  const attacker = createRunner({ engine, pool: { size: 1 } });
  const benign = createRunner({ engine, pool: { size: 2 } });
  const warmBenign = createRunner({ engine, pool: { size: 2 } });
  await measure(attacker, NO_OP, 2, 0);
  await measure(benign, BENIGN, 3, REFILL_PAUSE_MS);
  await measure(warmBenign, BENIGN, 3, REFILL_PAUSE_MS);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  PACED_QUEUE_STATS.longestItemMs = 0;
  PACED_QUEUE_STATS.heavyItemMs.length = 0;
  const started = performance.now();
  let done = false;
  const attackRun = attacker.run({ code: attack, bridge, timeoutMs: 60_000 }).finally(() => (done = true));
  const benignTimes: number[] = [];
  const warmBenignTimes: number[] = [];
  const warmPaced = (async () => {
    while (!done) {
      await sleep(REFILL_PAUSE_MS);
      const result = await warmBenign.run({ code: BENIGN, bridge, timeoutMs: 20_000 });
      if (result.ok && !done) warmBenignTimes.push(result.stats.wallTimeMs);
    }
  })();
  while (!done) {
    const result = await benign.run({ code: BENIGN, bridge, timeoutMs: 20_000 });
    if (result.ok) benignTimes.push(result.stats.wallTimeMs);
    await sleep(20);
  }
  await warmPaced;
  const attackResult = await attackRun;
  const attackMs = performance.now() - started;
  histogram.disable();
  if (!attackResult.ok) throw new Error(`attack run failed: ${attackResult.error.code}: ${attackResult.error.message}`);
  await attacker.close();
  await benign.close();
  await warmBenign.close();
  return {
    maxStallMs: histogram.max / 1e6,
    p99StallMs: histogram.percentile(99) / 1e6,
    longestMessageMs: PACED_QUEUE_STATS.longestItemMs,
    heavyMessageP50Ms: percentile(PACED_QUEUE_STATS.heavyItemMs, 50),
    heavyMessages: PACED_QUEUE_STATS.heavyItemMs.length,
    benignP50: percentile(benignTimes, 50),
    warmBenignP50: percentile(warmBenignTimes, 50),
    attackMs,
  };
}

interface EngineFigures {
  label: string;
  cold: number[];
  warm: number[];
  sequential: number[];
  idleBenign: number[];
  baseline: Awaited<ReturnType<typeof measureAttack>>;
  attack95k: Awaited<ReturnType<typeof measureAttack>>;
  attackAtCap: Awaited<ReturnType<typeof measureAttack>>;
}

async function measureEngine(engine: SandboxEngine): Promise<EngineFigures> {
  const probe = await probeRuntime({ engine });
  if (!probe.ok) throw new Error(`no ${engine} engine: ${probe.reason}`);
  const coldRunner = createRunner({ engine, pool: { size: 0 } });
  // The first run of a runner starts its QuickJS worker: not a cold run of a context.
  await measure(coldRunner, NO_OP, 1, 0);
  const cold = await measure(coldRunner, NO_OP, engine === 'node' ? 12 : RUNS, 0);
  await coldRunner.close();
  const warmRunner = createRunner({ engine, pool: { size: 2 } });
  await sleep(1_500);
  const warm = await measure(warmRunner, NO_OP, RUNS, REFILL_PAUSE_MS);
  const sequential = await measure(warmRunner, SEQUENTIAL, RUNS, REFILL_PAUSE_MS);
  const idleBenign = await measure(warmRunner, BENIGN, RUNS, 20);
  await warmRunner.close();
  return {
    label: `${engine} (${probe.version}, ${probe.isolation})`,
    cold,
    warm,
    sequential,
    idleBenign,
    baseline: await measureAttack(engine, BASELINE_SAME_WORK),
    attack95k: await measureAttack(engine, ATTACK_95K),
    attackAtCap: await measureAttack(engine, ATTACK_AT_CAP),
  };
}

const format = (value: number) => value.toFixed(2).padStart(9);

/** Set in the process that measures one engine (see measureInOwnProcess). */
const ENGINE_VARIABLE = 'TOOL_SEARCH_BENCH_SANDBOX_ENGINE';

/**
 * Measures `engine` in a fresh process of its own. Measured one after the other in one process, the second
 * engine ran on the heap and the garbage collections the first one left: the 95k attack's loop-delay maximum of
 * whichever engine came second was 21–24 ms, of whichever came first 10–19 ms (five runs, three in one order and
 * two in the other).
 */
function measureInOwnProcess(engine: SandboxEngine): Promise<EngineFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      env: { ...process.env, [ENGINE_VARIABLE]: engine },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(JSON.parse(output) as EngineFigures);
      else reject(new Error(`measuring the ${engine} engine failed (exit ${code ?? signal})`));
    });
  });
}

const only = process.env[ENGINE_VARIABLE];
if (only === 'node' || only === 'quickjs') {
  process.stdout.write(JSON.stringify(await measureEngine(only)));
} else if (only !== undefined) {
  throw new Error(`${ENGINE_VARIABLE} must be node or quickjs, got ${JSON.stringify(only)}`);
} else {
  console.log(`host node ${process.version}, load average ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  printTable([await measureInOwnProcess('node'), await measureInOwnProcess('quickjs')]);
}

function printTable(figures: EngineFigures[]): void {
  console.log(figures.map((entry) => `engine ${entry.label}`).join('\n'));
  const rows: Array<[string, (entry: EngineFigures) => number]> = [
    ['cold no-op, p50 ms', (entry) => percentile(entry.cold, 50)],
    ['warm no-op, p50 ms', (entry) => percentile(entry.warm, 50)],
    ['warm no-op, p95 ms', (entry) => percentile(entry.warm, 95)],
    ['per bridge call, ms', (entry) => (percentile(entry.sequential, 50) - percentile(entry.warm, 50)) / 10],
    ['benign run idle, p50 ms', (entry) => percentile(entry.idleBenign, 50)],
    ['benign idle, warm-paced, p50 ms', (entry) => percentile(entry.warm, 50)],
    ['same work, small msgs: delay max ms', (entry) => entry.baseline.maxStallMs],
    ['same work, small msgs: delay p99 ms', (entry) => entry.baseline.p99StallMs],
    ['same work, small msgs: benign p50', (entry) => entry.baseline.benignP50],
    ['95k attack: longest message ms', (entry) => entry.attack95k.longestMessageMs],
    ['95k attack: loop delay max ms', (entry) => entry.attack95k.maxStallMs],
    ['95k attack: loop delay p99 ms', (entry) => entry.attack95k.p99StallMs],
    ['95k attack: benign p50 ms', (entry) => entry.attack95k.benignP50],
    ['95k attack: warm-paced benign ms', (entry) => entry.attack95k.warmBenignP50],
    ['at-cap attack: messages >= 1 ms', (entry) => entry.attackAtCap.heavyMessages],
    ['at-cap attack: such message p50 ms', (entry) => entry.attackAtCap.heavyMessageP50Ms],
    ['at-cap attack: longest message ms', (entry) => entry.attackAtCap.longestMessageMs],
    ['at-cap attack: loop delay max ms', (entry) => entry.attackAtCap.maxStallMs],
    ['at-cap attack: loop delay p99 ms', (entry) => entry.attackAtCap.p99StallMs],
    ['at-cap attack: benign p50 ms', (entry) => entry.attackAtCap.benignP50],
    ['at-cap attack: warm-paced benign ms', (entry) => entry.attackAtCap.warmBenignP50],
    ['at-cap attack: attack run ms', (entry) => entry.attackAtCap.attackMs],
  ];
  console.log(`\n| measure                              |      node |   quickjs |`);
  console.log(`|--------------------------------------|----------:|----------:|`);
  for (const [name, pick] of rows) console.log(`| ${name.padEnd(36)} |${figures.map((entry) => format(pick(entry))).join(' |')} |`);
  console.log('\n"longest message": the parent\'s own work on one sandbox message (parse and checks); "loop delay" also');
  console.log('counts GC and the OS scheduler, so on a loaded machine its max says more about the machine than the runner.');
  console.log('"benign": a `return 6 * 7` run every 20 ms on a pool of 2 (the Node pool cannot refill that fast, so many');
  console.log('of its runs are cold); "warm-paced": one every 150 ms on a second pool of 2, idle figure = the warm no-op.');
  console.log('targets: quickjs cold <= 5 ms, warm <= 1 ms, <= 0.1 ms per call; max loop stall <= 20 ms (both);');
  console.log('benign p50 during an attack <= 2x its idle p50 (both). Each engine is measured in a fresh process of its own.');
}
