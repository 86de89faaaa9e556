// @ts-check
// The QuickJS engine's worker program, run with `new Worker(source, { eval: true })` (CommonJS, nothing read from
// the package at run time but the QuickJS packages themselves). The worker is trusted host code; the body runs
// inside a QuickJS context in WebAssembly memory and reaches the worker only through the four host functions of
// the realm runtime, which take and return primitives. One worker serves one run at a time, each in a fresh
// QuickJS runtime and context; the WebAssembly instance is replaced when a run broke it or grew its memory.
// Checked JavaScript run as text: scripts/generate-guest-sources.ts inlines it verbatim (src/internal/guest-sources.ts).
//
// Source of the worker program. Its `workerData` is `QuickJsWorkerData` (see create-quickjs-engine.ts).
'use strict';
const threads = require('node:worker_threads');
// A worker program: it always has a parent port.
const parentPort = /** @type {import('node:worker_threads').MessagePort} */ (threads.parentPort);
const workerData = threads.workerData;
const core = require(workerData.corePath);
const baseVariant = require(workerData.variantPath).default;
const measureJsonText = new Function('return (' + workerData.measureSource + ')')();
// Every body of this worker runs on this thread: below the host's priority (see lower-thread-priority.ts).
new Function('return (' + workerData.lowerPrioritySource + ')')()(require('node:os'), workerData.niceIncrement);
const LIMITS = workerData.limits;
const REALM_LIMITS = workerData.realmLimits;
// [0]: the parent asks the body to stop. [1]: this worker is about to start the run's body (see the 'run' message).
const abortFlag = new Int32Array(workerData.abortFlag);
const ABORT_SLOT = 0;
const STARTED_SLOT = 1;
// QuickJS checks its own stack against this; it must overflow before the worker's V8 stack does (QuickJS's stack
// needs several times its size in native stack; bench/RESULTS.md), so that deep recursion is a catchable error.
const QUICKJS_STACK_BYTES = 512 * 1024;
// A run whose WebAssembly memory grew past this gets a fresh instance afterwards (memory never shrinks).
const MEMORY_REPLACE_BYTES = 32 * 1024 * 1024;

// Each instance gets its own memory with a hard maximum: QuickJS's own memory limit does not count large blocks
// in this build (arrays grew the memory far past it; bench/RESULTS.md), so the WebAssembly memory is the bound.
function newInstance() {
  const memory = new WebAssembly.Memory({ initial: 256, maximum: workerData.memoryPages });
  return core.newQuickJSWASMModuleFromVariant(core.newVariant(baseVariant, { wasmModule: workerData.wasmModule, wasmMemory: memory })).then(function (module) {
    return { module: module, memory: memory };
  });
}
// ---- The fence: everything the worker uses of quickjs-emscripten below its public API, and nothing else does. ----
// Why: a bridge call through the library's handle objects cost more than QuickJS itself spends on it (DESIGN.md,
// "The fast path, behind one fence"; bench/RESULTS.md). What: the C functions below, reached through the module's
// documented (experimental) getFFI(); the emscripten module's _malloc/_free (its `module` member); a context's and
// a runtime's pointers (their `ctx` and `rt` lifetimes). The QuickJS packages are pinned exactly
// (pnpm-workspace.yaml), each instance is checked as it is made (a release that changed any of this fails to load,
// with the reason, instead of misbehaving), and quickjs-below-api.test.ts calls each function once as the worker
// does.
const C_INTERFACE = ['QTS_Call', 'QTS_ResolveException', 'QTS_FreeValuePointer', 'QTS_FreeValuePointerRuntime', 'QTS_NewFloat64', 'QTS_NewString', 'QTS_GetString', 'QTS_FreeCString', 'QTS_ExecutePendingJob', 'QTS_IsJobPending', 'QTS_Typeof', 'QTS_Dump', 'QTS_Eval'];
/** The C functions and allocator of one instance, checked. */
function openFence(module) {
  const ffi = typeof module.getFFI === 'function' ? module.getFFI() : undefined;
  const emscripten = module.module;
  const missing = ffi === undefined ? ['getFFI()'] : C_INTERFACE.filter(function (name) { return typeof ffi[name] !== 'function'; });
  if (emscripten === undefined || typeof emscripten._malloc !== 'function' || typeof emscripten._free !== 'function') missing.push('_malloc/_free');
  if (missing.length > 0) throw new Error('this quickjs-emscripten build lacks ' + missing.join(', '));
  return { ffi: ffi, malloc: emscripten._malloc, free: emscripten._free };
}
/** A context's pointer. */
function contextPointer(context) {
  return context.ctx.value;
}
/** A runtime's pointer. */
function runtimePointer(runtime) {
  return runtime.rt.value;
}
// ---- End of the fence. ----

// The instance in use, its fence, and its memory (whose buffer is replaced whenever the memory grows).
let quickjs;
let fence;
let wasmMemory;
function useInstance(instance) {
  fence = openFence(instance.module);
  quickjs = instance.module;
  wasmMemory = instance.memory;
}
let instanceBroken = false;
let run;
// While the worker warms up, protocol lines are collected here instead of posted (see warmUp).
let warmUpLines;

function post(message) {
  parentPort.postMessage(message);
}

// A protocol line in the child's format, measured here (trusted code), so the parent parses it without
// measuring it again. The byte length is the parent's bound on what the line carried.
function postLine(text, measured) {
  if (warmUpLines !== undefined) warmUpLines.push(text);
  else post({ kind: 'line', line: text, bytes: Buffer.byteLength(text, 'utf8'), measured: measured !== false });
}

// JSON text from the realm (call arguments, a result), sized up here as the realm did before it let the text
// go: only a broken realm sends text past the caps, and that line is then marked unmeasured, so the parent
// measures it and refuses it unparsed (as it does a forged line of the Node child). Short text cannot pass a cap.
function withinCaps(json, depthLimit) {
  if (json.length <= 2 * depthLimit && json.length * 3 <= REALM_LIMITS.resultBytes) return true;
  if (json.length > REALM_LIMITS.resultBytes || Buffer.byteLength(json, 'utf8') > REALM_LIMITS.resultBytes) return false;
  return measureJsonText(json, REALM_LIMITS.maxMembers, depthLimit) === 0;
}

function aborted() {
  return Atomics.load(abortFlag, ABORT_SLOT) !== 0;
}

function dispose(state) {
  // The instance is dropped instead when the run broke it; a runtime QuickJS cannot free cleanly leaks into
  // the instance, which is then replaced as well.
  if (state === undefined || instanceBroken) return;
  try {
    state.raw.free(state.raw.scratch);
    for (const handle of state.handles) if (handle.alive) handle.dispose();
    state.context.dispose();
    state.runtime.dispose();
  } catch (_) {
    instanceBroken = true;
  }
}

// Calls into QuickJS; a host-level failure (the WebAssembly stack or memory) breaks the instance and the run.
function guarded(action) {
  try {
    return action();
  } catch (error) {
    instanceBroken = true;
    if (run !== undefined && !run.finished && warmUpLines === undefined) {
      run.finished = true;
      post({ kind: 'fatal', reason: 'the QuickJS engine failed: ' + String(error && error.message) });
    }
    return undefined;
  }
}

function prepare() {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(LIMITS.heapMb * 1024 * 1024);
  runtime.setMaxStackSize(QUICKJS_STACK_BYTES);
  const context = runtime.newContext();
  // evaluating: the body's script is being evaluated (see evaluateSingleFunction); no host function acts meanwhile.
  /** @type {{ runtime: any, context: any, handles: any[], deadline: number, finished: boolean, evaluating: boolean, settle: any, start: any, drainCalls?: any, raw: any, sourceText?: any }} */
  const state = { runtime: runtime, context: context, handles: [], deadline: Infinity, finished: false, evaluating: false, settle: undefined, start: undefined, raw: undefined };
  runtime.setInterruptHandler(function () {
    return aborted() || Date.now() > state.deadline;
  });
  // What the host needs of the fresh context, from one evaluation before any body: its JSON.stringify, the
  // original Function.prototype.toString (for the body check), and the runtime's limits and options.
  const basics = context.unwrapResult(
    context.evalCode(
      '[JSON.stringify, Function.prototype.call.bind(Function.prototype.toString), Object.freeze(' +
        JSON.stringify(REALM_LIMITS) +
        '), ({ installGlobals: true, lockCodeGeneration: true, batchCalls: true })]',
    ),
  );
  state.sourceText = context.getProp(basics, 1);
  const limits = context.getProp(basics, 2);
  const options = context.getProp(basics, 3);
  // Test-only (writeChannel): the context's JSON.stringify.
  const jsonStringify = workerData.escapedForTests ? context.getProp(basics, 0) : undefined;
  basics.dispose();
  state.handles.push(state.sourceText, limits, options);
  // For text that cannot hold a NUL (JSON.stringify escapes it): one copy, no length check. Should a broken
  // realm pass a NUL anyway, the text crosses cut short, which the parent refuses or reads as a shorter message
  // the realm could have sent whole. (The outbox's text crosses the same way: see takeOutbox.)
  const jsonTextOf = function (handle) {
    return context.typeof(handle) === 'string' ? context.getString(handle) : undefined;
  };
  const numberOf = function (handle) {
    return context.typeof(handle) === 'number' ? context.getNumber(handle) : undefined;
  };
  // Not called by the realm runtime, which queues its calls (batchCalls, see takeOutbox); it only stands in the
  // runtime's signature, so it checks what it is handed like any entry point.
  const hostCall = context.newFunction('hostCall', function (idHandle, methodHandle, argsHandle) {
    const id = numberOf(idHandle);
    const method = jsonTextOf(methodHandle);
    const argsJson = jsonTextOf(argsHandle);
    if (state.finished || state.evaluating || !Number.isSafeInteger(id) || method === undefined || argsJson === undefined) return;
    postLine('{"type":"call","id":' + id + ',"method":' + JSON.stringify(method) + ',"args":' + argsJson + '}', withinCaps(argsJson, REALM_LIMITS.maxDepth + 1));
  });
  // The realm queues log lines and its result with its calls (batchCalls) and calls these without arguments, to
  // have the queue taken at once: a log line leaves before the body goes on, and the result even while jobs the
  // body left behind keep QuickJS busy. Arguments a broken realm might pass are ignored.
  const takeNow = function () {
    if (!state.finished && !state.evaluating) takeOutbox(state);
  };
  const hostLog = context.newFunction('hostLog', takeNow);
  const hostDone = context.newFunction('hostDone', takeNow);
  const hostMeasure = context.newFunction('hostMeasure', function (jsonHandle, membersHandle, depthHandle, bytesHandle) {
    const members = numberOf(membersHandle);
    const depth = numberOf(depthHandle);
    const bytes = numberOf(bytesHandle);
    if (context.typeof(jsonHandle) !== 'string' || members === undefined || depth === undefined || bytes === undefined) return context.newNumber(3);
    return context.newNumber(measureInPlace(context, jsonHandle, members, depth, bytes));
  });
  state.handles.push(hostCall, hostLog, hostDone, hostMeasure);
  const factory = context.unwrapResult(context.evalCode(workerData.runtimeSource, 'sandbox-runtime.js'));
  state.handles.push(factory);
  const sandboxRuntime = context.unwrapResult(
    context.callFunction(factory, context.undefined, hostCall, hostLog, hostDone, hostMeasure, limits, options),
  );
  state.handles.push(sandboxRuntime);
  state.settle = context.getProp(sandboxRuntime, 'settle');
  state.start = context.getProp(sandboxRuntime, 'start');
  state.drainCalls = context.getProp(sandboxRuntime, 'drainCalls');
  state.handles.push(state.settle, state.start, state.drainCalls);
  state.raw = rawInterface(runtime, context, state);
  if (jsonStringify !== undefined) {
    state.handles.push(jsonStringify);
    // A realm string whose copy came back short (QuickJS hands strings over as C strings, which end at a NUL) is
    // taken again as its JSON text, which escapes NUL.
    const stringOf = function (handle) {
      if (context.typeof(handle) !== 'string') return undefined;
      const text = context.getString(handle);
      const lengthHandle = context.getProp(handle, 'length');
      const length = context.getNumber(lengthHandle);
      lengthHandle.dispose();
      if (text.length === length) return text;
      const json = context.callFunction(jsonStringify, context.undefined, handle);
      if (json.error) {
        json.error.dispose();
        return text;
      }
      const encoded = context.getString(json.value);
      json.value.dispose();
      return JSON.parse(encoded);
    };
    // Test-only: the body can write raw bytes onto the channel, as code that broke out of QuickJS could.
    const writeChannel = context.newFunction('writeChannel', function (textHandle) {
      const text = stringOf(textHandle);
      if (text !== undefined) post({ kind: 'chunk', text: text });
    });
    state.handles.push(writeChannel);
    context.setProp(context.global, 'writeChannel', writeChannel);
  }
  return state;
}

// Sizes up a realm string as JSON text (see measureJsonText) in the UTF-8 copy QuickJS makes of it in its own
// memory, without making a string of it here: a body that has 50 calls of a megabyte each refused would
// otherwise leave 50 MB of strings to this worker's garbage collector, whose helper threads are the process's
// and run at the host's priority: decoding here lengthened the host's event-loop stalls (bench/RESULTS.md). This
// goes below quickjs-emscripten's public API (its context's ffi and pointers), as getString itself does; the copy
// ends at the first NUL, as getString's does. Returns measureJsonText's verdict, 4 past maxBytes of UTF-8, or
// 3 when QuickJS could not make the copy.
function measureInPlace(context, handle, maxMembers, maxDepth, maxBytes) {
  const pointer = fence.ffi.QTS_GetString(contextPointer(context), handle.value);
  if (!pointer) return 3;
  try {
    const heap = new Uint8Array(wasmMemory.buffer);
    const end = heap.indexOf(0, pointer);
    if (end === -1) return 3;
    if (end - pointer > maxBytes) return 4;
    return measureJsonText(heap.subarray(pointer, end), maxMembers, maxDepth);
  } finally {
    fence.ffi.QTS_FreeCString(contextPointer(context), pointer);
  }
}

// A run's way through the worker (the body's script evaluated and started, a reply settled in the realm, the
// jobs it wakes, the queue taken out) goes straight to QuickJS's C interface with pointers, below
// quickjs-emscripten's handle objects, as measureInPlace does: those objects cost more JavaScript than QuickJS
// spends on a call itself, and a worker's JavaScript runs unoptimised until it has run a while (bench/RESULTS.md,
// "The worker on QuickJS's C interface").
// The pointers are the context's own; the scratch memory (the argument array and the job's context pointer) is
// allocated with the context and freed with it. Every path here runs inside guarded().
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

function rawInterface(runtime, context, state) {
  const pointers = [contextPointer(context), runtimePointer(runtime), context.undefined.value, context.true.value, context.false.value, state.settle.value, state.start.value, state.drainCalls.value, state.sourceText.value];
  if (pointers.some(function (pointer) { return typeof pointer !== 'number'; })) throw new Error('quickjs-emscripten handles carry no pointers');
  const scratch = fence.malloc(16);
  if (!scratch) throw new Error('no memory for the scratch area');
  return {
    ffi: fence.ffi,
    malloc: fence.malloc,
    free: fence.free,
    ctx: contextPointer(context),
    rt: runtimePointer(runtime),
    scratch: scratch,
    argv: scratch,
    jobContext: scratch + 12,
    undefined: context.undefined.value,
    true: context.true.value,
    false: context.false.value,
    settle: state.settle.value,
    start: state.start.value,
    drainCalls: state.drainCalls.value,
    sourceText: state.sourceText.value,
  };
}

function heapU8() {
  return new Uint8Array(wasmMemory.buffer);
}

function heap32() {
  return new Int32Array(wasmMemory.buffer);
}

// The first character of QuickJS's typeof of the value at 'pointer' ("number", "function", ...), as a code; 0
// when QuickJS had no memory to say.
function typeofInitial(raw, ctx, pointer) {
  const kind = raw.ffi.QTS_Typeof(ctx, pointer);
  if (!kind) return 0;
  const initial = heapU8()[kind];
  raw.free(kind);
  return initial;
}

// A value as QuickJS dumps it (its JSON, with an error's name and message), parsed; the dump's text when that
// is not JSON.
function dumpValue(raw, ctx, pointer) {
  const dumped = raw.ffi.QTS_Dump(ctx, pointer);
  const text = dumped ? cStringText(dumped) : 'unknown error';
  if (dumped) raw.ffi.QTS_FreeCString(ctx, dumped);
  try {
    return JSON.parse(text);
  } catch (_) {
    return text;
  }
}

// The text of a C string QuickJS made (UTF-8, up to its NUL).
function cStringText(pointer) {
  const heap = heapU8();
  const end = heap.indexOf(0, pointer);
  return utf8Decoder.decode(heap.subarray(pointer, end === -1 ? pointer : end));
}

// 'text' as a C string in QuickJS's memory (UTF-8, then a NUL): { pointer, bytes } for the caller to free, or
// undefined when there is no memory left for it.
function newCString(raw, text) {
  const bytes = Buffer.byteLength(text, 'utf8');
  const pointer = raw.malloc(bytes + 1);
  if (!pointer) return undefined;
  const written = utf8Encoder.encodeInto(text, new Uint8Array(wasmMemory.buffer, pointer, bytes)).written;
  heapU8()[pointer + written] = 0;
  return { pointer: pointer, bytes: written };
}

// A realm string of 'text' (whose NUL, if any, ends it: only JSON text, which has none, and error messages
// cross this way), or undefined when QuickJS has no memory left for it.
function newRealmString(raw, text) {
  const copy = newCString(raw, text);
  if (copy === undefined) return undefined;
  const value = raw.ffi.QTS_NewString(raw.ctx, copy.pointer);
  raw.free(copy.pointer);
  const failure = raw.ffi.QTS_ResolveException(raw.ctx, value);
  if (!failure) return value;
  raw.ffi.QTS_FreeValuePointer(raw.ctx, failure);
  raw.ffi.QTS_FreeValuePointer(raw.ctx, value);
  return undefined;
}

// Calls the realm function at 'fn' with the argument pointers given (three at most); returns the result's
// pointer (the caller frees it) or 0 when it threw (the exception is dropped: the realm's own functions catch
// what they can).
function callRaw(raw, fn, first, second, third) {
  const argv = heap32();
  argv[raw.argv >> 2] = first === undefined ? 0 : first;
  argv[(raw.argv >> 2) + 1] = second === undefined ? 0 : second;
  argv[(raw.argv >> 2) + 2] = third === undefined ? 0 : third;
  const argc = first === undefined ? 0 : second === undefined ? 1 : third === undefined ? 2 : 3;
  const result = raw.ffi.QTS_Call(raw.ctx, fn, raw.undefined, argc, raw.argv);
  const failure = raw.ffi.QTS_ResolveException(raw.ctx, result);
  if (!failure) return result;
  raw.ffi.QTS_FreeValuePointer(raw.ctx, failure);
  raw.ffi.QTS_FreeValuePointer(raw.ctx, result);
  return 0;
}

// Settles call 'id' in the realm: ok with its JSON text (or undefined), or failed with a message.
function settleInRealm(state, id, ok, text) {
  guarded(function () {
    const raw = state.raw;
    const idValue = raw.ffi.QTS_NewFloat64(raw.ctx, id);
    let payload = text === undefined ? raw.undefined : newRealmString(raw, text);
    if (payload === undefined) {
      ok = false;
      payload = newRealmString(raw, 'the bridge result does not fit in the sandbox memory');
    }
    const result = payload === undefined ? 0 : callRaw(raw, raw.settle, idValue, ok ? raw.true : raw.false, payload);
    if (result) raw.ffi.QTS_FreeValuePointer(raw.ctx, result);
    raw.ffi.QTS_FreeValuePointer(raw.ctx, idValue);
    if (payload !== undefined && payload !== raw.undefined) raw.ffi.QTS_FreeValuePointer(raw.ctx, payload);
  });
}

// The realm queues what the body sends (batchCalls: its calls, log lines and result) instead of calling a host
// function for each: a host function call costs more than the rest of a call's work in the worker. The queue
// is taken here whenever QuickJS returns to the worker, and at once when the body logs or ends (hostLog,
// hostDone), and its lines leave in the order the body made them. A call followed by a long synchronous
// stretch leaves when the body next yields. A call entry only a broken realm writes is dropped (its call never
// settles); a log level or an error code the parent does not know is its to refuse; nothing after the result is
// taken.
const CALL_METHODS = new Set(['search', 'describe', 'call']);

function takeOutbox(state) {
  if (state.finished) return;
  const raw = state.raw;
  const drained = callRaw(raw, raw.drainCalls);
  if (!drained) return;
  const pointer = raw.ffi.QTS_GetString(raw.ctx, drained);
  const text = pointer ? cStringText(pointer) : '';
  if (pointer) raw.ffi.QTS_FreeCString(raw.ctx, pointer);
  raw.ffi.QTS_FreeValuePointer(raw.ctx, drained);
  if (text === '') return;
  for (const entry of text.split('\n')) {
    const first = entry.indexOf(' ');
    const second = first === -1 ? -1 : entry.indexOf(' ', first + 1);
    const head = first === -1 ? entry : entry.slice(0, first);
    if (head === 'log') {
      const line = second === -1 ? undefined : stringFromJson(entry.slice(second + 1));
      if (line !== undefined) postLine(JSON.stringify({ type: 'log', level: entry.slice(first + 1, second), text: line }));
    } else if (head === 'done') {
      return takeDone(state, second === -1 ? entry.slice(first + 1) : entry.slice(first + 1, second), second === -1 ? undefined : entry.slice(second + 1));
    } else {
      const id = Number(head);
      const method = entry.slice(first + 1, second);
      if (first <= 0 || second === -1 || !Number.isSafeInteger(id) || !CALL_METHODS.has(method)) continue;
      const argsJson = entry.slice(second + 1);
      postLine('{"type":"call","id":' + id + ',"method":"' + method + '","args":' + argsJson + '}', withinCaps(argsJson, REALM_LIMITS.maxDepth + 1));
    }
  }
}

// The body's result: 'ok' with its JSON text (none for undefined), or an error code with its message as a JSON
// string.
function takeDone(state, code, payload) {
  state.finished = true;
  if (code === 'ok' && payload === undefined) postLine('{"type":"done","ok":true}');
  else if (code === 'ok') postLine('{"type":"done","ok":true,"value":' + payload + '}', withinCaps(payload, REALM_LIMITS.maxDepth));
  else postLine(JSON.stringify({ type: 'done', ok: false, code: code, message: (payload === undefined ? undefined : stringFromJson(payload)) || '' }));
}

function stringFromJson(json) {
  try {
    const value = JSON.parse(json);
    return typeof value === 'string' ? value : undefined;
  } catch (_) {
    return undefined;
  }
}

// Runs the pending QuickJS jobs (promise reactions) until none is left, and returns undefined, or what a job
// threw as QuickJS dumps it (an interrupt, say). A broken instance returns undefined too (guarded).
function runJobs(state) {
  let thrown;
  guarded(function () {
    const raw = state.raw;
    heap32()[raw.jobContext >> 2] = 0;
    const result = raw.ffi.QTS_ExecutePendingJob(raw.rt, -1, raw.jobContext);
    const jobContext = heap32()[raw.jobContext >> 2];
    // No job ran: the result is a plain number, made without a context.
    if (jobContext === 0) return raw.ffi.QTS_FreeValuePointerRuntime(raw.rt, result);
    // The number of jobs run, or what a job threw.
    if (typeofInitial(raw, jobContext, result) !== 110) thrown = dumpValue(raw, jobContext, result); // 'n' of "number"
    raw.ffi.QTS_FreeValuePointer(jobContext, result);
  });
  return thrown;
}

// Runs QuickJS jobs until none is left. An interrupt stops them; anything else that escapes a job ends the run
// as a runtime error.
function pump(state) {
  for (;;) {
    if (aborted() || Date.now() > state.deadline) return;
    const thrown = runJobs(state);
    if (instanceBroken) return;
    if (thrown !== undefined) {
      if (aborted() || Date.now() > state.deadline) return;
      if (!state.finished) {
        guarded(function () { takeOutbox(state); });
        state.finished = true;
        postLine(JSON.stringify({ type: 'done', ok: false, code: 'runtime', message: describeDumped(thrown) }));
      }
      return;
    }
    if (!state.raw.ffi.QTS_IsJobPending(state.raw.rt)) return guarded(function () { takeOutbox(state); });
  }
}

// A reply from the parent: settles its call in the realm and runs what that wakes.
function applyReply(state, message) {
  if (message.ok === true) settleInRealm(state, message.id, true, typeof message.json === 'string' ? message.json : undefined);
  else settleInRealm(state, message.id, false, typeof message.message === 'string' ? message.message : 'the bridge call failed');
  if (!instanceBroken) pump(state);
}

function describeDumped(dumped) {
  if (dumped && typeof dumped === 'object') {
    const name = typeof dumped.name === 'string' && dumped.name !== 'Error' ? dumped.name + ': ' : '';
    return (name + String(dumped.message)).slice(0, LIMITS.logLineBytes);
  }
  return String(dumped).slice(0, LIMITS.logLineBytes);
}

function postSyntax(state, message) {
  state.finished = true;
  postLine(JSON.stringify({ type: 'done', ok: false, code: 'syntax', message: String(message).slice(0, LIMITS.logLineBytes) }));
}

// QuickJS's Function constructors compile by concatenating source text, so a body could close the function and
// run code at the top level. The body's script is evaluated once, in the run's own context, and must yield one
// function whose source text (read with the context's original Function.prototype.toString, captured before any
// body) is the whole wrapper: only a script that is that one function expression can yield it, and evaluating
// such a script runs none of the body. A script that yields anything else is a syntax error, and whatever its
// top level did meanwhile stays in the context, which is thrown away: the host functions do nothing while it
// is evaluated, nor while what it threw is dumped (no log line, no result), and what it queued is never taken
// (the run ends first). That top level has exactly what the body would have had (the same realm, limits and
// deadline), so evaluating it here rather than in a throwaway context (a second compile on every warm run;
// bench/RESULTS.md) gives it nothing more. Returns { body } (a value pointer the caller frees) or { problem } (the
// syntax error message).
function evaluateSingleFunction(state, source, functionText) {
  const raw = state.raw;
  const script = newCString(raw, source);
  if (script === undefined) return { problem: 'the body does not fit in the sandbox memory' };
  // Still evaluating while a thrown value is dumped: its toJSON is top-level code too.
  state.evaluating = true;
  try {
    const result = raw.ffi.QTS_Eval(raw.ctx, script.pointer, script.bytes, 'sandbox-body.js', 0, 0);
    raw.free(script.pointer);
    const thrown = raw.ffi.QTS_ResolveException(raw.ctx, result);
    if (thrown) {
      raw.ffi.QTS_FreeValuePointer(raw.ctx, result);
      const dumped = dumpValue(raw, raw.ctx, thrown);
      raw.ffi.QTS_FreeValuePointer(raw.ctx, thrown);
      // The parser's own errors (a syntax error, or out of memory or stack for a huge body) are reported as such;
      // anything else was thrown by top-level code, which a single function expression never runs.
      const fromParser = dumped !== null && typeof dumped === 'object' && (dumped.name === 'SyntaxError' || dumped.name === 'InternalError');
      return { problem: fromParser ? describeDumped(dumped) : EARLY_CLOSE };
    }
    let single = false;
    if (typeofInitial(raw, raw.ctx, result) === 102) { // 'f' of "function"
      const text = callRaw(raw, raw.sourceText, result);
      if (text) {
        const textPointer = raw.ffi.QTS_GetString(raw.ctx, text);
        single = textPointer !== 0 && cStringText(textPointer) === functionText;
        if (textPointer) raw.ffi.QTS_FreeCString(raw.ctx, textPointer);
        raw.ffi.QTS_FreeValuePointer(raw.ctx, text);
      }
    }
    if (single) return { body: result };
    raw.ffi.QTS_FreeValuePointer(raw.ctx, result);
    return { problem: EARLY_CLOSE };
  } finally {
    state.evaluating = false;
  }
}

const EARLY_CLOSE = 'the body closes its function early: it must be the body of one async function';

function startBody(state, code) {
  const functionText = 'async function (tools, console) {\n' + code + '\n}';
  const source = "'use strict';(" + functionText + ')';
  guarded(function () {
    const raw = state.raw;
    const evaluated = evaluateSingleFunction(state, source, functionText);
    if (run === undefined || state.finished) {
      if (evaluated.body !== undefined) raw.ffi.QTS_FreeValuePointer(raw.ctx, evaluated.body);
      return;
    }
    if (evaluated.problem !== undefined) return postSyntax(state, evaluated.problem);
    const started = callRaw(raw, raw.start, evaluated.body);
    raw.ffi.QTS_FreeValuePointer(raw.ctx, evaluated.body);
    if (started) raw.ffi.QTS_FreeValuePointer(raw.ctx, started);
  });
}

function release() {
  const state = run;
  run = undefined;
  dispose(state);
  let grown = false;
  try {
    grown = wasmMemory.buffer.byteLength > MEMORY_REPLACE_BYTES;
  } catch (_) {
    grown = true;
  }
  const replace = instanceBroken || grown;
  const finish = function () {
    Atomics.store(abortFlag, ABORT_SLOT, 0);
    post({ kind: 'released', replaced: replace });
  };
  if (!replace) return finish();
  instanceBroken = false;
  newInstance().then(function (fresh) {
    useInstance(fresh);
    finish();
  }).catch(function (error) {
    post({ kind: 'fatal', reason: 'could not create a fresh QuickJS instance: ' + String(error && error.message) });
  });
}

parentPort.on('message', function (message) {
  if (message.type === 'prepare') {
    const state = guarded(prepare);
    if (state === undefined) {
      post({ kind: 'fatal', reason: 'the QuickJS context could not be prepared' });
      return;
    }
    run = state;
    Atomics.store(abortFlag, STARTED_SLOT, 0);
    postLine(JSON.stringify({ type: 'ready', version: workerData.version }));
  } else if (message.type === 'run' && run !== undefined && run.deadline === Infinity && typeof message.code === 'string') {
    // A backstop only: the parent's wall-clock timer ends the run first and stops it through the abort flag.
    run.deadline = Date.now() + LIMITS.timeoutMs;
    // The Node child's 'started' line, as a flag the parent reads with the next line or when the worker ends:
    // set before any body output, it saves the parent a wake-up per run.
    Atomics.store(abortFlag, STARTED_SLOT, 1);
    startBody(run, message.code);
    // After a syntax error nothing of the body's script runs any further (its jobs stay queued until release).
    if (run !== undefined && !run.finished) pump(run);
  } else if (message.type === 'reply' && run !== undefined && run.deadline !== Infinity && Number.isSafeInteger(message.id)) {
    if (!run.finished) applyReply(run, message);
  } else if (message.type === 'release') {
    release();
  }
});

// A body that takes every path a run takes (a bridge call and its reply, a log, a result), answered here. Kept
// short: the first lease of a new worker waits for it (a long warm-up held a fresh worker's first run for
// seconds on a loaded machine; bench/RESULTS.md); what it buys is that no real run is the first to go through
// that host code and the WebAssembly functions behind it.
const WARM_UP_BODY = "await tools.call('warm:up:call', { i: 1 }); await tools.describe('warm:up:tool'); console.log('warm', { up: true }); return { warm: true };";
const WARM_UP_ROUNDS = 8;

// Runs 'body' in a throwaway context, replying to its calls in the worker for up to 'rounds' rounds, so that the
// first real runs find the host code on their path (QuickJS's bindings, this program) compiled by V8 rather
// than pay for that themselves. Nothing of it reaches the parent; the context is freed like any other.
function warmUp(body, rounds) {
  warmUpLines = [];
  run = guarded(prepare);
  if (run !== undefined) {
    run.deadline = Date.now() + 10000;
    startBody(run, body);
    if (run !== undefined) pump(run);
    for (let round = 0; round < rounds && run !== undefined && !run.finished; round += 1) {
      const lines = warmUpLines.splice(0);
      let replied = false;
      for (const line of lines) {
        const message = JSON.parse(line);
        if (message.type !== 'call') continue;
        settleInRealm(run, message.id, true, JSON.stringify(message.args));
        replied = true;
      }
      if (!replied) break;
      pump(run);
    }
    if (run !== undefined) {
      run.finished = true;
      dispose(run);
    }
    run = undefined;
  }
  warmUpLines = undefined;
}

// The process's tier-up worker (see start-quickjs-tier-up.ts) runs this in 'tierUpContexts' fresh contexts and
// ends: it serves no run. A loop of calls, because V8 moves a WebAssembly function to its optimising compiler
// only after it has run a while, and the optimised code is shared by every worker of the process.
const TIER_UP_BODY = "for (let i = 0; i < 100; i += 1) await tools.call('warm:up:call', { i }); await tools.search('warm up', { limit: 3 }); await tools.describe('warm:up:tool'); console.log('warm', { up: true }); return { warm: true };";
const TIER_UP_ROUNDS = 110;

function tierUp(contexts) {
  for (let index = 0; index < contexts && !instanceBroken; index += 1) warmUp(TIER_UP_BODY, TIER_UP_ROUNDS);
  post({ kind: 'tiered', contexts: contexts });
}

newInstance().then(function (instance) {
  useInstance(instance);
  if (workerData.tierUpContexts > 0) return tierUp(workerData.tierUpContexts);
  warmUp(WARM_UP_BODY, WARM_UP_ROUNDS);
  if (!instanceBroken) return post({ kind: 'started' });
  // The warm-up broke the instance (it never should): start from a fresh one.
  instanceBroken = false;
  return newInstance().then(function (fresh) {
    useInstance(fresh);
    post({ kind: 'started' });
  });
}).catch(function (error) {
  post({ kind: 'fatal', reason: 'QuickJS could not be loaded: ' + String(error && error.message) });
});
