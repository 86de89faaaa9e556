// The QuickJS engine's lease lifecycle under a seeded random mix of runs, aborts at every stage and bare leases
// killed at random moments, a few at a time on one engine: every run must end as it should, and every worker
// must be accounted for when the engine closes. (The adversarial suite holds what a body can do; this holds the
// engine's own bookkeeping: leases, releases, reused and replaced workers.)
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signalAbortedAfter, unexpectedEnd, type MixedBody } from '../adversarial/fixtures/run-mix.js';
import { createSeededRandom, pickWith } from '../adversarial/fixtures/seeded-random.js';
import { within } from '../adversarial/fixtures/within.js';
import { DEFAULT_LIMITS } from '../resolve-limits.js';
import type { Bridge, RunResult } from '../types.js';
import { createQuickJsEngine, type QuickJsEngine } from './create-quickjs-engine.js';
import { executeRun } from './execute-run.js';
import { scaledTimeout } from '@tool-search/property-settings';

// Each case runs dozens of leases on a shared 2-core machine; a hung lease is reported by `within` first.
vi.setConfig({ testTimeout: scaledTimeout(60_000) });

let engine: QuickJsEngine | undefined;
afterEach(() => {
  engine?.close();
  engine = undefined;
});

const bridge: Bridge = {
  search: () => [{ id: 'mcp:a:b', score: 1 }],
  describe: (id) => ({ id }),
  call: (_id, args) => args,
};

/** Bodies, and how each ends when nothing stops it: the value it returns, or the error code it ends with. */
const BODIES: ReadonlyArray<MixedBody> = [
  { code: 'return 1;', value: 1 },
  { code: "return await tools.describe('mcp:a:b');", value: { id: 'mcp:a:b' } },
  { code: "const seen = []; for (let i = 0; i < 3; i += 1) seen.push((await tools.call('mcp:a:b', { i })).i); return seen;", value: [0, 1, 2] },
  { code: 'let total = 0; for (let i = 0; i < 200000; i += 1) total += i; return total;', value: 19_999_900_000 },
  { code: "console.log('a line'); return 'logged';", value: 'logged' },
  // Interrupted at its timeout: the worker stops the body and gives its context back.
  { code: 'for (;;) {}', error: 'timeout', timeoutMs: 40 },
  // Grows the WebAssembly memory past the size at which the instance is replaced after the run.
  { code: "const kept = []; for (let i = 0; i < 40; i += 1) kept.push('x'.repeat(1 << 20) + i); return kept.length;", value: 40 },
];

const GROWS_MEMORY = BODIES[BODIES.length - 1];

/** When an abort or a kill comes: never, at once, or after a few milliseconds. */
const DELAYS_MS: ReadonlyArray<number | undefined> = [undefined, 0, 1, 3, 10, 30];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One run on a fresh lease, aborted after `abortAfterMs` if given: what went wrong, if anything, and whether it grew the memory. */
async function runOnce(
  quickjs: QuickJsEngine,
  body: MixedBody,
  abortAfterMs: number | undefined,
  label: string,
): Promise<{ problem: string | undefined; grewMemory: boolean }> {
  const result: RunResult = await within(
    executeRun({
      child: quickjs.lease(),
      code: body.code,
      bridge,
      timeoutMs: body.timeoutMs ?? 10_000,
      signal: signalAbortedAfter(abortAfterMs),
      limits: { ...DEFAULT_LIMITS },
      warm: false,
      startedAt: performance.now(),
      logger: pino({ level: 'silent' }),
    }),
    `${label} to end`,
  );
  const problem = unexpectedEnd(body, result, abortAfterMs !== undefined);
  return { problem: problem === undefined ? undefined : `${label}: ${problem}`, grewMemory: result.ok && body === GROWS_MEMORY };
}

/** A lease that is never run, killed after `killAfterMs` (at once when undefined). */
async function leaseAndKill(quickjs: QuickJsEngine, killAfterMs: number | undefined, label: string): Promise<{ problem: undefined; grewMemory: false }> {
  const child = quickjs.lease();
  if (killAfterMs !== undefined && killAfterMs > 0) await sleep(killAfterMs);
  child.kill();
  await within(child.exited, `${label} to end`);
  return { problem: undefined, grewMemory: false };
}

describe('QuickJS engine: leases under a random mix of runs, aborts and kills', () => {
  it.each([1, 2, 3, 4])('ends every run as it should and accounts for every worker (seed %i)', async (seed) => {
    const random = createSeededRandom(seed);
    const pick = <T>(items: ReadonlyArray<T>): T => pickWith(random, items);
    const quickjs = createQuickJsEngine({ limits: { ...DEFAULT_LIMITS }, logger: pino({ level: 'silent' }), idleWorkers: 2 });
    engine = quickjs;
    const problems: string[] = [];
    // Runs of `GROWS_MEMORY` that ended with their value: each leaves an instance to replace.
    let grownRuns = 0;
    for (let batch = 0; batch < 12; batch += 1) {
      const width = 1 + Math.floor(random() * 4);
      const operations: Array<Promise<{ problem: string | undefined; grewMemory: boolean }>> = [];
      for (let slot = 0; slot < width; slot += 1) {
        const label = `seed ${seed}, batch ${batch}, slot ${slot}`;
        if (random() < 0.25) operations.push(leaseAndKill(quickjs, pick(DELAYS_MS), `${label} (bare lease)`));
        else operations.push(runOnce(quickjs, pick(BODIES), pick(DELAYS_MS), label));
      }
      for (const { problem, grewMemory } of await Promise.all(operations)) {
        if (problem !== undefined) problems.push(problem);
        if (grewMemory) grownRuns += 1;
      }
    }
    // After the mix, the engine still serves a plain run, and holds no more workers than it keeps idle.
    expect((await runOnce(quickjs, BODIES[2]!, undefined, `seed ${seed}, final run`)).problem).toBeUndefined();
    expect(problems).toEqual([]);
    await within(
      (async () => {
        while (quickjs.stats.workersStarted - quickjs.stats.workersTerminated > 2) await sleep(10);
      })(),
      'the engine to be down to its idle workers',
    );
    expect(quickjs.stats.instancesReplaced).toBeGreaterThanOrEqual(grownRuns);
  });
});
