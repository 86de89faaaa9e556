// The QuickJS worker's fence (src/guest/quickjs-worker.cjs): each C function it declares, called once the way the
// worker calls it, against the pinned quickjs-emscripten packages. An upgrade that renames, drops or changes one of
// them fails here, naming it, before a run misbehaves.
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSRuntime, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUICKJS_WORKER_SOURCE } from './guest-sources.js';

/** The members the fence reads below the public API (see the worker's openFence, contextPointer, runtimePointer). */
interface BelowApi {
  ffi: Record<string, (...args: unknown[]) => number>;
  malloc(bytes: number): number;
  free(pointer: number): void;
  ctx: number;
  rt: number;
}

const declared = JSON.parse((/const C_INTERFACE = (\[[^\]]*\]);/.exec(QUICKJS_WORKER_SOURCE)?.[1] ?? '[]').replaceAll("'", '"')) as string[];

let module: QuickJSWASMModule;
let runtime: QuickJSRuntime;
let context: QuickJSContext;
let raw: BelowApi;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const heap = () => new Uint8Array(module.getWasmMemory().buffer);
const heap32 = () => new Int32Array(module.getWasmMemory().buffer);
const cString = (pointer: number) => decoder.decode(heap().subarray(pointer, heap().indexOf(0, pointer)));
function newCString(text: string): { pointer: number; bytes: number } {
  const bytes = encoder.encode(text);
  const pointer = raw.malloc(bytes.length + 1);
  heap().set(bytes, pointer);
  heap()[pointer + bytes.length] = 0;
  return { pointer, bytes: bytes.length };
}
/** QuickJS's dump of a value (its JSON), the C string freed. */
function dump(value: number): string {
  const pointer = raw.ffi['QTS_Dump']!(raw.ctx, value);
  const text = cString(pointer);
  raw.ffi['QTS_FreeCString']!(raw.ctx, pointer);
  return text;
}
function evaluate(source: string): number {
  const script = newCString(source);
  const value = raw.ffi['QTS_Eval']!(raw.ctx, script.pointer, script.bytes, 'below-api.js', 0, 0);
  raw.free(script.pointer);
  return value;
}

beforeAll(async () => {
  module = await newQuickJSWASMModuleFromVariant(variant);
  runtime = module.newRuntime();
  context = runtime.newContext();
  const below = module as unknown as { getFFI(): BelowApi['ffi']; module: { _malloc(bytes: number): number; _free(pointer: number): void } };
  const hidden = context as unknown as { ctx: { value: number } };
  raw = { ffi: below.getFFI(), malloc: below.module._malloc, free: below.module._free, ctx: hidden.ctx.value, rt: (runtime as unknown as { rt: { value: number } }).rt.value };
});

afterAll(() => {
  context.dispose();
  runtime.dispose();
});

describe('the QuickJS fence', () => {
  it('declares the C functions this test calls, no more and no fewer', () => {
    expect(declared.length).toBeGreaterThan(0);
    expect([...declared].sort()).toEqual(Object.keys(CALLS).sort());
  });

  it('reaches the allocator and the context and runtime pointers', () => {
    expect(typeof raw.malloc).toBe('function');
    expect(typeof raw.free).toBe('function');
    expect(raw.ctx).toBeGreaterThan(0);
    expect(raw.rt).toBeGreaterThan(0);
  });

  const CALLS: Record<string, () => void> = {
    QTS_Eval: () => {
      const value = evaluate('6 * 7');
      expect(dump(value)).toBe('42');
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, value);
    },
    QTS_ResolveException: () => {
      const thrown = evaluate("throw new TypeError('no')");
      const failure = raw.ffi['QTS_ResolveException']!(raw.ctx, thrown);
      expect(failure).not.toBe(0);
      expect(dump(failure)).toContain('no');
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, failure);
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, thrown);
      const fine = evaluate('1');
      expect(raw.ffi['QTS_ResolveException']!(raw.ctx, fine)).toBe(0);
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, fine);
    },
    QTS_FreeValuePointer: () => raw.ffi['QTS_FreeValuePointer']!(raw.ctx, evaluate('({})')),
    QTS_NewFloat64: () => {
      const value = raw.ffi['QTS_NewFloat64']!(raw.ctx, 2.5);
      expect(dump(value)).toBe('2.5');
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, value);
    },
    QTS_NewString: () => {
      const text = newCString('héllo');
      const value = raw.ffi['QTS_NewString']!(raw.ctx, text.pointer);
      raw.free(text.pointer);
      const back = raw.ffi['QTS_GetString']!(raw.ctx, value);
      expect(cString(back)).toBe('héllo');
      raw.ffi['QTS_FreeCString']!(raw.ctx, back);
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, value);
    },
    QTS_GetString: () => {
      const value = evaluate("'a' + 'b'");
      const pointer = raw.ffi['QTS_GetString']!(raw.ctx, value);
      expect(cString(pointer)).toBe('ab');
      raw.ffi['QTS_FreeCString']!(raw.ctx, pointer);
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, value);
    },
    QTS_FreeCString: () => {
      const value = evaluate('1');
      raw.ffi['QTS_FreeCString']!(raw.ctx, raw.ffi['QTS_Dump']!(raw.ctx, value));
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, value);
    },
    QTS_Typeof: () => {
      const value = evaluate('(function () {})');
      const kind = raw.ffi['QTS_Typeof']!(raw.ctx, value);
      expect(cString(kind)).toBe('function');
      raw.free(kind);
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, value);
    },
    QTS_Dump: () => {
      const value = evaluate("({ a: [1, 'x'] })");
      expect(JSON.parse(dump(value))).toEqual({ a: [1, 'x'] });
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, value);
    },
    QTS_Call: () => {
      const fn = evaluate('(function (x, y) { return x * y; })');
      const undefinedValue = evaluate('undefined');
      const argv = raw.malloc(8);
      const left = raw.ffi['QTS_NewFloat64']!(raw.ctx, 6);
      const right = raw.ffi['QTS_NewFloat64']!(raw.ctx, 7);
      heap32()[argv >> 2] = left;
      heap32()[(argv >> 2) + 1] = right;
      const result = raw.ffi['QTS_Call']!(raw.ctx, fn, undefinedValue, 2, argv);
      expect(raw.ffi['QTS_ResolveException']!(raw.ctx, result)).toBe(0);
      expect(dump(result)).toBe('42');
      for (const pointer of [result, left, right, undefinedValue, fn]) raw.ffi['QTS_FreeValuePointer']!(raw.ctx, pointer);
      raw.free(argv);
    },
    QTS_IsJobPending: () => {
      expect(raw.ffi['QTS_IsJobPending']!(raw.rt)).toBe(0);
      const promise = evaluate('Promise.resolve().then(function () { globalThis.ran = true; })');
      expect(raw.ffi['QTS_IsJobPending']!(raw.rt)).not.toBe(0);
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, promise);
    },
    QTS_ExecutePendingJob: () => {
      const promise = evaluate('Promise.resolve().then(function () { globalThis.ran = 1; })');
      const jobContext = raw.malloc(4);
      heap32()[jobContext >> 2] = 0;
      const result = raw.ffi['QTS_ExecutePendingJob']!(raw.rt, -1, jobContext);
      const ran = heap32()[jobContext >> 2]!;
      expect(ran).not.toBe(0);
      raw.ffi['QTS_FreeValuePointer']!(ran, result);
      const check = evaluate('globalThis.ran');
      expect(dump(check)).toBe('1');
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, check);
      raw.ffi['QTS_FreeValuePointer']!(raw.ctx, promise);
      raw.free(jobContext);
    },
    QTS_FreeValuePointerRuntime: () => {
      // With no job pending, ExecutePendingJob answers a plain number made without a context: freed on the runtime.
      const jobContext = raw.malloc(4);
      heap32()[jobContext >> 2] = 0;
      const result = raw.ffi['QTS_ExecutePendingJob']!(raw.rt, -1, jobContext);
      expect(heap32()[jobContext >> 2]).toBe(0);
      raw.ffi['QTS_FreeValuePointerRuntime']!(raw.rt, result);
      raw.free(jobContext);
    },
  };

  for (const [name, call] of Object.entries(CALLS)) it(`calls ${name} as the worker does`, call);
});
