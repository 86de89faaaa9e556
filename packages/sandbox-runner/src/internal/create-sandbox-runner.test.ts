// A child that dies before it starts the body is replaced (no model code ran in it); one that dies after is
// `crashed` and the body is never run twice. Real children, found and killed from the host through /proc.
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findSandboxNodePids, isDeadOrGone } from '../adversarial/fixtures/host-process-inspection.js';
import { createRecordingBridge, createDeferred } from '../adversarial/fixtures/recording-bridge.js';
import { signalAbortedAfter, unexpectedEnd, type MixedBody } from '../adversarial/fixtures/run-mix.js';
import { createSeededRandom, pickWith } from '../adversarial/fixtures/seeded-random.js';
import { within } from '../adversarial/fixtures/within.js';
import type { Runner } from '../types.js';
import { createSandboxRunner } from './create-sandbox-runner.js';
import { scaledTimeout } from '@tool-search/property-settings';

// Real children on a shared 2-core machine: generous budgets, never timed assertions.
vi.setConfig({ testTimeout: scaledTimeout(30_000) });

const RETRY_MESSAGE = 'sandbox child died before starting the body; retrying on a fresh child';

/** A runner whose warn-level log records are kept, so a test can see whether a run was moved to a fresh child. */
function createObservedRunner(poolSize: number) {
  const records: Array<{ msg: string; reason?: string }> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') records.push(JSON.parse(line) as { msg: string });
      done();
    },
  });
  const runner = createSandboxRunner({ pool: { size: poolSize }, logger: pino({ level: 'warn' }, destination) }, { escapedForTests: false });
  return { runner, retries: () => records.filter((record) => record.msg === RETRY_MESSAGE) };
}

/** The process group of a pid (field 5 of /proc/<pid>/stat): the spawned wrapper's pid, as children are detached. */
function readProcessGroup(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

/** Live sandbox Node processes this test process spawned (namespaced ones included: /proc shows host pids). */
function liveSandboxPids(): number[] {
  return findSandboxNodePids(process.pid).filter((pid) => !isDeadOrGone(pid));
}

let runner: Runner | undefined;
afterEach(async () => {
  await runner?.close();
  runner = undefined;
  // close() kills the children it holds without waiting for them to exit, and the next test counts the live
  // ones (a previous test's child still dying was taken for this run's second child once, under a CI's load).
  await vi.waitFor(() => expect(liveSandboxPids()).toEqual([]), { timeout: 10_000, interval: 20 });
});

describe('createSandboxRunner: a child that dies before it starts the body', () => {
  it('moves the run to a fresh child when the pooled child it was handed had been SIGKILLed while idle', async () => {
    const observed = createObservedRunner(1);
    runner = observed.runner;
    // A first run: the probe is done and the pool's first child is used; its pids are noted while it runs.
    const busyPids: number[] = [];
    const first = createRecordingBridge({
      call: async () => {
        busyPids.push(...liveSandboxPids());
        return 1;
      },
    });
    expect(await runner.run({ code: "return await tools.call('mcp:a:b', {});", bridge: first.bridge, timeoutMs: 15_000 })).toMatchObject({
      ok: true,
      value: 1,
    });
    expect(busyPids).toHaveLength(1);
    // The pool refills after the run: wait for its new idle child.
    const idlePid = await vi.waitFor(
      () => {
        const fresh = liveSandboxPids().filter((pid) => !busyPids.includes(pid));
        expect(fresh).toHaveLength(1);
        return fresh[0] as number;
      },
      { timeout: 20_000, interval: 20 },
    );
    const idleGroup = readProcessGroup(idlePid);
    // SIGKILL the idle child's whole process group, then run at once: no event-loop turn passes, so the pool has
    // not seen the death and hands the dead child out.
    process.kill(-idleGroup, 'SIGKILL');
    const { bridge, calls } = createRecordingBridge();
    const result = await runner.run({ code: "return await tools.call('mcp:a:b', { n: 2 });", bridge, timeoutMs: 15_000 });
    expect(result).toMatchObject({ ok: true, value: { echo: { n: 2 } }, stats: { warm: false, calls: { call: 1 } } });
    expect(calls).toHaveLength(1);
    expect(observed.retries()).toHaveLength(1);
    expect(isDeadOrGone(idlePid)).toBe(true);
    // The pool recovers: the next run is served normally.
    expect(await runner.run({ code: 'return 3;', bridge, timeoutMs: 15_000 })).toMatchObject({ ok: true, value: 3 });
    expect(observed.retries()).toHaveLength(1);
  });

  it('still reports crashed, and ran the body once, when the child is SIGKILLed after the body started', async () => {
    const observed = createObservedRunner(1);
    runner = observed.runner;
    const killed = createDeferred<number[]>();
    let callCount = 0;
    const { bridge } = createRecordingBridge({
      call: () => {
        callCount += 1;
        // The pool (size 1) refills only after a run ends, so the only live sandbox child is this run's.
        const pids = liveSandboxPids();
        if (pids.length === 1) process.kill(-readProcessGroup(pids[0] as number), 'SIGKILL');
        killed.resolve(pids);
        return new Promise(() => {});
      },
    });
    const result = await runner.run({ code: "await tools.call('mcp:side:effect', {}); return 'unreachable';", bridge, timeoutMs: 15_000 });
    expect(await killed.promise).toHaveLength(1);
    expect(result).toMatchObject({ ok: false, error: { code: 'crashed', message: expect.stringContaining('SIGKILL') }, stats: { calls: { call: 1 } } });
    expect(callCount).toBe(1);
    expect(observed.retries()).toEqual([]);
  });
});

describe('createSandboxRunner: a random mix of runs and aborts, then a close with runs in flight', () => {
  // Bodies and how each ends when nothing stops it.
  const bodies: ReadonlyArray<MixedBody> = [
    { code: 'return 1;', value: 1 },
    { code: "return (await tools.call('mcp:a:b', { n: 2 })).n;", value: 2 },
    { code: 'for (;;) {}', error: 'timeout', timeoutMs: 60 },
    { code: 'let total = 0; for (let i = 0; i < 100000; i += 1) total += i; return total;', value: 4_999_950_000 },
  ];
  const delaysMs: ReadonlyArray<number | undefined> = [undefined, undefined, 0, 2, 10, 40];
  const bridge = createRecordingBridge({ call: (_id, args) => Promise.resolve(args) }).bridge;

  it.each([
    ['quickjs', 1],
    ['quickjs', 2],
    ['node', 3],
  ] as const)('ends every run as it should on %s (seed %i), and leaves nothing running after the close', async (engine, seed) => {
    const random = createSeededRandom(seed);
    const pick = <T>(items: ReadonlyArray<T>): T => pickWith(random, items);
    const mixed = createSandboxRunner({ engine, pool: { size: 2 } }, { escapedForTests: false });
    runner = mixed;
    const problems: string[] = [];
    async function runOnce(label: string, closing: boolean): Promise<void> {
      const body = pick(bodies);
      const abortAfterMs = pick(delaysMs);
      const result = await within(
        mixed.run({ code: body.code, bridge, timeoutMs: body.timeoutMs ?? 10_000, signal: signalAbortedAfter(abortAfterMs) }),
        `${label} to end`,
      );
      const problem = unexpectedEnd(body, result, abortAfterMs !== undefined || closing);
      if (problem !== undefined) problems.push(`${label}: ${problem}`);
    }
    const batches = engine === 'node' ? 4 : 10;
    for (let batch = 0; batch < batches; batch += 1) {
      const width = 1 + Math.floor(random() * 3);
      await Promise.all(Array.from({ length: width }, (_, slot) => runOnce(`${engine} seed ${seed}, batch ${batch}, slot ${slot}`, false)));
    }
    // A close while runs are in flight ends them as aborted (or lets them finish), and kills what is left.
    const inFlight = Array.from({ length: 3 }, (_, slot) => runOnce(`${engine} seed ${seed}, at the close, slot ${slot}`, true));
    await new Promise((resolve) => setTimeout(resolve, pick([0, 5, 20])));
    await within(mixed.close(), 'the runner to close');
    await Promise.all(inFlight);
    expect(problems).toEqual([]);
    if (engine === 'node') await vi.waitFor(() => expect(liveSandboxPids()).toEqual([]), { timeout: 5_000, interval: 20 });
  });
});
