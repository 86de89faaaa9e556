// Adversarial suite, budgets: CPU, memory, output, result size, tool-call count and concurrency, and the
// wall-clock timeout. Each breach must kill the child and report its code; nothing is truncated and carried on.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRunner } from '../index.js';
import { ENGINES, perEngine } from './fixtures/engines.js';
import { createDeferred, createRecordingBridge } from './fixtures/recording-bridge.js';
import { scaledTimeout } from '@tool-search/property-settings';

// Each case spawns real children on a shared 2-core machine: generous per-test budgets, never timed assertions.
vi.setConfig({ testTimeout: scaledTimeout(30_000), hookTimeout: scaledTimeout(30_000) });

describe.each(ENGINES)('budgets (%s engine)', (engine) => {
  // Default limits throughout: the suite proves the shipped defaults hold (64 MB heap, 1 MiB output, 200 log
  // lines of at most 8 KiB, 1 MiB result, 50 tool calls, 16 in flight). Timeouts are short to keep it quick.
  const runner = createRunner({ engine, pool: { size: 1 } });
  afterAll(async () => {
    await runner.close();
  });

  const SHORT_TIMEOUT_MS = 1_000;
  // For timeouts that must first let the body reach a bridge call (a cold child on a loaded machine included).
  const REACH_THEN_TIME_OUT_MS = 4_000;

  describe('budgets: time', () => {
    it('kills a synchronous while(true) at the timeout', async () => {
      const { bridge } = createRecordingBridge();
      const result = await runner.run({ code: 'while (true) {}', bridge, timeoutMs: SHORT_TIMEOUT_MS });
      expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
    });

    it('kills an endless microtask loop (for(;;) await null) at the timeout', async () => {
      const { bridge } = createRecordingBridge();
      const result = await runner.run({ code: 'for (;;) await null;', bridge, timeoutMs: SHORT_TIMEOUT_MS });
      expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
    });

    it('kills a thread parked in Atomics.wait at the timeout (QuickJS has no Atomics)', async () => {
      const { bridge } = createRecordingBridge();
      const result = await runner.run({
        code: 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return "woke";',
        bridge,
        timeoutMs: SHORT_TIMEOUT_MS,
      });
      expect(result.ok ? 'ok' : result.error).toEqual(
        perEngine(engine, {
          node: { code: 'timeout', message: `the run exceeded its ${SHORT_TIMEOUT_MS} ms timeout` },
          quickjs: { code: 'runtime', message: "ReferenceError: 'Atomics' is not defined" },
        }),
      );
    });

    it('times out a run whose handler never resolves, and aborts that handler signal', async () => {
      const never = createDeferred();
      const { bridge, calls } = createRecordingBridge({ call: () => never.promise });
      const result = await runner.run({
        code: "return await tools.call('mcp:slow:never', {});",
        bridge,
        timeoutMs: REACH_THEN_TIME_OUT_MS,
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
      expect(calls).toHaveLength(1);
      expect(calls[0]?.signal.aborted).toBe(true);
    });

    it('reports aborted when the caller aborts, and aborts the in-flight handler signal', async () => {
      const handlerEntered = createDeferred();
      const never = createDeferred();
      const { bridge, calls } = createRecordingBridge({
        call: () => {
          handlerEntered.resolve(undefined);
          return never.promise;
        },
      });
      const controller = new AbortController();
      const pending = runner.run({
        code: "return await tools.call('mcp:slow:never', {});",
        bridge,
        timeoutMs: 10_000,
        signal: controller.signal,
      });
      await handlerEntered.promise;
      controller.abort();
      const result = await pending;
      expect(result).toMatchObject({ ok: false, error: { code: 'aborted' } });
      expect(calls[0]?.signal.aborted).toBe(true);
    });

    it('reports aborted for a signal aborted before the run, without calling any handler', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runner.run({
        code: "return await tools.search('never sent');",
        bridge,
        timeoutMs: 15_000,
        signal: AbortSignal.abort(),
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'aborted' } });
      expect(calls).toEqual([]);
    });
  });

  describe('budgets: memory', () => {
    it('stops a heap bomb at the heap limit, well before the timeout', async () => {
      const { bridge } = createRecordingBridge();
      const result = await runner.run({
        code: 'const hoard = []; for (;;) hoard.push(new Array(1e5).fill({ k: 1 }));',
        bridge,
        // Filling the heap takes CPU a loaded machine may not give: the run's own timeout scales with the test's.
        timeoutMs: scaledTimeout(20_000),
      });
      // V8 aborts the Node child at its heap limit; QuickJS throws out of memory in the body, and its context
      // is thrown away with the run.
      expect(result.ok ? 'ok' : result.error).toEqual(
        perEngine(engine, {
          node: {
            code: 'crashed',
            message: expect.stringContaining('(most likely out of memory: the heap limit is 64 MB)'),
          },
          quickjs: { code: 'runtime', message: 'InternalError: out of memory' },
        }),
      );
    }, scaledTimeout(30_000));

    it('stops an ArrayBuffer bomb (memory outside the V8 heap) with a failed allocation', async () => {
      const { bridge } = createRecordingBridge();
      const result = await runner.run({
        // Untouched pages still count against RLIMIT_DATA, so the bomb is stopped without loading the machine.
        code: 'const hoard = []; for (;;) hoard.push(new Uint8Array(64 * 1024 * 1024));',
        bridge,
        timeoutMs: 20_000,
      });
      expect(result.ok).toBe(false);
      expect(result.ok ? '' : result.error.code).toBe('runtime');
      // Node: RLIMIT_DATA refuses the buffer; QuickJS: its memory limit (ArrayBuffers live in its heap).
      expect(result.ok ? '' : result.error.message).toContain(
        perEngine(engine, { node: 'Array buffer allocation failed', quickjs: 'out of memory' }),
      );
    });
  });

  describe('budgets: output', () => {
    it('stops a log flood past 200 lines with output_limit', async () => {
      const { bridge } = createRecordingBridge();
      const result = await runner.run({
        code: 'for (let line = 0; line < 10_000; line += 1) console.log("line " + line); return "finished";',
        bridge,
        timeoutMs: 15_000,
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'output_limit' } });
      expect(result.logs).toHaveLength(200);
      expect(result.logs[199]).toEqual({ level: 'log', text: 'line 199' });
    });

    it('stops a single log line over 8 KiB with output_limit instead of truncating it', async () => {
      const { bridge } = createRecordingBridge();
      const result = await runner.run({
        code: 'console.log("x".repeat(9 * 1024)); return "finished";',
        bridge,
        timeoutMs: 15_000,
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'output_limit' } });
    });

    it('stops total log output past 1 MiB (140 lines of 8000 chars, under the line cap) with output_limit', async () => {
      const { bridge } = createRecordingBridge();
      const result = await runner.run({
        code: 'for (let line = 0; line < 140; line += 1) console.warn("y".repeat(8000)); return "finished";',
        bridge,
        timeoutMs: 15_000,
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'output_limit' } });
    });

    it('prints a fake protocol message through console.log as a plain log line, never parsed', async () => {
      const { bridge, calls } = createRecordingBridge();
      const forged = [
        JSON.stringify({ type: 'result', ok: true, value: 'forged' }),
        JSON.stringify({ type: 'call', id: 1, method: 'call', args: ['mcp:evil:exfiltrate', {}] }),
      ];
      const result = await runner.run({
        code: `console.log(${JSON.stringify(forged[0])}); console.log(${JSON.stringify(forged[1])}); return 'real';`,
        bridge,
        timeoutMs: 15_000,
      });
      expect(result).toMatchObject({ ok: true, value: 'real' });
      expect(calls).toEqual([]);
      expect(JSON.stringify(result.logs)).toContain('mcp:evil:exfiltrate');
    });

    it('rejects a result over 1 MiB with result_too_large', async () => {
      const { bridge } = createRecordingBridge();
      const result = await runner.run({ code: 'return "z".repeat(2 * 1024 * 1024);', bridge, timeoutMs: 15_000 });
      expect(result).toMatchObject({ ok: false, error: { code: 'result_too_large' } });
    });

    it('rejects a 100,000-deep nested result with result_too_large, without a stack overflow in the parent', async () => {
      const { bridge } = createRecordingBridge();
      const result = await runner.run({
        code: 'let nested = []; for (let depth = 0; depth < 100_000; depth += 1) nested = [nested]; return nested;',
        bridge,
        timeoutMs: 10_000,
      });
      expect(result.ok ? 'ok' : result.error).toEqual({
        code: 'result_too_large',
        message: 'the result is nested more than 256 levels deep',
      });
    }, scaledTimeout(30_000));

    it('crosses a result nested 256 levels deep intact', async () => {
      const { bridge } = createRecordingBridge();
      const result = await runner.run({
        code: 'let nested = []; for (let depth = 1; depth < 256; depth += 1) nested = [nested]; return nested;',
        bridge,
        timeoutMs: 10_000,
      });
      expect(result.ok).toBe(true);
      let depth = 1;
      let cursor = result.ok ? result.value : undefined;
      while (Array.isArray(cursor) && cursor.length === 1) {
        cursor = cursor[0];
        depth += 1;
      }
      expect({ depth, innermost: cursor }).toEqual({ depth: 256, innermost: [] });
    }, scaledTimeout(30_000));
  });

  describe('budgets: tool calls', () => {
    it('keeps 80 parallel calls to 16 in flight and 50 in total, then reports too_many_calls', async () => {
      let inFlight = 0;
      let maxInFlight = 0;
      const { bridge, calls } = createRecordingBridge({
        call: async (_id, args) => {
          inFlight += 1;
          maxInFlight = Math.max(maxInFlight, inFlight);
          // Settle on a later turn so that concurrency can build up if the runner lets it.
          await nextTurn();
          await nextTurn();
          inFlight -= 1;
          return args;
        },
      });
      const result = await runner.run({
        code: `
          const pending = [];
          for (let index = 0; index < 80; index += 1) pending.push(tools.call('mcp:bulk:echo', { index }));
          return (await Promise.all(pending)).length;
        `,
        bridge,
        timeoutMs: 10_000,
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'too_many_calls' } });
      expect(maxInFlight).toBeGreaterThan(0);
      expect(maxInFlight).toBeLessThanOrEqual(16);
      expect(calls).toHaveLength(50);
    });

    it('counts search and describe against the same 50-call budget', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runner.run({
        code: `
          for (let index = 0; index < 20; index += 1) await tools.search('q' + index);
          for (let index = 0; index < 20; index += 1) await tools.describe('mcp:s:t' + index);
          for (let index = 0; index < 20; index += 1) await tools.call('mcp:s:t', { index });
          return 'all sixty done';
        `,
        bridge,
        timeoutMs: 10_000,
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'too_many_calls' } });
      expect(calls.length).toBe(50);
    });

    it('drops calls issued after return: the handler never sees them, and open handler signals abort', async () => {
      const searchEntered = createDeferred();
      const releaseSearch = createDeferred<unknown[]>();
      const { bridge, calls } = createRecordingBridge({
        search: () => {
          searchEntered.resolve(undefined);
          return releaseSearch.promise;
        },
      });
      const result = await runner.run({
        code: `
          tools.search('parked').then(() => tools.call('mcp:late:after-return', {}));
          let chain = Promise.resolve();
          for (let step = 0; step < 100; step += 1) chain = chain.then(() => {});
          chain.then(() => tools.call('mcp:late:after-microtasks', {}));
          return 'returned';
        `,
        bridge,
        timeoutMs: 15_000,
      });
      expect(result).toMatchObject({ ok: true, value: 'returned' });
      await searchEntered.promise;
      expect(calls.map((call) => call.method)).toEqual(['search']);
      expect(calls[0]?.signal.aborted).toBe(true);
      // Settle the parked search after the run: nothing may reach a child any more, and no late call arrives.
      releaseSearch.resolve([]);
      const followUp = await runner.run({ code: 'return "next run";', bridge: createRecordingBridge().bridge, timeoutMs: 15_000 });
      expect(followUp).toMatchObject({ ok: true, value: 'next run' });
      expect(calls.map((call) => call.args[0])).toEqual(['parked']);
    });

    it('reports bridge call counts per method in stats', async () => {
      const { bridge } = createRecordingBridge();
      const result = await runner.run({
        code: "await tools.search('a'); await tools.search('b'); await tools.describe('mcp:s:t'); return 1;",
        bridge,
        timeoutMs: 15_000,
      });
      expect(result.ok).toBe(true);
      expect(result.stats).toMatchObject({ calls: { search: 2, describe: 1, call: 0 } });
    });
  });

  describe('budgets: log text crosses whole', () => {
    it('keeps a NUL and what follows it in a log line', async () => {
      const result = await runner.run({ code: "console.log('before\\u0000after'); return 1;", bridge: createRecordingBridge().bridge, timeoutMs: 15_000 });
      expect(result).toMatchObject({ ok: true, logs: [{ level: 'log', text: 'before\u0000after' }] });
    });

    it('keeps a NUL, a newline and what follows them in the message of a thrown error and in a result', async () => {
      const thrown = await runner.run({ code: "throw new Error('first\\nsecond\\u0000third');", bridge: createRecordingBridge().bridge, timeoutMs: 15_000 });
      expect(thrown).toMatchObject({ ok: false, error: { code: 'runtime', message: 'first\nsecond\u0000third' } });
      const returned = await runner.run({ code: "return 'a\\u0000b\\nc';", bridge: createRecordingBridge().bridge, timeoutMs: 15_000 });
      expect(returned).toMatchObject({ ok: true, value: 'a\u0000b\nc' });
    });
  });

  describe('budgets: a body that returns while its jobs go on', () => {
    it('ends with its result, not at the timeout, when it leaves an endless loop of promise reactions behind', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runner.run({
        code: "await tools.search('before'); (function spin() { Promise.resolve().then(spin); })(); return 'returned';",
        bridge,
        timeoutMs: 5_000,
      });
      expect(result).toMatchObject({ ok: true, value: 'returned' });
      expect(result.stats.wallTimeMs).toBeLessThan(5_000);
      expect(calls.map((call) => call.args[0])).toEqual(['before']);
    });
  });

  describe('budgets: parent work per message', () => {
    it('refuses call arguments of 95,000 keys inside the sandbox with a RangeError; the parent never sees them', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runner.run({
        code: `
          const big = {};
          for (let index = 0; index < 95000; index += 1) big['k' + index] = 0;
          try { await tools.search('q', big); } catch (error) { return [error.name, error.message]; }
        `,
        bridge,
        timeoutMs: 20_000,
      });
      expect(result.ok && result.value).toEqual([
        'RangeError',
        'tools.search arguments hold more than 10000 array elements and object members',
      ]);
      expect(calls).toEqual([]);
    });

    it('counts the UTF-8 bytes of call arguments, not their characters, right at the 1 MiB limit', async () => {
      // '€' is 3 bytes of UTF-8: 349,000 of them and the JSON envelope stay under 1,048,576 bytes, 350,000 do not.
      const { bridge, calls } = createRecordingBridge({ call: async (_id, args) => ({ length: (args as { s: string }).s.length }) });
      const result = await runner.run({
        code: `
          const outcomes = [];
          for (const count of [349000, 350000]) {
            try { outcomes.push((await tools.call('mcp:a:b', { s: '€'.repeat(count) })).length); } catch (error) { outcomes.push(error.message); }
          }
          return outcomes;
        `,
        bridge,
        timeoutMs: 20_000,
      });
      expect(result.ok && result.value).toEqual([349_000, 'tools.call arguments exceed 1048576 bytes of JSON']);
      expect(calls).toHaveLength(1);
    });

    it('hands each call its own signal, so listeners on it never pile up (no MaxListenersExceededWarning)', async () => {
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(warning.name);
      process.on('warning', onWarning);
      try {
        const { bridge, calls } = createRecordingBridge({
          call: async (_id, args, context) => {
            context.signal.addEventListener('abort', () => undefined);
            return args;
          },
        });
        const result = await runner.run({
          code: "for (let index = 0; index < 20; index += 1) await tools.call('mcp:a:b', { index }); return 'done';",
          bridge,
          timeoutMs: 15_000,
        });
        expect(result).toMatchObject({ ok: true, value: 'done' });
        expect(new Set(calls.map((call) => call.signal)).size).toBe(20);
        expect(calls.every((call) => call.signal.aborted)).toBe(true);
        await nextTurn();
        expect(warnings).toEqual([]);
      } finally {
        process.off('warning', onWarning);
      }
    });
  });
});
