// The process's QuickJS tier-up (module state: each case imports the engine afresh).
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { within } from '../adversarial/fixtures/within.js';
import { DEFAULT_LIMITS } from '../resolve-limits.js';
import type { Bridge } from '../types.js';
import { TIER_UP_QUIET_MS } from './start-quickjs-tier-up.js';
import { scaledTimeout } from '@tool-search/property-settings';

vi.setConfig({ testTimeout: scaledTimeout(60_000) });

const bridge: Bridge = { search: () => [], describe: (id) => ({ id }), call: (_id, args) => args };
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A fresh copy of the engine and tier-up modules (their state is the process's), and a run on a new engine. */
async function freshModules() {
  vi.resetModules();
  const engineModule = await import('./create-quickjs-engine.js');
  const tierUpModule = await import('./start-quickjs-tier-up.js');
  const { executeRun } = await import('./execute-run.js');
  const newEngine = () => {
    const engine = engineModule.createQuickJsEngine({ limits: { ...DEFAULT_LIMITS }, logger: pino({ level: 'silent' }), idleWorkers: 1 });
    closers.push(() => engine.close());
    return engine;
  };
  const runOn = (engine: ReturnType<typeof newEngine>, code: string, runBridge: Bridge = bridge) =>
    within(
      executeRun({
        child: engine.lease(),
        code,
        bridge: runBridge,
        timeoutMs: 20_000,
        limits: { ...DEFAULT_LIMITS },
        warm: false,
        startedAt: performance.now(),
        logger: pino({ level: 'silent' }),
      }),
      'the run to end',
    );
  return { newEngine, runOn, tierUp: tierUpModule.quickJsTierUp };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (bounded) until `condition` holds. */
const until = (condition: () => boolean, what: string, ms?: number) =>
  within(
    (async () => {
      while (!condition()) await sleep(10);
    })(),
    what,
    ms,
  );

/**
 * How long a whole tier-up may take here: ~0.3 s of CPU, but at nice 19, where a machine busy with other work
 * leaves it about 1% of a core (four busy loops on two cores: 35-41 s).
 */
const TIER_UP_END_MS = 45_000;

describe('QuickJS engine: the process tier-up', () => {
  it('starts once the engine has been quiet, ends by itself, and is not started again', async () => {
    const { newEngine, runOn, tierUp } = await freshModules();
    expect(tierUp()).toMatchObject({ state: 'idle', started: 0 });
    const first = newEngine();
    expect(await runOn(first, "return await tools.call('mcp:a:b', { n: 1 });")).toMatchObject({ ok: true, value: { n: 1 } });
    await until(() => tierUp().state === 'done', 'the tier-up to end', TIER_UP_END_MS);
    expect(tierUp().started).toBe(1);
    await within(tierUp().exited!, "the tier-up worker's thread to end");
    // Another engine of the same process finds the code tiered up: nothing starts again, and it runs as before.
    const second = newEngine();
    expect(await runOn(second, "return await tools.describe('mcp:a:b');")).toMatchObject({ ok: true, value: { id: 'mcp:a:b' } });
    await sleep(2 * TIER_UP_QUIET_MS);
    expect(tierUp()).toMatchObject({ state: 'done', started: 1 });
    // It never counted as one of the engines' workers.
    expect(first.stats.workersStarted + second.stats.workersStarted).toBe(2);
  });

  it('waits while the engine keeps leasing', async () => {
    const { newEngine, runOn, tierUp } = await freshModules();
    const busy = newEngine();
    expect(await runOn(busy, 'return 1;')).toMatchObject({ ok: true, value: 1 });
    // A lease every 20 ms for four quiet periods: the engine is never quiet for long enough.
    const started = performance.now();
    let lastLeaseAt = started;
    while (performance.now() - started < 4 * TIER_UP_QUIET_MS) {
      lastLeaseAt = performance.now();
      const child = busy.lease();
      await sleep(20);
      child.kill();
    }
    expect(tierUp()).toMatchObject({ state: 'idle', started: 0 });
    await until(() => tierUp().state !== 'idle', 'the tier-up to start once the leases stop');
    // (Less a millisecond: the timer and performance.now() round differently.)
    expect(performance.now() - lastLeaseAt).toBeGreaterThanOrEqual(TIER_UP_QUIET_MS - 1);
  });

  it('waits while a run is in progress, however long ago its lease was', async () => {
    const { newEngine, runOn, tierUp } = await freshModules();
    const engine = newEngine();
    let callEndedAt = 0;
    let stateDuringCall: string | undefined;
    const slowBridge: Bridge = {
      ...bridge,
      call: async (_id, args) => {
        await sleep(3 * TIER_UP_QUIET_MS);
        stateDuringCall = tierUp().state;
        callEndedAt = performance.now();
        return args;
      },
    };
    const result = await runOn(engine, "return await tools.call('mcp:a:b', { slow: true });", slowBridge);
    expect(result).toMatchObject({ ok: true, value: { slow: true } });
    expect(stateDuringCall).toBe('idle');
    await until(() => tierUp().state !== 'idle', 'the tier-up to start once the run has ended');
    expect(performance.now() - callEndedAt).toBeGreaterThanOrEqual(TIER_UP_QUIET_MS - 1);
  });

  it("is stopped by the close of the engine that started it, and the next engine starts it again", async () => {
    const { newEngine, runOn, tierUp } = await freshModules();
    const first = newEngine();
    expect(await runOn(first, 'return 1;')).toMatchObject({ ok: true, value: 1 });
    // Ten contexts of a hundred calls keep the tier-up going far longer than the check below takes.
    await until(() => tierUp().state === 'running', 'the tier-up to start');
    const stopped = tierUp().exited!;
    first.close();
    expect(tierUp()).toMatchObject({ state: 'idle', started: 1 });
    await within(stopped, "the stopped tier-up worker's thread to end");
    const second = newEngine();
    expect(await runOn(second, 'return 2;')).toMatchObject({ ok: true, value: 2 });
    await until(() => tierUp().state === 'running', 'the tier-up to start again');
    // An engine that did not start it leaves it alone when it closes.
    const bystander = newEngine();
    bystander.close();
    expect(tierUp()).toMatchObject({ state: 'running', started: 2 });
  });

  it.each([
    ['throws', "throw new Error('the tier-up failed');"],
    ['exits before it is done', 'process.exit(3);'],
  ])('is not tried again after its worker %s, and the failure stays in the worker', async (_how, source) => {
    vi.resetModules();
    const { quickJsTierUp, startQuickJsTierUp } = await import('./start-quickjs-tier-up.js');
    const owner = {};
    startQuickJsTierUp(owner, source, () => ({ eval: true, stdout: true, stderr: true }));
    expect(quickJsTierUp()).toMatchObject({ state: 'running', started: 1 });
    await within(quickJsTierUp().exited!, "the failed tier-up worker's thread to end");
    expect(quickJsTierUp()).toMatchObject({ state: 'done', started: 1 });
    startQuickJsTierUp(owner, 'unused', () => ({ eval: true }));
    expect(quickJsTierUp()).toMatchObject({ state: 'done', started: 1 });
  });

  it('is never started by an engine closed before it was quiet', async () => {
    const { newEngine, runOn, tierUp } = await freshModules();
    const engine = newEngine();
    expect(await runOn(engine, 'return 1;')).toMatchObject({ ok: true, value: 1 });
    engine.close();
    await sleep(3 * TIER_UP_QUIET_MS);
    expect(tierUp()).toMatchObject({ state: 'idle', started: 0 });
  });
});
