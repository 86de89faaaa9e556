// @ts-check
// The Node child's whole program, passed inline with `-e` (nothing is read from disk). It checks that enforcement
// is really on, builds the realm, says `ready` on fd 3, then waits for one `run` line on stdin and answers
// `started`. Checked JavaScript run as text: scripts/generate-guest-sources.ts inlines it verbatim
// (src/internal/guest-sources.ts), and buildChildBootstrap writes values into it in place of the placeholder names
// below (double underscores around capitals, declared in guest-globals.d.ts; the list of fds to close is written
// at spawn time). No comment may spell a placeholder: the first occurrence is the one replaced.
'use strict';
const LIMITS = __LIMITS__;
const ESCAPED_FOR_TESTS = __ESCAPED__;
const RUNTIME_SOURCE = __RUNTIME_SOURCE__;
const CHANNEL_FD = __CHANNEL_FD__;
const CLOSE_FDS = __CLOSE_FDS__; // CLOSE_FDS_MARKER: filled in at spawn time
const REALM_LIMITS = __REALM_LIMITS__;
const measureJsonText = __MEASURE_JSON_TEXT__;
const lowerThreadPriority = __LOWER_THREAD_PRIORITY__;
const fs = require('node:fs');
const vm = require('node:vm');

// Fds the parent's process held without close-on-exec reach this process through exec; close them first.
for (const fd of CLOSE_FDS) {
  try { fs.closeSync(fd); } catch (_) { /* already closed */ }
}

function writeChannel(text) {
  const bytes = Buffer.from(text + '\n', 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(CHANNEL_FD, bytes, offset, bytes.length - offset);
    } catch (error) {
      if (error && error.code === 'EAGAIN') continue;
      process.exit(71);
    }
  }
}

// Code that escaped the realm gets the real process and require. These close what the permission model leaves
// open to it: V8 flags (--allow-natives-syntax would hand it V8 internals), module resolution (which tells an
// existing file, ERR_ACCESS_DENIED, from a missing one, MODULE_NOT_FOUND) and facts about the host (its name,
// CPUs, users, network interfaces, the path of the Node binary in the host's checkout).
const HOST_FACT_DENIED = 'host facts are not available in the sandbox';
function deniedError(message) {
  const error = /** @type {Error & { code?: string }} */ (new Error(message));
  error.code = 'ERR_ACCESS_DENIED';
  return error;
}
function lockProperty(target, name, value) {
  Object.defineProperty(target, name, { value: value, writable: false, enumerable: true, configurable: false });
}
(function harden() {
  const nodeModule = /** @type {typeof import('node:module') & ModuleInternals} */ (require('node:module'));
  const v8 = require('node:v8');
  lockProperty(v8, 'setFlagsFromString', function setFlagsFromString() { throw deniedError('V8 flags cannot be changed in the sandbox'); });
  const builtins = new Set(nodeModule.builtinModules);
  const isBuiltin = function (request) {
    return typeof request === 'string' && (request.startsWith('node:') || builtins.has(request));
  };
  function notFound(request) {
    const error = /** @type {Error & { code?: string }} */ (new Error("Cannot find module '" + String(request) + "'"));
    error.code = 'MODULE_NOT_FOUND';
    return error;
  }
  // Only built-in modules resolve; anything else fails the same way without touching the file system.
  const resolveBuiltin = nodeModule._resolveFilename;
  nodeModule._resolveFilename = function (request) {
    if (!isBuiltin(request)) throw notFound(request);
    return resolveBuiltin.apply(this, arguments);
  };
  nodeModule._findPath = function () { return false; };
  if (typeof nodeModule.registerHooks === 'function') {
    nodeModule.registerHooks({
      resolve: function (specifier, context, nextResolve) {
        if (!isBuiltin(specifier)) throw notFound(specifier);
        return nextResolve(specifier, context);
      },
    });
  }
  if (typeof nodeModule.findPackageJSON === 'function') nodeModule.findPackageJSON = function () { return undefined; };
  nodeModule.globalPaths.length = 0;
  const os = require('node:os');
  // The body runs on this thread: below the host's priority, and escaped code cannot raise it back.
  lowerThreadPriority(os, __NICE_INCREMENT__);
  const neutral = {
    setPriority: function setPriority() { throw deniedError('the CPU priority cannot be changed in the sandbox'); },
    hostname: function () { return 'sandbox'; },
    cpus: function () { return []; },
    networkInterfaces: function () { return {}; },
    userInfo: function () { throw deniedError(HOST_FACT_DENIED); },
    homedir: function () { return '/'; },
    totalmem: function () { return 0; },
    freemem: function () { return 0; },
    availableParallelism: function () { return 1; },
    loadavg: function () { return [0, 0, 0]; },
    uptime: function () { return 0; },
    release: function () { return ''; },
    version: function () { return ''; },
    machine: function () { return ''; },
  };
  for (const name of Object.keys(neutral)) lockProperty(os, name, neutral[name]);
  // argv0 cannot be redefined: the runner spawns Node as 'node' (node-only) or as /proc/self/fd/4 (OS layer).
  lockProperty(process, 'execPath', 'node');
  process.argv.splice(0, process.argv.length, 'node');
  if (typeof process.availableMemory === 'function') lockProperty(process, 'availableMemory', function () { return 0; });
  if (typeof process.constrainedMemory === 'function') lockProperty(process, 'constrainedMemory', function () { return 0; });
  lockProperty(process.report, 'getReport', function getReport() { throw deniedError(HOST_FACT_DENIED); });
  nodeModule.syncBuiltinESMExports();
})();

// Layer 3 must really be on: a child that finds it off refuses to run anything.
function enforcementProblem() {
  const permission = process.permission;
  if (!permission || typeof permission.has !== 'function') return 'the permission model is off (no --permission)';
  for (const scope of ['fs.read', 'fs.write', 'child', 'worker', 'net', 'addon', 'wasi', 'inspector', 'ffi']) {
    let granted = false;
    try { granted = permission.has(scope) === true; } catch (_) { granted = false; }
    if (granted) return 'permission scope ' + scope + ' is granted';
  }
  for (const arg of process.execArgv) {
    if (arg.startsWith('--permission-audit') || arg.startsWith('--allow-')) return 'flag ' + arg + ' weakens the permission model';
  }
  try {
    fs.readdirSync('/');
    return 'reading the file system was not denied (audit mode?)';
  } catch (error) {
    if (!error || error.code !== 'ERR_ACCESS_DENIED') return 'reading the file system failed with ' + (error && error.code) + ', not ERR_ACCESS_DENIED';
  }
  try {
    (0, eval)('0');
    return 'code generation from strings is allowed';
  } catch (_) {
    // expected: --disallow-code-generation-from-strings
  }
  let sqlite = false;
  try { require('node:sqlite'); sqlite = true; } catch (_) { sqlite = false; }
  if (sqlite) return 'node:sqlite is available';
  let ffi = false;
  try { require('node:ffi'); ffi = true; } catch (_) { ffi = false; }
  if (ffi) return 'node:ffi is available';
  try {
    require('node:v8').setFlagsFromString('--allow-natives-syntax');
    return 'V8 flags can be changed';
  } catch (_) {
    // expected: locked above
  }
  if (Object.keys(process.env).length > 0) return 'the environment is not empty';
  return null;
}

const problem = enforcementProblem();
if (problem !== null) {
  writeChannel(JSON.stringify({ type: 'refused', reason: problem }));
  process.exit(70);
}

let finished = false;

// A body that leaves a rejected promise unhandled for a moment (const p = tools.call(...), awaited later) must
// not crash the child as Node's default would: JavaScript semantics, not a process exit. The reason is a realm
// value and is not touched.
process.on('unhandledRejection', function () {});

// Host functions handed to the realm runtime: primitives in, nothing (or a number) out, never throw.
function hostCall(id, method, argsJson) {
  if (finished || !Number.isSafeInteger(id) || typeof method !== 'string' || typeof argsJson !== 'string') return;
  writeChannel('{"type":"call","id":' + id + ',"method":' + JSON.stringify(method) + ',"args":' + argsJson + '}');
}
function hostLog(level, text) {
  if (finished || typeof level !== 'string' || typeof text !== 'string') return;
  writeChannel(JSON.stringify({ type: 'log', level: level, text: text }));
}
function hostMeasure(json, maxMembers, maxDepth, maxBytes) {
  if (typeof json !== 'string' || typeof maxMembers !== 'number' || typeof maxDepth !== 'number' || typeof maxBytes !== 'number') return 3;
  if (json.length > maxBytes || (json.length * 3 > maxBytes && Buffer.byteLength(json, 'utf8') > maxBytes)) return 4;
  return measureJsonText(json, maxMembers, maxDepth);
}
function hostDone(kind, payload) {
  if (finished || typeof kind !== 'string') return;
  finished = true;
  if (kind === 'ok') {
    writeChannel(typeof payload === 'string' ? '{"type":"done","ok":true,"value":' + payload + '}' : '{"type":"done","ok":true}');
  } else {
    writeChannel(JSON.stringify({ type: 'done', ok: false, code: kind, message: typeof payload === 'string' ? payload : '' }));
  }
}

let context;
let runtime;
if (ESCAPED_FOR_TESTS) {
  runtime = vm.runInThisContext(RUNTIME_SOURCE, { filename: 'sandbox-runtime.js' })(
    hostCall, hostLog, hostDone, hostMeasure, REALM_LIMITS, { installGlobals: false, lockCodeGeneration: false });
} else {
  context = vm.createContext(Object.create(null), {
    name: 'sandbox',
    codeGeneration: { strings: false, wasm: false },
  });
  // The limits object is a host object: the runtime reads its numbers once and keeps none of it.
  runtime = vm.runInContext(RUNTIME_SOURCE, context, { filename: 'sandbox-runtime.js' })(
    hostCall, hostLog, hostDone, hostMeasure, vm.runInContext('Object.freeze(' + JSON.stringify(REALM_LIMITS) + ')', context),
    vm.runInContext('({ installGlobals: true, lockCodeGeneration: false })', context));
}
// Read once, before any body code exists, so no getter of the body's can stand in for them.
const startBody = runtime.start;
const settleCall = runtime.settle;
const makeImportError = runtime.makeImportError;

// A throwaway realm where each body's script is evaluated once before the real one, to prove that the script is
// a single function expression: a body that closes the wrapper early (e.g. via the regex/division ambiguity after
// its closing brace) evaluates to some other value there, and is a syntax error. Code that ran in this realm
// had no tools and no host functions. (No vm 'timeout' here: its watchdog thread costs milliseconds per run; a
// break-out that loops is ended by the parent's wall-clock timeout like any other loop.)
const checkContext = vm.createContext(Object.create(null), {
  name: 'sandbox-check',
  codeGeneration: { strings: false, wasm: false },
  microtaskMode: 'afterEvaluate',
});
const checkHelpers = vm.runInContext(
  "'use strict';({ sourceText: Function.prototype.call.bind(Function.prototype.toString), makeError: function (message) { return new TypeError(message); } })",
  checkContext,
);
const checkSourceText = checkHelpers.sourceText;
const makeCheckError = checkHelpers.makeError;
/** @returns {never} */
function checkImportModuleDynamically() {
  throw makeCheckError('import() is not available in the sandbox');
}

function isSingleFunction(source, functionText) {
  try {
    const value = new vm.Script(source, { filename: 'sandbox-body-check.js', importModuleDynamically: checkImportModuleDynamically })
      .runInContext(checkContext);
    return typeof value === 'function' && checkSourceText(value) === functionText;
  } catch (_) {
    return false;
  }
}

// Compile and check a throwaway body once now, while idle, so the first real run does not pay V8's warm-up.
isSingleFunction("'use strict';(async function (tools, console) {\nreturn null;\n})", 'async function (tools, console) {\nreturn null;\n}');

/** @returns {never} */
function importModuleDynamically() {
  throw makeImportError();
}

function reportSyntax(message) {
  finished = true;
  writeChannel(JSON.stringify({ type: 'done', ok: false, code: 'syntax', message: String(message).slice(0, LIMITS.logLineBytes) }));
}

function startRun(code) {
  const params = ESCAPED_FOR_TESTS ? 'tools, console, process, require' : 'tools, console';
  const functionText = 'async function (' + params + ') {\n' + code + '\n}';
  const source = "'use strict';(" + functionText + ')';
  let script;
  try {
    script = new vm.Script(source, {
      filename: 'sandbox-body.js',
      importModuleDynamically: ESCAPED_FOR_TESTS ? undefined : importModuleDynamically,
    });
  } catch (error) {
    reportSyntax(error && error.message);
    return;
  }
  if (!isSingleFunction(source, functionText)) {
    reportSyntax('the body closes its function early: it must be the body of one async function');
    return;
  }
  let body;
  try {
    if (ESCAPED_FOR_TESTS) {
      const escapedBody = script.runInThisContext();
      body = function (tools, sandboxConsole) { return escapedBody(tools, sandboxConsole, process, require); };
    } else {
      body = script.runInContext(context);
    }
    startBody(body);
  } catch (_) {
    hostDone('runtime', 'the sandbox runtime could not start the body');
  }
}

let running = false;
function handleParentMessage(message) {
  if (message === null || typeof message !== 'object') return;
  if (message.type === 'run' && !running && typeof message.code === 'string') {
    running = true;
    // Said before the body is compiled: a death before this line reached the parent ran no model code.
    writeChannel('{"type":"started"}');
    startRun(message.code);
  } else if (message.type === 'reply' && running && Number.isSafeInteger(message.id)) {
    if (message.ok === true) settleCall(message.id, true, typeof message.json === 'string' ? message.json : undefined);
    else settleCall(message.id, false, typeof message.message === 'string' ? message.message : 'the bridge call failed');
  }
}

let inbox = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', function (chunk) {
  inbox += chunk;
  let newline;
  while ((newline = inbox.indexOf('\n')) !== -1) {
    const line = inbox.slice(0, newline);
    inbox = inbox.slice(newline + 1);
    let message;
    try { message = JSON.parse(line); } catch (_) { process.exit(72); }
    handleParentMessage(message);
  }
});
// stdin closes when the parent dies or lets go of this child: nothing left to do.
process.stdin.on('end', function () { process.exit(0); });

writeChannel(JSON.stringify({ type: 'ready', version: process.version }));
