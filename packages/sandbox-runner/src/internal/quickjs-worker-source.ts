// The QuickJS engine's worker program, run with `new Worker(source, { eval: true })` (CommonJS, nothing read from
// the package at run time but the QuickJS packages themselves). The worker is trusted host code; the body runs
// inside a QuickJS context in WebAssembly memory and reaches the worker only through the four host functions of
// the realm runtime, which take and return primitives. One worker serves one run at a time, each in a fresh
// QuickJS runtime and context; the WebAssembly instance is replaced when a run broke it or grew its memory.
// Kept as plain JavaScript text because the worker evaluates it verbatim.

/** Source of the worker program. Its `workerData` is `QuickJsWorkerData` (see create-quickjs-engine.ts). */
export const QUICKJS_WORKER_SOURCE = String.raw`'use strict';
const { parentPort, workerData } = require('node:worker_threads');
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
// QuickJS checks its own stack against this; it must overflow before the worker's V8 stack does (measured: 1 MiB
// of QuickJS stack needs ~4 MB of native stack), so that deep recursion is a catchable error in the body.
const QUICKJS_STACK_BYTES = 512 * 1024;
// A run whose WebAssembly memory grew past this gets a fresh instance afterwards (memory never shrinks).
const MEMORY_REPLACE_BYTES = 32 * 1024 * 1024;

// Each instance gets its own memory with a hard maximum: QuickJS's own memory limit does not count large blocks
// in this build (measured: under a 64 MB limit, arrays grew the memory to its 2 GiB maximum), so the
// WebAssembly memory is the bound.
function newInstance() {
  const memory = new WebAssembly.Memory({ initial: 256, maximum: workerData.memoryPages });
  return core.newQuickJSWASMModuleFromVariant(core.newVariant(baseVariant, { wasmModule: workerData.wasmModule, wasmMemory: memory }));
}
let quickjs;
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
  const state = { runtime: runtime, context: context, handles: [], deadline: Infinity, finished: false, evaluating: false, settle: undefined, start: undefined };
  runtime.setInterruptHandler(function () {
    return aborted() || Date.now() > state.deadline;
  });
  // QuickJS hands strings over as C strings, which end at a NUL: a string whose copy came back short is taken
  // again as its JSON text (which escapes NUL), so log lines and messages cross whole.
  // What the host needs of the fresh context, from one evaluation before any body: its JSON.stringify, the
  // original Function.prototype.toString (for the body check), and the runtime's limits and options.
  const basics = context.unwrapResult(
    context.evalCode(
      '[JSON.stringify, Function.prototype.call.bind(Function.prototype.toString), Object.freeze(' +
        JSON.stringify(REALM_LIMITS) +
        '), ({ installGlobals: true, lockCodeGeneration: true, batchCalls: true })]',
    ),
  );
  const jsonStringify = context.getProp(basics, 0);
  state.sourceText = context.getProp(basics, 1);
  const limits = context.getProp(basics, 2);
  const options = context.getProp(basics, 3);
  basics.dispose();
  state.handles.push(jsonStringify, state.sourceText, limits, options);
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
  // For text that cannot hold a NUL (JSON.stringify escapes it): one copy, no length check. Should a broken
  // realm pass a NUL anyway, the text crosses cut short, which the parent refuses or reads as a shorter message
  // the realm could have sent whole.
  const jsonTextOf = function (handle) {
    return context.typeof(handle) === 'string' ? context.getString(handle) : undefined;
  };
  const numberOf = function (handle) {
    return context.typeof(handle) === 'number' ? context.getNumber(handle) : undefined;
  };
  // Not called by the realm runtime, which queues its calls (batchCalls, see postCalls); it only stands in the
  // runtime's signature, so it checks what it is handed like any entry point.
  const hostCall = context.newFunction('hostCall', function (idHandle, methodHandle, argsHandle) {
    const id = numberOf(idHandle);
    const method = jsonTextOf(methodHandle);
    const argsJson = jsonTextOf(argsHandle);
    if (state.finished || state.evaluating || !Number.isSafeInteger(id) || method === undefined || argsJson === undefined) return;
    postLine('{"type":"call","id":' + id + ',"method":' + JSON.stringify(method) + ',"args":' + argsJson + '}', withinCaps(argsJson, REALM_LIMITS.maxDepth + 1));
  });
  const hostLog = context.newFunction('hostLog', function (levelHandle, textHandle) {
    if (state.finished || state.evaluating) return;
    const level = stringOf(levelHandle);
    const text = stringOf(textHandle);
    if (level === undefined || text === undefined) return;
    postCalls(state);
    postLine(JSON.stringify({ type: 'log', level: level, text: text }));
  });
  const hostDone = context.newFunction('hostDone', function (kindHandle, payloadHandle) {
    if (state.finished || state.evaluating) return;
    const kind = stringOf(kindHandle);
    if (kind === undefined) return;
    postCalls(state);
    state.finished = true;
    const payload = kind === 'ok' ? jsonTextOf(payloadHandle) : stringOf(payloadHandle);
    if (kind === 'ok' && payload === undefined) postLine('{"type":"done","ok":true}');
    else if (kind === 'ok') postLine('{"type":"done","ok":true,"value":' + payload + '}', withinCaps(payload, REALM_LIMITS.maxDepth));
    else postLine(JSON.stringify({ type: 'done', ok: false, code: kind, message: payload === undefined ? '' : payload }));
  });
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
  if (workerData.escapedForTests) {
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
// and run at the host's priority (the 95k attack, six interleaved pairs: the host's loop-delay maximum
// 16-36 ms, median 19, when each text was decoded here; 11-26 ms, median 15, measured in place). This goes
// below quickjs-emscripten's public API (its context's ffi and pointers), as getString itself does; the copy
// ends at the first NUL, as getString's does. Returns measureJsonText's verdict, 4 past maxBytes of UTF-8, or
// 3 when QuickJS could not make the copy.
function measureInPlace(context, handle, maxMembers, maxDepth, maxBytes) {
  const pointer = context.ffi.QTS_GetString(context.ctx.value, handle.value);
  if (!pointer) return 3;
  try {
    const heap = new Uint8Array(quickjs.getWasmMemory().buffer);
    const end = heap.indexOf(0, pointer);
    if (end === -1) return 3;
    if (end - pointer > maxBytes) return 4;
    return measureJsonText(heap.subarray(pointer, end), maxMembers, maxDepth);
  } finally {
    context.ffi.QTS_FreeCString(context.ctx.value, pointer);
  }
}

// The realm queues the body's calls (batchCalls) instead of calling a host function for each: a host function
// call costs more than the rest of a call's work in the worker. They are taken here, whenever QuickJS returns
// to the worker and before any log or result line, so the lines leave in the order the body made them. A call
// followed by a long synchronous stretch leaves when the body next yields.
const CALL_METHODS = new Set(['search', 'describe', 'call']);
function postCalls(state) {
  if (state.finished) return;
  const drained = state.context.callFunction(state.drainCalls, state.context.undefined);
  if (drained.error) {
    drained.error.dispose();
    return;
  }
  const text = state.context.typeof(drained.value) === 'string' ? state.context.getString(drained.value) : '';
  drained.value.dispose();
  if (text === '') return;
  for (const entry of text.split('\n')) {
    const idEnd = entry.indexOf(' ');
    const methodEnd = entry.indexOf(' ', idEnd + 1);
    const id = Number(entry.slice(0, idEnd));
    const method = entry.slice(idEnd + 1, methodEnd);
    // Only a broken realm writes anything else: such an entry is dropped, and its call never settles.
    if (idEnd <= 0 || methodEnd === -1 || !Number.isSafeInteger(id) || !CALL_METHODS.has(method)) continue;
    const argsJson = entry.slice(methodEnd + 1);
    postLine('{"type":"call","id":' + id + ',"method":"' + method + '","args":' + argsJson + '}', withinCaps(argsJson, REALM_LIMITS.maxDepth + 1));
  }
}

// Runs QuickJS jobs (promise reactions) until none is left. An interrupt stops them; anything else that escapes
// a job ends the run as a runtime error.
function pump(state) {
  for (;;) {
    if (aborted() || Date.now() > state.deadline) return;
    const result = guarded(function () { return state.runtime.executePendingJobs(); });
    if (result === undefined) return;
    if (result.error) {
      const message = guarded(function () { return String(result.error.context.dump(result.error)); });
      result.error.dispose();
      if (aborted() || Date.now() > state.deadline) return;
      if (!state.finished) {
        guarded(function () { postCalls(state); });
        state.finished = true;
        postLine(JSON.stringify({ type: 'done', ok: false, code: 'runtime', message: describeDumped(message) }));
      }
      return;
    }
    if (!state.runtime.hasPendingJob()) return guarded(function () { postCalls(state); });
  }
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
// is evaluated (no log line, no result), and the calls it queued are never taken (the run ends first). That top
// level has exactly what the body would have had (the same realm, limits and deadline), so evaluating it here
// rather than in a throwaway context (a second compile, which cost a warm run ~0.3 ms) gives it nothing more.
// Returns { body } (a handle the caller disposes) or { problem } (the syntax error message).
function evaluateSingleFunction(state, source, functionText) {
  const context = state.context;
  state.evaluating = true;
  let result;
  try {
    result = context.evalCode(source, 'sandbox-body.js');
  } finally {
    state.evaluating = false;
  }
  if (result.error) {
    const dumped = context.dump(result.error);
    result.error.dispose();
    // The parser's own errors (a syntax error, or out of memory or stack for a huge body) are reported as such;
    // anything else was thrown by top-level code, which a single function expression never runs.
    const fromParser = dumped !== null && typeof dumped === 'object' && (dumped.name === 'SyntaxError' || dumped.name === 'InternalError');
    return { problem: fromParser ? describeDumped(dumped) : EARLY_CLOSE };
  }
  let single = false;
  if (context.typeof(result.value) === 'function') {
    const text = context.callFunction(state.sourceText, context.undefined, result.value);
    if (text.error) text.error.dispose();
    else {
      single = context.typeof(text.value) === 'string' && context.getString(text.value) === functionText;
      text.value.dispose();
    }
  }
  if (single) return { body: result.value };
  result.value.dispose();
  return { problem: EARLY_CLOSE };
}

const EARLY_CLOSE = 'the body closes its function early: it must be the body of one async function';

function startBody(state, code) {
  const functionText = 'async function (tools, console) {\n' + code + '\n}';
  const source = "'use strict';(" + functionText + ')';
  guarded(function () {
    const evaluated = evaluateSingleFunction(state, source, functionText);
    if (run === undefined || state.finished) {
      if (evaluated.body !== undefined) evaluated.body.dispose();
      return;
    }
    if (evaluated.problem !== undefined) return postSyntax(state, evaluated.problem);
    const started = state.context.callFunction(state.start, state.context.undefined, evaluated.body);
    evaluated.body.dispose();
    if (started.error) started.error.dispose();
    else started.value.dispose();
  });
}

function callInRealm(state, fn, args) {
  const handles = args.map(function (value) {
    if (typeof value === 'number') return state.context.newNumber(value);
    if (typeof value === 'boolean') return value ? state.context.true : state.context.false;
    if (typeof value === 'string') return state.context.newString(value);
    return state.context.undefined;
  });
  guarded(function () {
    const result = state.context.callFunction(fn, state.context.undefined, ...handles);
    if (result.error) result.error.dispose();
    else result.value.dispose();
  });
  for (const handle of handles) if (handle.alive && handle !== state.context.undefined && handle !== state.context.true && handle !== state.context.false) handle.dispose();
}

function release() {
  const state = run;
  run = undefined;
  dispose(state);
  let grown = false;
  try {
    grown = quickjs.getWasmMemory().buffer.byteLength > MEMORY_REPLACE_BYTES;
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
    quickjs = fresh;
    finish();
  }, function (error) {
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
    if (run.finished) return;
    if (message.ok === true) callInRealm(run, run.settle, [message.id, true, typeof message.json === 'string' ? message.json : undefined]);
    else callInRealm(run, run.settle, [message.id, false, typeof message.message === 'string' ? message.message : 'the bridge call failed']);
    pump(run);
  } else if (message.type === 'release') {
    release();
  }
});

// A body that takes every path a run takes (a bridge call and its reply, a log, a result), answered here. Kept
// short: the first lease of a new worker waits for it (measured: 60 rounds of calls held the first run of a
// fresh worker for seconds on a loaded machine); what it buys is that no real run is the first to go through
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
        callInRealm(run, run.settle, [message.id, true, JSON.stringify(message.args)]);
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
  quickjs = instance;
  if (workerData.tierUpContexts > 0) return tierUp(workerData.tierUpContexts);
  warmUp(WARM_UP_BODY, WARM_UP_ROUNDS);
  if (!instanceBroken) return post({ kind: 'started' });
  // The warm-up broke the instance (it never should): start from a fresh one.
  instanceBroken = false;
  return newInstance().then(function (fresh) {
    quickjs = fresh;
    post({ kind: 'started' });
  });
}).catch(function (error) {
  post({ kind: 'fatal', reason: 'QuickJS could not be loaded: ' + String(error && error.message) });
});
`;
