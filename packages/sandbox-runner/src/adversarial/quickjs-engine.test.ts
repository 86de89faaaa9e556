// Adversarial suite, QuickJS engine only: what is particular to running a body in QuickJS compiled to
// WebAssembly on a worker thread (its stack, its memory, its interrupt handler, its instance reuse). The
// ordinary-body suites (realm, budgets) run against both engines; these drive the engine directly so that
// they can also see whether a worker was reused, terminated or had its WebAssembly instance replaced.
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQuickJsEngine, RELEASE_GRACE_MS, type QuickJsEngine } from '../internal/create-quickjs-engine.js';
import { executeRun } from '../internal/execute-run.js';
import { SANDBOX_NICE_INCREMENT } from '../internal/lower-thread-priority.js';
import { DEFAULT_LIMITS } from '../resolve-limits.js';
import type { Bridge } from '../types.js';
import { createDeferred, createRecordingBridge } from './fixtures/recording-bridge.js';
import { within } from './fixtures/within.js';
import { scaledTimeout } from '@tool-search/property-settings';

vi.setConfig({ testTimeout: scaledTimeout(30_000) });

let engine: QuickJsEngine | undefined;
afterEach(() => {
  engine?.close();
  engine = undefined;
});

function createEngine(): QuickJsEngine {
  engine = createQuickJsEngine({ limits: { ...DEFAULT_LIMITS }, logger: pino({ level: 'silent' }), idleWorkers: 1 });
  return engine;
}

async function runOn(quickjs: QuickJsEngine, code: string, options: { bridge?: Bridge; timeoutMs?: number } = {}) {
  const result = await executeRun({
    child: quickjs.lease(),
    code,
    bridge: options.bridge ?? createRecordingBridge().bridge,
    timeoutMs: options.timeoutMs ?? scaledTimeout(15_000),
    limits: { ...DEFAULT_LIMITS },
    warm: false,
    startedAt: performance.now(),
    logger: pino({ level: 'silent' }),
  });
  // The worker is given back once it has released the run's context.
  await vi.waitFor(() => expect(quickjs.stats.workersStarted - quickjs.stats.workersTerminated).toBeLessThanOrEqual(1), { timeout: scaledTimeout(5_000) });
  return result;
}

describe('QuickJS engine: stack', () => {
  it('ends unbounded JS recursion with a catchable InternalError, well over a thousand frames deep', async () => {
    const result = await runOn(createEngine(), 'let depth = 0; function dive() { depth += 1; dive(); } try { dive(); } catch (error) { return [error.name, error.message, depth > 1000]; }');
    expect(result).toMatchObject({ ok: true, value: ['InternalError', 'stack overflow', true] });
  });

  it('ends deep nesting inside QuickJS C code (JSON.parse of 100,000 open brackets) as an error, not a crash', async () => {
    const result = await runOn(createEngine(), "try { JSON.parse('['.repeat(100000) + ']'.repeat(100000)); return 'parsed'; } catch (error) { return error.name; }");
    expect(result).toMatchObject({ ok: true, value: 'SyntaxError' });
  });
});

describe('QuickJS engine: memory', () => {
  it('stops a memory bomb at its WebAssembly memory limit with a catchable out-of-memory error', async () => {
    const result = await runOn(createEngine(), "const hoard = []; try { for (;;) hoard.push(new Uint8Array(1024 * 1024)); } catch (error) { return [String(error), hoard.length < 100]; }");
    expect(result).toMatchObject({ ok: true, value: ['InternalError: out of memory', true] });
  });

  it('replaces a WebAssembly instance whose memory a run grew, in the same worker, and serves the next run', async () => {
    const quickjs = createEngine();
    expect(await runOn(quickjs, 'const hoard = []; for (let index = 0; index < 40; index += 1) hoard.push(new Uint8Array(1024 * 1024)); return hoard.length;')).toMatchObject({
      ok: true,
      value: 40,
    });
    expect(await runOn(quickjs, 'return 6 * 7;')).toMatchObject({ ok: true, value: 42 });
    expect(quickjs.stats).toEqual({ workersStarted: 1, workersTerminated: 0, instancesReplaced: 1 });
  });

  it('refuses a string past QuickJS limits as an error in the body (ropes make doubling cheap until then)', async () => {
    const result = await runOn(createEngine(), "let text = 'x'; try { for (;;) text += text; } catch (error) { return [String(error), text.length]; }");
    expect(result).toMatchObject({ ok: true, value: ['InternalError: string too long', 2 ** 29] });
  });
});

describe('QuickJS engine: interrupts', () => {
  it('interrupts a busy loop at the timeout and keeps the worker: the next run reuses it', async () => {
    const quickjs = createEngine();
    expect(await runOn(quickjs, 'for (;;) {}', { timeoutMs: 1_000 })).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(await runOn(quickjs, 'return 6 * 7;')).toMatchObject({ ok: true, value: 42 });
    expect(quickjs.stats).toMatchObject({ workersStarted: 1, workersTerminated: 0 });
  });

  it('ends a run parked on a pending bridge call at the timeout, aborts the handler, and drops its late reply', async () => {
    const quickjs = createEngine();
    const never = createDeferred<unknown>();
    const { bridge, calls } = createRecordingBridge({ call: () => never.promise });
    // The run must reach its bridge call before the timeout, which a loaded machine can delay: scale it.
    const result = await runOn(quickjs, "return await tools.call('mcp:slow:never', {});", { bridge, timeoutMs: scaledTimeout(1_000) });
    expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(calls.map((call) => call.signal.aborted)).toEqual([true]);
    never.resolve('too late');
    expect(await runOn(quickjs, "return await tools.describe('mcp:a:b');")).toMatchObject({ ok: true, value: { id: 'mcp:a:b' } });
    expect(quickjs.stats).toMatchObject({ workersStarted: 1, workersTerminated: 0 });
  });

  it('interrupts an endless microtask loop (jobs, not one long call) the same way', async () => {
    const quickjs = createEngine();
    expect(await runOn(quickjs, 'for (;;) await null;', { timeoutMs: 1_000 })).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(await runOn(quickjs, 'return 1;')).toMatchObject({ ok: true, value: 1 });
    expect(quickjs.stats).toMatchObject({ workersStarted: 1, workersTerminated: 0 });
  });
});

describe('QuickJS engine: a long native operation', () => {
  it('ends catastrophic regex backtracking at the timeout (its matcher polls the interrupt too), keeping the worker', async () => {
    const quickjs = createEngine();
    const result = await runOn(quickjs, "return /(a+)+$/.test('a'.repeat(40) + 'b');", { timeoutMs: 1_000 });
    expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(await runOn(quickjs, 'return 6 * 7;')).toMatchObject({ ok: true, value: 42 });
    expect(quickjs.stats).toMatchObject({ workersStarted: 1, workersTerminated: 0 });
  });
});

/** Each thread of this process and its nice value (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): Map<string, number> {
  const values = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      values.set(tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return values;
}

describe('QuickJS engine: CPU priority', () => {
  it("runs bodies on a worker thread below the host's priority, leaving the host's own threads as they were", async () => {
    const host = getPriority();
    const before = threadNiceValues();
    const quickjs = createEngine();
    expect(await runOn(quickjs, 'return 1;')).toMatchObject({ ok: true, value: 1 });
    // The idle worker stays (idleWorkers: 1): a new thread, lowered; every thread there before keeps its value.
    const after = threadNiceValues();
    const lowered = [...after].filter(([tid, nice]) => !before.has(tid) && nice === Math.min(19, host + SANDBOX_NICE_INCREMENT));
    expect(lowered.length).toBeGreaterThan(0);
    for (const [tid, nice] of before) if (after.has(tid)) expect({ tid, nice: after.get(tid) }).toEqual({ tid, nice });
    expect(getPriority()).toBe(host);
  });
});

describe('QuickJS engine: no host object inside the context', () => {
  it('gives the body nothing of the worker: no require, process, WebAssembly, Atomics or worker globals', async () => {
    const result = await runOn(
      createEngine(),
      'return [typeof require, typeof process, typeof WebAssembly, typeof Atomics, typeof postMessage, typeof self, typeof importScripts, typeof writeChannel];',
    );
    expect(result).toMatchObject({ ok: true, value: Array.from({ length: 8 }, () => 'undefined') });
  });
});

describe('QuickJS engine: a body that closes its function early (its script is evaluated once, in its own context)', () => {
  it.each([
    [
      'even from queued jobs',
      "return 1; }); console.log('top'); tools.search('top level'); Promise.resolve().then(() => { console.log('job'); tools.call('mcp:a:b', {}); }); (async function (tools, console) {",
      'closes its function early',
    ],
    [
      // The worker reads what the top level threw (QuickJS's dump of it), which runs its toJSON.
      'even from the toJSON of a value it throws',
      "}); throw { toJSON() { console.log('from toJSON'); tools.search('from toJSON'); return { name: 'SyntaxError', message: 'forged' }; } }; (async function (tools, console) {",
      'SyntaxError: forged',
    ],
  ])('lets nothing its top level did leave (no log line, no call, no result), %s', async (_, code, message) => {
    const { bridge, calls } = createRecordingBridge();
    const result = await runOn(createEngine(), code, { bridge });
    expect(result).toMatchObject({ ok: false, error: { code: 'syntax', message: expect.stringContaining(message) } });
    expect(result.logs).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('is not fooled by a top level that replaces Function.prototype.toString to return the whole wrapper', async () => {
    // A quine: the top level rebuilds the body's exact wrapper text, so the patched toString would pass a check
    // that looked it up after the script ran (checked in plain Node: it returns the wrapper).
    const template =
      "}); const T = @; const code = T.replace('@', JSON.stringify(T)); Function.prototype.toString = function () { return 'async function (tools, console) {\\n' + code + '\\n}'; }; tools.search('after the patch'); (async function (tools, console) {";
    const code = template.replace('@', JSON.stringify(template));
    const { bridge, calls } = createRecordingBridge();
    const result = await runOn(createEngine(), code, { bridge });
    expect(result).toMatchObject({ ok: false, error: { code: 'syntax', message: expect.stringContaining('closes its function early') } });
    expect(calls).toEqual([]);
  });

  it('reports a top level that throws as the early close it is, and keeps the worker for a clean next run', async () => {
    const quickjs = createEngine();
    const early = await runOn(quickjs, "}); Object.prototype.poisoned = true; throw new Error('from the top level'); (function () {");
    expect(early).toMatchObject({ ok: false, error: { code: 'syntax', message: expect.stringContaining('closes its function early') } });
    // The next run gets a fresh context: nothing the top level changed is there.
    expect(await runOn(quickjs, 'return ({}).poisoned === undefined;')).toMatchObject({ ok: true, value: true });
    expect(quickjs.stats.workersStarted).toBe(1);
  });

  it('still reports a plain syntax error with the parser message', async () => {
    const result = await runOn(createEngine(), 'return (;');
    expect(result).toMatchObject({ ok: false, error: { code: 'syntax', message: expect.stringMatching(/SyntaxError/) } });
  });
});

describe('QuickJS engine: a lease ended while its worker was still starting', () => {
  it('gives the worker back once, with no stray release left to end the next lease of that worker', async () => {
    for (let round = 0; round < 3; round += 1) {
      // A fresh engine each round, so that the first lease's worker is a new one.
      engine?.close();
      const quickjs = createEngine();
      const early = quickjs.lease();
      // The lease holds its worker from the turn after the worker was created until the worker has started.
      while (quickjs.stats.workersStarted === 0) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      early.kill();
      await within(early.exited, 'the killed lease to end');
      const next = quickjs.lease();
      expect(await within(next.ready, 'the next lease to be ready')).toMatchObject({ ok: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(next.hasExited).toBe(false);
      expect(quickjs.stats).toMatchObject({ workersStarted: 1, workersTerminated: 0 });
      next.kill();
      await within(next.exited, 'the next lease to end');
    }
  });

  it('waits for the worker however long it takes to start: the release grace is for a context, which a starting worker holds none of', async () => {
    const quickjs = createEngine();
    const early = quickjs.lease();
    while (quickjs.stats.workersStarted === 0) await new Promise((resolve) => setImmediate(resolve));
    // Only timers are faked, so that the grace passes while the worker is still starting, as it does when a
    // loaded machine gives the worker's warm-up (at the sandbox's lowered priority) little CPU.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      early.kill();
      vi.advanceTimersByTime(RELEASE_GRACE_MS * 2);
      expect(quickjs.stats).toMatchObject({ workersStarted: 1, workersTerminated: 0 });
    } finally {
      vi.useRealTimers();
    }
    const next = quickjs.lease();
    await within(early.exited, 'the killed lease to end', scaledTimeout(15_000));
    expect(await within(next.ready, 'the next lease to be ready', scaledTimeout(15_000))).toMatchObject({ ok: true });
    expect(quickjs.stats).toMatchObject({ workersStarted: 1, workersTerminated: 0 });
    next.kill();
    await within(next.exited, 'the next lease to end', scaledTimeout(15_000));
  });
});

describe('QuickJS engine: replies to bridge calls', () => {
  it('settles each of several calls in flight with its own reply when the replies come back in reverse order', async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const { bridge } = createRecordingBridge({
      call: async (_id, args) => {
        const n = (args as { n: number }).n;
        await sleep((5 - n) * 15);
        return { n, squared: n * n };
      },
    });
    const result = await runOn(
      createEngine(),
      "const order = []; const all = await Promise.all([0, 1, 2, 3, 4].map(async (n) => { const got = await tools.call('mcp:a:b', { n }); order.push(got.n); return got.squared; })); return { all, order };",
      { bridge },
    );
    expect(result).toMatchObject({ ok: true, value: { all: [0, 1, 4, 9, 16], order: [4, 3, 2, 1, 0] } });
  });

  it('never lets a reply left for a killed run reach the next run of the same worker (whose call ids start at 1 again)', async () => {
    const quickjs = createEngine();
    for (let round = 0; round < 5; round += 1) {
      // The first run's body makes call 1, gets its reply, then spins; a reply to a call 2 it never made waits
      // on the port while it spins, and the run is killed with it still there.
      const first = quickjs.lease();
      const sawCall = createDeferred<number>();
      const sawStarted = createDeferred<undefined>();
      first.attach({
        onMessage(message) {
          if (message.type === 'started') sawStarted.resolve(undefined);
          if (message.type === 'call') sawCall.resolve(message.id);
        },
        onProtocolError() {},
        onOutput() {},
        onExit() {},
      });
      expect(await within(first.ready, 'the first lease to be ready')).toMatchObject({ ok: true });
      first.send({ type: 'run', code: "await tools.call('mcp:a:b', {}); for (;;) {}" });
      const id = await within(sawCall.promise, 'the first run to make its call');
      first.send({ type: 'reply', id, ok: true, json: '"first"' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      first.send({ type: 'reply', id: 2, ok: true, json: '"stale"' });
      first.kill();
      await within(first.exited, 'the first lease to end');
      // The next run on the same worker makes calls 1 and 2 and must see its own replies only.
      const { bridge } = createRecordingBridge({ call: async (_id, args) => `own ${(args as { n: number }).n}` });
      const next = await runOn(quickjs, "const one = await tools.call('mcp:a:b', { n: 1 }); const two = await tools.call('mcp:a:b', { n: 2 }); return [one, two];", { bridge });
      expect(next).toMatchObject({ ok: true, value: ['own 1', 'own 2'] });
    }
    expect(quickjs.stats).toMatchObject({ workersStarted: 1, workersTerminated: 0 });
  });

  it('ends the thread of a worker whose run waits on a call when the engine closes', async () => {
    const quickjs = createEngine();
    const never = createDeferred<unknown>();
    const { bridge, calls } = createRecordingBridge({ call: () => never.promise });
    const child = quickjs.lease();
    const running = executeRun({
      child,
      code: "return await tools.call('mcp:slow:never', {});",
      bridge,
      timeoutMs: 30_000,
      limits: { ...DEFAULT_LIMITS },
      warm: false,
      startedAt: performance.now(),
      logger: pino({ level: 'silent' }),
    });
    // A new worker starts (its warm-up at the sandbox's lowered priority) before the run reaches its call.
    await vi.waitFor(() => expect(calls).toHaveLength(1), { timeout: scaledTimeout(15_000) });
    // The worker now waits for the reply; terminating it must not wait for the run's 30 s.
    const closedAt = performance.now();
    quickjs.close();
    await within(child.exited, 'the waiting worker to end', 5_000);
    expect(performance.now() - closedAt).toBeLessThan(5_000);
    expect(await within(running, 'the run to end', 5_000)).toMatchObject({ ok: false, error: { code: 'crashed' } });
  });
});
