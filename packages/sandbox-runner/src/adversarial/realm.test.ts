// Adversarial suite, realm layer: what model-written code can see and reach from inside the vm context.
// Every case asserts the exact outcome. Each body runs through the public `createRunner().run()`.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRunner } from '../index.js';
import { ENGINES, perEngine } from './fixtures/engines.js';
import { CANNED_SEARCH_HITS, createRecordingBridge } from './fixtures/recording-bridge.js';
import { scaledTimeout } from '@tool-search/property-settings';

// Each case spawns real children on a shared 2-core machine: generous per-test budgets, never timed assertions.
vi.setConfig({ testTimeout: scaledTimeout(30_000), hookTimeout: scaledTimeout(30_000) });

// The ECMAScript globals a fresh V8 context has (Node 26), and QuickJS's one engine-specific error type.
// Anything else on the body's global object must be one of the two things the contract hands it: `tools` and
// `console`.
const ECMASCRIPT_GLOBALS = new Set([
  'Object', 'Function', 'Array', 'Number', 'parseFloat', 'parseInt', 'Infinity', 'NaN', 'undefined', 'Boolean',
  'String', 'Symbol', 'Date', 'Promise', 'RegExp', 'Error', 'AggregateError', 'EvalError', 'RangeError',
  'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'globalThis', 'JSON', 'Math', 'Intl', 'ArrayBuffer',
  'Atomics', 'Uint8Array', 'Int8Array', 'Uint16Array', 'Int16Array', 'Uint32Array', 'Int32Array',
  'BigUint64Array', 'BigInt64Array', 'Uint8ClampedArray', 'Float32Array', 'Float64Array', 'Float16Array',
  'DataView', 'Map', 'BigInt', 'Set', 'Iterator', 'WeakMap', 'WeakSet', 'Proxy', 'Reflect',
  'FinalizationRegistry', 'WeakRef', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent',
  'escape', 'unescape', 'eval', 'isFinite', 'isNaN', 'Temporal', 'SuppressedError', 'DisposableStack',
  'AsyncDisposableStack', 'SharedArrayBuffer', 'InternalError', 'Symbol(Symbol.toStringTag)',
]);

describe.each(ENGINES)('realm (%s engine)', (engine) => {
  const runner = createRunner({ engine, pool: { size: 1 } });
  afterAll(async () => {
    await runner.close();
  });

  async function runBody(code: string, bridge = createRecordingBridge().bridge) {
    return runner.run({ code, bridge, timeoutMs: 15_000 });
  }

  describe('realm: globals', () => {
    it('hides every host global the contract names (process, require, timers, fetch, Buffer, WebAssembly…)', async () => {
      const result = await runBody(`
        return {
          process: typeof process, require: typeof require, module: typeof module, exports: typeof exports,
          __dirname: typeof __dirname, global: typeof global, setTimeout: typeof setTimeout,
          setInterval: typeof setInterval, setImmediate: typeof setImmediate, clearTimeout: typeof clearTimeout,
          queueMicrotask: typeof queueMicrotask, fetch: typeof fetch, Buffer: typeof Buffer,
          WebAssembly: typeof WebAssembly, structuredClone: typeof structuredClone, TextEncoder: typeof TextEncoder,
          URL: typeof URL, performance: typeof performance, navigator: typeof navigator,
        };
      `);
      expect(result).toMatchObject({ ok: true });
      expect(result.ok && result.value).toEqual({
        process: 'undefined', require: 'undefined', module: 'undefined', exports: 'undefined',
        __dirname: 'undefined', global: 'undefined', setTimeout: 'undefined', setInterval: 'undefined',
        setImmediate: 'undefined', clearTimeout: 'undefined', queueMicrotask: 'undefined', fetch: 'undefined',
        Buffer: 'undefined', WebAssembly: 'undefined', structuredClone: 'undefined', TextEncoder: 'undefined',
        URL: 'undefined', performance: 'undefined', navigator: 'undefined',
      });
    });

    it('puts nothing on the global object beyond the ECMAScript built-ins, tools and console', async () => {
      const result = await runBody('return Reflect.ownKeys(globalThis).map(String);');
      expect(result.ok).toBe(true);
      const extras = (result.ok ? (result.value as string[]) : []).filter((name) => !ECMASCRIPT_GLOBALS.has(name));
      expect(extras.sort()).toEqual(['console', 'tools']);
    });

    it('exposes exactly search, describe and call on tools, and log, warn and error on console', async () => {
      const result = await runBody('return { tools: Reflect.ownKeys(tools).map(String).sort(), console: Reflect.ownKeys(console).map(String).sort() };');
      expect(result.ok && result.value).toEqual({ tools: ['call', 'describe', 'search'], console: ['error', 'log', 'warn'] });
    });
  });

  describe('realm: code generation', () => {
    it('refuses eval of a string (EvalError, the string never runs)', async () => {
      const result = await runBody(`
        let ran = false;
        try { eval('ran = true'); } catch (error) { return { ran, name: error.name }; }
        return { ran, name: 'none' };
      `);
      expect(result.ok && result.value).toEqual({ ran: false, name: 'EvalError' });
    });

    it('refuses new Function(string) (EvalError)', async () => {
      const result = await runBody(`
        try { return new Function('return 1 + 1')(); } catch (error) { return error.name; }
      `);
      expect(result.ok && result.value).toBe('EvalError');
    });

    it('refuses the AsyncFunction and GeneratorFunction constructors reached through prototypes', async () => {
      const result = await runBody(`
        const outcomes = [];
        for (const fn of [async function () {}, function* () {}, async function* () {}]) {
          try { fn.constructor('return 1')(); outcomes.push('ran'); } catch (error) { outcomes.push(error.name); }
        }
        return outcomes;
      `);
      expect(result.ok && result.value).toEqual(['EvalError', 'EvalError', 'EvalError']);
    });

    it('rejects dynamic import() of a Node built-in without loading it', async () => {
      const result = await runBody(`
        try { const fs = await import('node:fs'); return typeof fs.readFileSync; }
        catch (error) { return { name: error.name, realmError: error instanceof TypeError && error.constructor.constructor === Function, loaded: false }; }
      `);
      // QuickJS has no module loader at all and rejects with its own ReferenceError; V8's is the realm TypeError.
      expect(result.ok && result.value).toEqual(
        perEngine(engine, {
          node: { name: 'TypeError', realmError: true, loaded: false },
          quickjs: { name: 'ReferenceError', realmError: false, loaded: false },
        }),
      );
    });

    it('cannot compile WebAssembly even through a reachable constructor', async () => {
      // The smallest valid module: "\\0asm" + version 1.
      const result = await runBody(`
        const wasm = Reflect.get(globalThis, 'WebAssembly');
        if (wasm === undefined) return 'absent';
        try { await wasm.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])); return 'compiled'; }
        catch (error) { return error.name; }
      `);
      expect(result.ok && result.value).toBe('absent');
    });
  });

  describe('realm: constructor walks to host code', () => {
    // For each object the body can reach, walk `.constructor.constructor` and the prototype chain; every
    // Function found must be the realm's own (which cannot compile strings), never the host's.
    const walkBody = (reachable: string) => `
      const probes = ${reachable};
      const report = {};
      for (const [label, value] of Object.entries(probes)) {
        const found = [];
        let cursor = value;
        for (let depth = 0; depth < 8 && cursor != null; depth += 1) {
          const ctor = cursor.constructor;
          if (typeof ctor === 'function') {
            found.push(ctor.constructor === Function);
            try { ctor.constructor('return typeof process')(); found.push('compiled'); } catch (error) { found.push(error.name); }
          }
          cursor = Object.getPrototypeOf(cursor);
        }
        report[label] = found.every((entry) => entry === true || entry === 'EvalError') && found.length > 0;
      }
      return report;
    `;

    it('finds only realm functions from tools, its methods, console and its methods', async () => {
      const result = await runBody(
        walkBody(
          '{ tools, search: tools.search, describe: tools.describe, call: tools.call, console, log: console.log, warn: console.warn, error: console.error, globalThis, self: this ?? globalThis }',
        ),
      );
      expect(result.ok && result.value).toEqual({
        tools: true, search: true, describe: true, call: true, console: true, log: true, warn: true, error: true,
        globalThis: true, self: true,
      });
    });

    it('finds only realm functions from a bridge promise, its value and a bridge rejection error', async () => {
      const { bridge } = createRecordingBridge({
        call: async () => {
          throw new Error('handler refused');
        },
      });
      const result = await runBody(
        `
        const pending = tools.search('weather');
        const hits = await pending;
        let rejection;
        try { await tools.call('mcp:weather:get_forecast', {}); } catch (error) { rejection = error; }
        return (function () { ${walkBody('{ pending, hits, firstHit: hits[0], rejection }')} })();
      `,
        bridge,
      );
      expect(result.ok && result.value).toEqual({ pending: true, hits: true, firstHit: true, rejection: true });
    });

    it('finds only realm functions from a thrown runtime error and from arguments.callee', async () => {
      const result = await runBody(`
        let typeError;
        try { null.x; } catch (error) { typeError = error; }
        let callee;
        try { callee = arguments.callee; } catch (error) { callee = error; }
        return (function () { ${walkBody('{ typeError, callee }')} })();
      `);
      expect(result.ok && result.value).toEqual({ typeError: true, callee: true });
    });

    it('gets no host objects from structured stack frames (Error.prepareStackTrace getThis/getFunction)', async () => {
      const result = await runBody(`
        const foreign = [];
        Error.prepareStackTrace = (error, frames) => {
          for (const frame of frames) {
            for (const candidate of [frame.getThis?.(), frame.getFunction?.()]) {
              if (candidate != null && (typeof candidate === 'object' || typeof candidate === 'function')) {
                const ctor = candidate.constructor;
                if (typeof ctor === 'function' && ctor.constructor !== Function) foreign.push(String(frame));
              }
            }
          }
          return 'prepared';
        };
        const stacks = [];
        try { await tools.call('mcp:weather:get_forecast', { bad: 1n }); } catch (error) { stacks.push(error.stack); }
        try { tools.search(Symbol('x')); } catch (error) { stacks.push(error.stack); }
        try { console.log({ toJSON() { throw new Error('from toJSON'); } }); } catch (error) { stacks.push(error.stack); }
        return { foreign };
      `);
      expect(result.ok && result.value).toEqual({ foreign: [] });
    });

    it('gets no host objects from a then-getter on Object.prototype that the host settle path triggers', async () => {
      // The host settles a bridge call by calling into the realm; resolving with a JSON object looks up its
      // "then" synchronously, so this getter runs with host frames on the stack. It inspects them.
      const result = await runBody(`
        const foreign = [];
        let triggered = 0;
        Error.prepareStackTrace = (error, frames) => frames;
        Object.defineProperty(Object.prototype, 'then', {
          configurable: true,
          get() {
            triggered += 1;
            const frames = new Error('probe').stack;
            for (const frame of Array.isArray(frames) ? frames : []) {
              for (const candidate of [frame.getThis?.(), frame.getFunction?.()]) {
                if (candidate != null && (typeof candidate === 'object' || typeof candidate === 'function')) {
                  const ctor = candidate.constructor;
                  if (typeof ctor === 'function' && ctor.constructor !== Function) foreign.push(String(frame));
                }
              }
            }
            return undefined;
          },
        });
        const described = await tools.describe('mcp:weather:get_forecast');
        delete Object.prototype.then;
        return { foreign, triggered: triggered > 0, described };
      `);
      expect(result.ok && result.value).toEqual({
        foreign: [],
        triggered: true,
        described: { id: 'mcp:weather:get_forecast', description: 'canned' },
      });
    });

    it('never hands a host function to a patched Promise.prototype.then (and the run still completes)', async () => {
      const result = await runBody(`
        const originalThen = Promise.prototype.then;
        Promise.prototype.then = function (onFulfilled, onRejected) {
          for (const callback of [onFulfilled, onRejected]) {
            if (typeof callback === 'function' && callback.constructor !== Function) {
              let escaped;
              try { escaped = callback.constructor('return typeof process')(); } catch (error) { escaped = error.name; }
              console.log('LEAK ' + escaped);
            }
          }
          return originalThen.call(this, onFulfilled, onRejected);
        };
        const hits = await tools.search('weather');
        return { hits };
      `);
      expect(result).toMatchObject({ ok: true, value: { hits: CANNED_SEARCH_HITS } });
      expect(JSON.stringify(result.logs)).not.toContain('LEAK');
    });

    it('survives a Promise.prototype.then that throws: the body value still arrives', async () => {
      const result = await runBody(`
        Promise.prototype.then = function () { throw new Error('then is poisoned'); };
        return 42;
      `);
      expect(result).toMatchObject({ ok: true, value: 42 });
    });
  });

  describe('realm: unhandled rejections', () => {
    it('neither crashes nor hands host objects to an inspect hook on an unhandled rejection', async () => {
      // Node's default for an unhandled rejection is to crash, printing the reason with util.inspect, which would
      // call this realm hook with host objects (options, stylize, inspect). The run must finish normally instead.
      const result = await runBody(`
        const reason = new Error('unhandled on purpose');
        reason[Symbol.for('nodejs.util.inspect.custom')] = function (depth, options, inspect) {
          const seen = [];
          for (const candidate of [options, inspect, options && options.stylize]) {
            if (candidate != null && candidate.constructor !== undefined) seen.push(candidate.constructor.constructor === Function ? 'realm' : 'HOST');
          }
          console.log('INSPECTED ' + seen.join(','));
          return 'inspected';
        };
        Promise.reject(reason);
        await tools.search('a turn for the rejection tracker');
        await tools.search('another turn');
        return 'done';
      `);
      expect(result).toMatchObject({ ok: true, value: 'done' });
      expect(result.logs.filter((log) => log.text.includes('HOST'))).toEqual([]);
    });
  });

  describe('realm: values crossing as JSON', () => {
    it('returns a __proto__ key as plain data without polluting the parent', async () => {
      const result = await runBody(`
        return JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "a": 1}');
      `);
      expect(result.ok).toBe(true);
      const value = result.ok ? (result.value as Record<string, unknown>) : {};
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(value.polluted).toBeUndefined();
      expect(value.a).toBe(1);
    });

    it('hands bridge arguments holding __proto__ to the handler as data, polluting nothing', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `return await tools.call('mcp:weather:get_forecast', JSON.parse('{"__proto__": {"polluted": "yes"}, "city": "Oslo"}'));`,
        bridge,
      );
      expect(result.ok).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(calls).toHaveLength(1);
      const args = calls[0]?.args[1] as Record<string, unknown>;
      expect(args.city).toBe('Oslo');
      expect(args.polluted).toBeUndefined();
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    });

    it('reports a BigInt result as a runtime error instead of crossing it', async () => {
      const result = await runBody('return 10n;');
      expect(result).toMatchObject({ ok: false, error: { code: 'runtime' } });
    });

    it('reports a body that throws as runtime, keeping the message', async () => {
      const result = await runBody("throw new Error('model code failed here');");
      expect(result.ok).toBe(false);
      expect(result.ok ? undefined : result.error.code).toBe('runtime');
      expect(result.ok ? '' : result.error.message).toContain('model code failed here');
    });

    it('reports unbounded recursion as runtime (RangeError), not a crash', async () => {
      const result = await runBody('const dive = (depth) => dive(depth + 1) + 1; return dive(0);');
      expect(result.ok).toBe(false);
      expect(result.ok ? undefined : result.error.code).toBe('runtime');
      expect(result.ok ? '' : result.error.message).toContain(
        perEngine(engine, { node: 'Maximum call stack size exceeded', quickjs: 'InternalError: stack overflow' }),
      );
    });
  });

  describe('realm: syntax', () => {
    it('reports a syntax error as syntax without running anything', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody("tools.search('before'); return (;", bridge);
      expect(result).toMatchObject({ ok: false, error: { code: 'syntax' } });
      expect(calls).toEqual([]);
    });

    it('treats a wrapper break-out valid in both wrappers (regex/division after the brace) as a syntax error', async () => {
      // In "(async function … {BODY})" and "[async function … {BODY}]" alike, "} /1/[0], X, function () {" is a
      // division, a comma expression / array element X, and a trailing function: valid both ways, and X would run
      // at the script's top level, outside the body function.
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody("return 1; } /1/[0], tools.search('outside the wrapper'), function () {", bridge);
      expect(result).toMatchObject({ ok: false, error: { code: 'syntax' } });
      expect(calls).toEqual([]);
    });

    it('treats a body that closes the wrapper function early as a syntax error', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody("return 1; }); tools.search('outside the wrapper'); (async function () {", bridge);
      expect(result).toMatchObject({ ok: false, error: { code: 'syntax' } });
      expect(calls).toEqual([]);
    });
  });

  describe('realm: red-team findings', () => {
    it('keeps the call tuple intact when the body patches Array.prototype.toJSON', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        "Array.prototype.toJSON = function () { return 'reshaped'; }; return await tools.call('mcp:weather:get_forecast', { city: 'Oslo' });",
        bridge,
      );
      expect(result).toMatchObject({ ok: true, value: { echo: { city: 'Oslo' } } });
      expect(calls.map((call) => call.args)).toEqual([['mcp:weather:get_forecast', { city: 'Oslo' }]]);
    });

    it('shows no host frame names in the stack of a bridge rejection, not even to Error.prepareStackTrace', async () => {
      const { bridge } = createRecordingBridge({
        call: async () => {
          throw new Error('handler refused');
        },
      });
      const result = await runBody(
        `
        const names = [];
        Error.prepareStackTrace = (error, frames) => {
          for (const frame of frames) names.push(String(frame.getFunctionName?.()) + '@' + String(frame.getFileName?.()));
          return 'prepared';
        };
        try { await tools.call('mcp:weather:get_forecast', {}); } catch (error) { return { stack: error.stack, names }; }
      `,
        bridge,
      );
      expect(result.ok && result.value).toEqual({ stack: 'Error: handler refused', names: [] });
    });

    it('has no Atomics.waitAsync, which would be a timer', async () => {
      const result = await runBody("return typeof globalThis.Atomics === 'undefined' ? 'no Atomics' : typeof Atomics.waitAsync;");
      expect(result.ok && result.value).toBe(perEngine(engine, { node: 'undefined', quickjs: 'no Atomics' }));
    });
  });
});
