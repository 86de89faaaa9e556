// Contract tests against real children (the adversarial suite lives in ./adversarial).
import { getEventListeners } from 'node:events';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRunner } from './create-runner.js';
import { isSandboxRunnerError } from './errors.js';
import type { Bridge, BridgeContext } from './types.js';

interface RecordedCall {
  method: string;
  args: unknown[];
  signal: AbortSignal;
}

function createRecordingBridge(overrides: Partial<Bridge> = {}) {
  const calls: RecordedCall[] = [];
  const bridge: Bridge = {
    search(query, options, ctx: BridgeContext) {
      calls.push({ method: 'search', args: [query, options], signal: ctx.signal });
      return overrides.search ? overrides.search(query, options, ctx) : [{ id: 'mcp:a:b' }];
    },
    describe(id, ctx: BridgeContext) {
      calls.push({ method: 'describe', args: [id], signal: ctx.signal });
      return overrides.describe ? overrides.describe(id, ctx) : { id };
    },
    call(id, args, ctx: BridgeContext) {
      calls.push({ method: 'call', args: [id, args], signal: ctx.signal });
      return overrides.call ? overrides.call(id, args, ctx) : { echo: args };
    },
  };
  return { bridge, calls };
}

const TEST_TIMEOUT = 30_000;
const runner = createRunner({ pool: { size: 1 } });
afterAll(() => runner.close());

const run = (code: string, bridge = createRecordingBridge().bridge, timeoutMs = 8_000) => runner.run({ code, bridge, timeoutMs });

describe('createRunner', { timeout: TEST_TIMEOUT }, () => {
  it('returns the body value with logs and stats', async () => {
    const { bridge, calls } = createRecordingBridge();
    const result = await run(
      `console.log('hi', { a: 1 }); console.warn('w'); const hits = await tools.search('q', { limit: 2 });
       const d = await tools.describe(hits[0].id); return { hits, d, called: await tools.call('mcp:a:b', { x: 1 }) };`,
      bridge,
    );
    expect(result).toMatchObject({
      ok: true,
      value: { hits: [{ id: 'mcp:a:b' }], d: { id: 'mcp:a:b' }, called: { echo: { x: 1 } } },
      logs: [
        { level: 'log', text: 'hi {"a":1}' },
        { level: 'warn', text: 'w' },
      ],
      stats: { calls: { search: 1, describe: 1, call: 1 } },
    });
    expect(calls.map((call) => call.args)).toEqual([['q', { limit: 2 }], ['mcp:a:b'], ['mcp:a:b', { x: 1 }]]);
    expect(result.stats.wallTimeMs).toBeGreaterThan(0);
  });

  it('gives the body a { hits, ...more } search answer as the hits array with the other fields on it, not enumerable', async () => {
    const { bridge } = createRecordingBridge({ search: () => ({ hits: [{ id: 'mcp:a:b' }], evidence: 'weak', servers: { servers: [{ owner: 'a' }], omitted: 0 } }) });
    const result = await run(
      `const hits = await tools.search('q'); return { isArray: Array.isArray(hits), length: hits.length, first: hits[0].id, evidence: hits.evidence, owner: hits.servers.servers[0].owner, keys: Object.keys(hits), json: JSON.stringify(hits) };`,
      bridge,
    );
    expect(result).toMatchObject({ ok: true, value: { isArray: true, length: 1, first: 'mcp:a:b', evidence: 'weak', owner: 'a', keys: ['0'], json: '[{"id":"mcp:a:b"}]' } });
    // The QuickJS engine evaluates the same realm runtime: the same shape there.
    const quickjs = createRunner({ engine: 'quickjs', isolation: 'node-only', pool: { size: 0 } });
    const fromQuickjs = await quickjs.run({ code: `const hits = await tools.search('q'); return [Array.isArray(hits), hits.length, hits.evidence, Object.keys(hits)];`, bridge, timeoutMs: 8_000 });
    await quickjs.close();
    expect(fromQuickjs).toMatchObject({ ok: true, value: [true, 1, 'weak', ['0']] });
  });

  it('hands search undefined options and call {} args when the body omits them', async () => {
    const { bridge, calls } = createRecordingBridge();
    await run(`await tools.search('q'); await tools.call('mcp:a:b'); return null;`, bridge);
    expect(calls.map((call) => call.args)).toEqual([
      ['q', undefined],
      ['mcp:a:b', {}],
    ]);
  });

  it('turns a handler throw into a rejection carrying the message only', async () => {
    const { bridge } = createRecordingBridge({
      call: () => {
        throw new Error('tool exploded');
      },
    });
    const result = await run(`try { await tools.call('mcp:a:b', {}); } catch (e) { return [e instanceof Error, e.message]; }`, bridge);
    expect(result).toMatchObject({ ok: true, value: [true, 'tool exploded'] });
  });

  it('does not crash on a rejection that is unhandled for a while', async () => {
    const { bridge } = createRecordingBridge({ search: () => new Promise((resolve) => setTimeout(() => resolve([]), 20)) });
    const result = await run("const late = tools.call(42); Promise.reject(new Error('ignored')); await tools.search('a'); try { await late; } catch (e) { return e.name; }", bridge);
    expect(result).toMatchObject({ ok: true, value: 'TypeError' });
  });

  it('returns undefined for a body without a return value', async () => {
    expect(await run('1 + 1;')).toMatchObject({ ok: true, value: undefined });
  });

  it('reports syntax errors as syntax', async () => {
    expect(await run('return (;')).toMatchObject({ ok: false, error: { code: 'syntax' } });
  });

  it('reports a body that closes its wrapper early (regex/division ambiguity) as syntax, running nothing', async () => {
    const { bridge, calls } = createRecordingBridge();
    const result = await run("return 1; } /1/[0], tools.search('outside'), function () {", bridge);
    expect(result).toMatchObject({ ok: false, error: { code: 'syntax' } });
    expect(calls).toEqual([]);
  });

  it('reports a throw as runtime with the message', async () => {
    expect(await run("throw new TypeError('bad input')")).toMatchObject({ ok: false, error: { code: 'runtime', message: 'TypeError: bad input' } });
  });

  it('runs the body in strict mode', async () => {
    expect(await run('undeclared = 1; return 1;')).toMatchObject({ ok: false, error: { code: 'runtime', message: 'ReferenceError: undeclared is not defined' } });
  });

  it('reports timeout for a busy loop', async () => {
    const result = await runner.run({ code: 'for (;;) {}', bridge: createRecordingBridge().bridge, timeoutMs: 1_000 });
    expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
  });

  it('reports aborted when the caller aborts, and aborts the handler signal', async () => {
    const controller = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    const { bridge } = createRecordingBridge({
      search: (_query, _options, ctx) => {
        handlerSignal = ctx.signal;
        controller.abort();
        return new Promise(() => {});
      },
    });
    const result = await runner.run({ code: "await tools.search('x'); return 1;", bridge, signal: controller.signal });
    expect(result).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(handlerSignal?.aborted).toBe(true);
  });

  it('reports output_limit past the log line budget and keeps the lines before it', async () => {
    const result = await run('for (let i = 0; i < 300; i += 1) console.log(i); return 1;');
    expect(result).toMatchObject({ ok: false, error: { code: 'output_limit' } });
    expect(result.logs).toHaveLength(200);
  });

  it('reports result_too_large for a result over 1 MiB', async () => {
    expect(await run("return 'é'.repeat(600 * 1024);")).toMatchObject({ ok: false, error: { code: 'result_too_large' } });
  });

  it('rejects call arguments over 1 MiB of UTF-8 in the body, before they reach the parent', async () => {
    const { bridge, calls } = createRecordingBridge();
    const result = await run("try { await tools.call('mcp:a:b', { s: 'é'.repeat(600 * 1024) }); } catch (e) { return e.name; }", bridge);
    expect(result).toMatchObject({ ok: true, value: 'RangeError' });
    expect(calls).toEqual([]);
  });

  it('reports too_many_calls on the 51st call', async () => {
    const { bridge, calls } = createRecordingBridge();
    const result = await run('for (let i = 0; i < 60; i += 1) await tools.describe(String(i)); return 1;', bridge);
    expect(result).toMatchObject({ ok: false, error: { code: 'too_many_calls' } });
    expect(calls).toHaveLength(50);
  });

  it('rejects a non-JSON-serializable handler result inside the body', async () => {
    const { bridge } = createRecordingBridge({ describe: () => ({ big: 1n }) });
    const result = await run("try { await tools.describe('x'); } catch (e) { return e.message; }", bridge);
    expect(result).toMatchObject({ ok: true, value: expect.stringContaining('not JSON-serializable') });
  });

  it('throws invalid_run_options for a missing bridge', async () => {
    await expect(runner.run({ code: 'return 1' } as never)).rejects.toSatisfy(
      (error: unknown) => isSandboxRunnerError(error) && error.code === 'invalid_run_options',
    );
  });
});

describe('createRunner options', { timeout: TEST_TIMEOUT }, () => {
  it('throws invalid_options on an unknown limit', () => {
    expect(() => createRunner({ pool: { size: 0 }, limits: { timeoutMS: 5 } as never })).toThrow(
      expect.objectContaining({ code: 'invalid_options', path: 'limits' }),
    );
  });

  it('crashes the run when the heap limit is exceeded', async () => {
    const small = createRunner({ pool: { size: 0 }, limits: { heapMb: 16 } });
    const result = await small.run({
      code: 'const hoard = []; for (;;) hoard.push(new Array(1e5).fill({ k: 1 }));',
      bridge: createRecordingBridge().bridge,
      timeoutMs: 20_000,
    });
    await small.close();
    expect(result).toMatchObject({ ok: false, error: { code: 'crashed' } });
  });

  it('reports unavailable when the runtime cannot be used', async () => {
    const broken = createRunner({ engine: 'node', pool: { size: 0 }, nodePath: '/nonexistent/node' });
    const result = await broken.run({ code: 'return 1', bridge: createRecordingBridge().bridge });
    await broken.close();
    expect(result).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining('/nonexistent/node') } });
  });

  it('throws runner_closed after close()', async () => {
    const closing = createRunner({ pool: { size: 0 } });
    await closing.close();
    await expect(closing.run({ code: 'return 1', bridge: createRecordingBridge().bridge })).rejects.toSatisfy(
      (error: unknown) => isSandboxRunnerError(error) && error.code === 'runner_closed',
    );
  });

  it('aborts a run in progress when the runner closes', async () => {
    const closing = createRunner({ pool: { size: 0 } });
    const pending = closing.run({ code: 'for (;;) await null;', bridge: createRecordingBridge().bridge, timeoutMs: 20_000 });
    setTimeout(() => void closing.close(), 200);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'aborted', message: 'the runner was closed' } });
  });

  it('tells a caller abort from a runner close, with a caller signal given, and ends every run the close finds', async () => {
    const closing = createRunner({ pool: { size: 0 } });
    const callerAbort = new AbortController();
    const byCaller = closing.run({ code: 'for (;;) await null;', bridge: createRecordingBridge().bridge, timeoutMs: 20_000, signal: callerAbort.signal });
    const withSignal = closing.run({
      code: 'for (;;) await null;',
      bridge: createRecordingBridge().bridge,
      timeoutMs: 20_000,
      signal: new AbortController().signal,
    });
    const withoutSignal = closing.run({ code: 'for (;;) await null;', bridge: createRecordingBridge().bridge, timeoutMs: 20_000 });
    setTimeout(() => callerAbort.abort(), 200);
    expect(await byCaller).toMatchObject({ ok: false, error: { code: 'aborted', message: 'the run was aborted by its caller' } });
    await closing.close();
    expect(await withSignal).toMatchObject({ ok: false, error: { code: 'aborted', message: 'the runner was closed' } });
    expect(await withoutSignal).toMatchObject({ ok: false, error: { code: 'aborted', message: 'the runner was closed' } });
  });

  it("keeps no trace of a caller's signal after its run: it is never combined with the runner's own (AbortSignal.any)", async () => {
    // On Node 20, AbortSignal.any with a long-lived source keeps every combined signal alive (measured: 200,000
    // of them held 387 MB after GC), and the gateway passes a signal with every code run.
    const any = vi.spyOn(AbortSignal, 'any');
    try {
      const caller = new AbortController();
      for (let index = 0; index < 3; index += 1) {
        expect(await runner.run({ code: 'return 1', bridge: createRecordingBridge().bridge, signal: caller.signal })).toMatchObject({ ok: true });
      }
      expect(any).not.toHaveBeenCalled();
      expect(getEventListeners(caller.signal, 'abort')).toEqual([]);
    } finally {
      any.mockRestore();
    }
  });

  it('serves a run from the pool (warm) and without one (cold)', async () => {
    // A runner of its own: the shared one refills its pool on a timer after each run, which the previous test's
    // last run may not have reached yet. A new runner's pool starts its child at once.
    const warmRunner = createRunner({ pool: { size: 1 } });
    const warmResult = await warmRunner.run({ code: 'return 1', bridge: createRecordingBridge().bridge });
    await warmRunner.close();
    const coldRunner = createRunner({ pool: { size: 0 } });
    const coldResult = await coldRunner.run({ code: 'return 1', bridge: createRecordingBridge().bridge });
    await coldRunner.close();
    expect(warmResult.stats.warm).toBe(true);
    expect(coldResult.stats.warm).toBe(false);
  });

  it('runs QuickJS under auto when the only Node is this one (Node 20): the plain-install case', async () => {
    // On Node < 26.12.1 this process's binary fails the Node engine's version check, so auto takes QuickJS.
    const plain = createRunner({ pool: { size: 0 }, nodePath: process.execPath });
    const result = await plain.run({ code: "return [typeof tools.call, await tools.describe('mcp:a:b')]", bridge: createRecordingBridge().bridge });
    await plain.close();
    expect(result).toMatchObject({ ok: true, value: ['function', { id: 'mcp:a:b' }] });
  });

  it('does not swap a configured Node binary that fails for QuickJS under auto: unavailable, with the reason', async () => {
    const configured = createRunner({ pool: { size: 0 }, nodePath: '/nonexistent/node' });
    const result = await configured.run({ code: 'return 1', bridge: createRecordingBridge().bridge });
    await configured.close();
    expect(result).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining('/nonexistent/node') } });
  });

  it('refuses the QuickJS engine when OS isolation is required', async () => {
    const strict = createRunner({ engine: 'quickjs', isolation: 'os', pool: { size: 0 } });
    const result = await strict.run({ code: 'return 1', bridge: createRecordingBridge().bridge });
    await strict.close();
    expect(result).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining('without the OS layer') } });
  });

  it('runs with node-only isolation when asked to', async () => {
    const nodeOnly = createRunner({ pool: { size: 0 }, isolation: 'node-only' });
    const result = await nodeOnly.run({ code: 'return typeof require', bridge: createRecordingBridge().bridge });
    await nodeOnly.close();
    expect(result).toMatchObject({ ok: true, value: 'undefined' });
  });
});
