// @ts-check
// The `tools`/`console` runtime, evaluated *inside* the body's realm (the Node child's vm context, or the QuickJS
// context) so that everything the body can touch is a realm object. The host hands in four functions (hostCall,
// hostLog, hostDone, hostMeasure) that take and return primitives only; they live in this closure and are never
// stored on anything the body can reach. Both engines evaluate this same text, so the bridge contract, the
// argument checks and the error messages are the same by construction.
// Checked JavaScript run as text: scripts/generate-guest-sources.ts inlines it verbatim (src/internal/guest-sources.ts).
//
// Source of a strict-mode function expression
// `(hostCall, hostLog, hostDone, hostMeasure, limits, options) => runtime`, where `limits` is
// `{ logLineBytes, resultBytes, inFlightCalls, maxMembers, maxDepth }` and `options` is
// `{ installGlobals, lockCodeGeneration, batchCalls }`. With `batchCalls`, calls, log lines and the result are
// not handed to the host functions but queued, one entry a line, until the host takes them with the runtime's
// `drainCalls()`: `<id> <method> <argsJson>`, `log <level> <JSON string>`, `done ok[ <resultJson>]` or
// `done <code> <JSON string>` (JSON text holds no raw newline, and no NUL to cut a C string short). `hostLog()`
// and `hostDone()` are then called without arguments, to ask the host to take the queue at once.
'use strict';
(function createSandboxRuntime(hostCall, hostLog, hostDone, hostMeasure, limits, options) {
  // Captured before the body runs, so a body that patches built-ins only confuses itself.
  const realmGlobal = globalThis;
  const RealmPromise = Promise;
  const RealmError = Error;
  const RealmTypeError = TypeError;
  const RealmRangeError = RangeError;
  const jsonStringify = JSON.stringify;
  const jsonParse = JSON.parse;
  const stringOf = String;
  const freeze = Object.freeze;
  const create = Object.create;
  const defineProperty = Object.defineProperty;
  const objectKeys = Object.keys;
  const promiseThen = Promise.prototype.then;
  const isArray = Array.isArray;
  const apply = Reflect.apply;
  const sliceString = String.prototype.slice;
  const charCodeAt = Function.prototype.call.bind(String.prototype.charCodeAt);
  const RealmEvalError = EvalError;
  const logLineBytes = limits.logLineBytes;
  const resultBytes = limits.resultBytes;
  const inFlightLimit = limits.inFlightCalls;
  const maxMembers = limits.maxMembers;
  const maxDepth = limits.maxDepth;
  const installGlobals = options.installGlobals === true;
  const lockCodeGeneration = options.lockCodeGeneration === true;
  const batchCalls = options.batchCalls === true;

  const pending = create(null);
  const waiting = create(null);
  let waitingHead = 0;
  let waitingTail = 0;
  let nextId = 1;
  let inFlight = 0;
  let finished = false;
  // With batchCalls: what the body sent since the host last drained it, one entry a line (see above).
  let outbox = '';

  function queue(entry) {
    outbox += (outbox === '' ? '' : '\n') + entry;
  }

  // Calls a host function; whatever it throws (even a host-realm error) is swallowed here, never re-thrown.
  function callHost(hostFunction, first, second, third) {
    try {
      hostFunction(first, second, third);
      return true;
    } catch (_) {
      return false;
    }
  }

  // Asks the host to size up JSON text (UTF-8 bytes, array elements + object members, depth) without parsing
  // it: 0 within the caps, 1 too many members, 2 too deep, 4 too many bytes, anything else (or a throw) a
  // failure. The host does it natively; QuickJS would count a megabyte character by character.
  function measure(json, depthLimit) {
    // Short text cannot pass any cap (each member or level takes at least two characters, each character at
    // most three bytes): no host call for it.
    if (json.length <= 2 * depthLimit && json.length * 3 <= resultBytes) return 0;
    try {
      const verdict = hostMeasure(json, maxMembers, depthLimit, resultBytes);
      return typeof verdict === 'number' ? verdict : 3;
    } catch (_) {
      return 3;
    }
  }

  // An error created while the host is on the stack (settling a call) would carry host frame names in its
  // stack, and a body's Error.prepareStackTrace would see host call sites: its stack is replaced by the message
  // before the body can read it.
  function cleanError(ErrorType, message) {
    const error = new ErrorType(message);
    defineProperty(error, 'stack', { value: error.name + ': ' + message, writable: true, configurable: true, enumerable: false });
    return error;
  }

  // One read, one value. What the body hands over (call arguments, the result) is read exactly once, by the one
  // JSON.stringify below: each getter, proxy trap, toJSON and valueOf runs once, and the text it produces is the
  // snapshot that every later check (its shape, the host's measure of bytes, members and depth) looks at and that
  // crosses to the parent unchanged. Nothing reads the live value again, so a getter, proxy or toJSON that
  // answers differently per read cannot show a check one value and the parent another.
  // The replacer bounds that one read: it sees each value exactly as JSON.stringify read it (after toJSON), reads
  // nothing of it, counts members and levels, and stops the read at the first cap passed (QuickJS's
  // JSON.stringify is quadratic in the depth: a value 100,000 levels deep took seconds). Returns the text
  // (undefined where JSON.stringify gives undefined), or a refusal { refused: 'depth' | 'members' | 'lost' |
  // 'serializable', error }; 'lost' (a member whose object is not on the path) does not happen with a
  // conforming JSON.stringify, and is refused rather than assumed.
  function snapshot(value, depthLimit) {
    // The objects being written, outermost first; null-prototype, so no accessor a body put on Array.prototype
    // or Object.prototype sees this bookkeeping.
    const path = create(null);
    let depth = 0;
    let members = 0;
    let refused;
    let atRoot = true;
    function replacer(key, child) {
      if (atRoot) atRoot = false;
      else {
        // 'this' is the object whose member this is: one of 'path', as JSON.stringify writes depth-first.
        while (depth > 0 && path[depth - 1] !== this) depth -= 1;
        if (depth === 0) throw (refused = 'lost');
        // JSON text holds every element of an array, and the members of an object but those it leaves out.
        if ((child !== undefined && typeof child !== 'function' && typeof child !== 'symbol') || isArray(this)) members += 1;
        if (members > maxMembers) throw (refused = 'members');
      }
      if (child !== null && typeof child === 'object') {
        if (depth + 1 > depthLimit) throw (refused = 'depth');
        path[depth] = child;
        depth += 1;
      }
      return child;
    }
    try {
      return jsonStringify(value, replacer);
    } catch (error) {
      return { refused: refused === undefined ? 'serializable' : refused, error: error };
    }
  }

  function truncate(text, length) {
    return text.length > length ? apply(sliceString, text, [0, length]) : text;
  }

  function rejected(error) {
    return new RealmPromise(function (_, reject) { reject(error); });
  }

  function describeError(error) {
    let text;
    try {
      if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
        const message = error.message;
        const name = error.name;
        if (typeof message === 'string') {
          text = (typeof name === 'string' && name !== '' && name !== 'Error' ? name + ': ' : '') + message;
        }
      }
      if (text === undefined) text = typeof error === 'string' ? error : stringOf(error);
    } catch (_) {
      text = 'the body threw a value that cannot be described';
    }
    return truncate(text, logLineBytes);
  }

  function send(id, method, argsJson) {
    inFlight += 1;
    if (batchCalls) queue(id + ' ' + method + ' ' + argsJson);
    else if (!callHost(hostCall, id, method, argsJson)) settle(id, false, 'the sandbox channel failed');
  }

  function drainCalls() {
    const text = outbox;
    outbox = '';
    return text;
  }

  function pump() {
    while (inFlight < inFlightLimit && waitingHead < waitingTail) {
      const next = waiting[waitingHead];
      delete waiting[waitingHead];
      waitingHead += 1;
      send(next.id, next.method, next.argsJson);
    }
  }

  function request(method, argsJson) {
    // After the body returned the child is about to die; a late call never settles and never leaves.
    if (finished) return new RealmPromise(function () {});
    let entry;
    const promise = new RealmPromise(function (resolve, reject) { entry = { resolve: resolve, reject: reject }; });
    const id = nextId;
    nextId += 1;
    pending[id] = entry;
    if (inFlight < inFlightLimit) send(id, method, argsJson);
    else {
      waiting[waitingTail] = { id: id, method: method, argsJson: argsJson };
      waitingTail += 1;
    }
    return promise;
  }

  // Settles call 'id' with a JSON string (ok) or an error message (not ok). Called by the host with primitives.
  function settle(id, ok, payload) {
    const entry = pending[id];
    if (entry === undefined) return;
    delete pending[id];
    inFlight -= 1;
    pump();
    if (ok !== true) {
      entry.reject(cleanError(RealmError, typeof payload === 'string' ? payload : 'the bridge call failed'));
      return;
    }
    let value;
    try {
      value = payload === undefined ? undefined : jsonParse(payload);
    } catch (_) {
      entry.reject(cleanError(RealmError, 'the bridge returned invalid JSON'));
      return;
    }
    entry.resolve(value);
  }

  // The JSON text of one call argument: its snapshot, or a RangeError/TypeError naming what was wrong.
  function stringifyArgument(method, value) {
    const json = snapshot(value, maxDepth);
    if (json === undefined || typeof json === 'string') return json;
    const prefix = 'tools.' + method + ' arguments ';
    if (json.refused === 'depth') throw new RealmRangeError(prefix + 'are nested more than ' + maxDepth + ' levels deep');
    if (json.refused === 'members') throw new RealmRangeError(prefix + 'hold more than ' + maxMembers + ' array elements and object members');
    if (json.refused === 'lost') throw new RealmTypeError(prefix + 'could not be measured');
    throw new RealmTypeError(prefix + 'must be JSON-serializable: ' + describeError(json.error));
  }

  // The tuple is written by hand, not with JSON.stringify([...]): a body's Array.prototype.toJSON would
  // otherwise reshape it into something the parent refuses (and the run would end as a protocol error).
  // Each element is a string (never reshaped: toJSON is only looked up on objects) or a JSON text.
  function encodeArgs(method, elements) {
    let json = '[';
    for (let index = 0; index < elements.length; index += 1) {
      if (index > 0) json += ',';
      json += elements[index];
    }
    json += ']';
    // One level for the tuple itself, so the arguments may nest as deep as a result.
    const verdict = measure(json, maxDepth + 1);
    if (verdict === 4) throw new RealmRangeError('tools.' + method + ' arguments exceed ' + resultBytes + ' bytes of JSON');
    if (verdict === 1) {
      throw new RealmRangeError('tools.' + method + ' arguments hold more than ' + maxMembers + ' array elements and object members');
    }
    if (verdict === 2) throw new RealmRangeError('tools.' + method + ' arguments are nested more than ' + maxDepth + ' levels deep');
    if (verdict !== 0) throw new RealmTypeError('tools.' + method + ' arguments could not be measured');
    return json;
  }

  function isPlainObject(value) {
    return value !== null && typeof value === 'object' && !isArray(value);
  }

  // A search answer may arrive as { hits, ...more } (the host's verdict on weak evidence, a server map): the body
  // gets the hits array with the other fields on it, not enumerable, so code that treats it as an array still works.
  function shapeSearchAnswer(value) {
    if (!isPlainObject(value) || !isArray(value.hits)) return value;
    const hits = value.hits;
    const keys = objectKeys(value);
    for (let index = 0; index < keys.length; index += 1) {
      const key = /** @type {string} */ (keys[index]);
      if (key !== 'hits' && key !== 'length') defineProperty(hits, key, { value: value[key], enumerable: false, writable: true, configurable: true });
    }
    return hits;
  }

  const tools = freeze({
    search(query, options) {
      try {
        if (typeof query !== 'string') throw new RealmTypeError('tools.search(query, options): query must be a string');
        // typeof and Array.isArray read nothing of the value (not even through a proxy's traps): an early, clear
        // refusal. What decides is the snapshot below.
        if (options !== undefined && options !== null && !isPlainObject(options)) {
          throw new RealmTypeError('tools.search(query, options): options must be an object');
        }
        const optionsJson = options === undefined || options === null ? 'null' : stringifyArgument('search', options);
        // toJSON can turn an object into anything: the snapshot must be a JSON object (its text starts with '{').
        if (typeof optionsJson !== 'string' || (optionsJson !== 'null' && charCodeAt(optionsJson, 0) !== 123)) {
          throw new RealmTypeError('tools.search(query, options): options must serialize to a JSON object');
        }
        return apply(promiseThen, request('search', encodeArgs('search', [jsonStringify(query), optionsJson])), [shapeSearchAnswer]);
      } catch (error) {
        return rejected(error);
      }
    },
    describe(id) {
      try {
        if (typeof id !== 'string') throw new RealmTypeError('tools.describe(id): id must be a string');
        return request('describe', encodeArgs('describe', [jsonStringify(id)]));
      } catch (error) {
        return rejected(error);
      }
    },
    call(id, args) {
      try {
        if (typeof id !== 'string') throw new RealmTypeError('tools.call(id, args): id must be a string');
        const argsJson = stringifyArgument('call', args === undefined ? {} : args);
        // A toJSON that returns undefined makes the arguments null, as JSON.stringify([id, args]) would.
        return request('call', encodeArgs('call', [jsonStringify(id), typeof argsJson === 'string' ? argsJson : 'null']));
      } catch (error) {
        return rejected(error);
      }
    },
  });

  function formatArgument(value) {
    if (typeof value === 'string') return value;
    if (value === undefined) return 'undefined';
    if (typeof value === 'bigint') return stringOf(value) + 'n';
    if (value !== null && typeof value === 'object') {
      if (value instanceof RealmError) return describeError(value);
      try {
        const json = jsonStringify(value);
        if (typeof json === 'string') return json;
      } catch (_) {
        // fall through to String()
      }
    }
    try {
      return stringOf(value);
    } catch (_) {
      return '[unprintable]';
    }
  }

  function writeLog(level, args) {
    if (finished) return;
    let text = '';
    for (let index = 0; index < args.length; index += 1) {
      if (index > 0) text += ' ';
      text += formatArgument(args[index]);
      if (text.length > logLineBytes) break;
    }
    // One character over the limit is enough for the parent to see the overrun and stop the run.
    const line = truncate(text, logLineBytes + 1);
    if (!batchCalls) {
      callHost(hostLog, level, line);
      return;
    }
    queue('log ' + level + ' ' + jsonStringify(line));
    callHost(hostLog);
  }

  const sandboxConsole = freeze({
    log(...args) { writeLog('log', args); },
    warn(...args) { writeLog('warn', args); },
    error(...args) { writeLog('error', args); },
  });

  function finish(kind, payload) {
    if (finished) return;
    finished = true;
    if (!batchCalls) {
      callHost(hostDone, kind, payload);
      return;
    }
    if (kind === 'ok') queue(payload === undefined ? 'done ok' : 'done ok ' + payload);
    else queue('done ' + kind + ' ' + jsonStringify(payload));
    callHost(hostDone);
  }

  async function start(body) {
    let value;
    try {
      value = await body(tools, sandboxConsole);
    } catch (error) {
      finish('runtime', describeError(error));
      return;
    }
    const json = snapshot(value, maxDepth);
    if (json !== undefined && typeof json !== 'string') {
      if (json.refused === 'depth') return finish('result_too_large', 'the result is nested more than ' + maxDepth + ' levels deep');
      if (json.refused === 'members') return finish('result_too_large', 'the result holds more than ' + maxMembers + ' array elements and object members');
      if (json.refused === 'lost') return finish('runtime', 'the result could not be measured');
      return finish('runtime', 'the result is not JSON-serializable: ' + describeError(json.error));
    }
    if (json !== undefined) {
      const verdict = measure(json, maxDepth);
      if (verdict === 4) return finish('result_too_large', 'the result is over the ' + resultBytes + '-byte limit of JSON');
      if (verdict === 1) return finish('result_too_large', 'the result holds more than ' + maxMembers + ' array elements and object members');
      if (verdict === 2) return finish('result_too_large', 'the result is nested more than ' + maxDepth + ' levels deep');
      if (verdict !== 0) return finish('runtime', 'the result could not be measured');
    }
    finish('ok', json);
  }

  function makeImportError() {
    return new RealmTypeError('import() is not available in the sandbox');
  }

  function refuseCodeGeneration() {
    throw new RealmEvalError('code generation from strings is disabled in the sandbox');
  }

  // Replaces eval and every function constructor with stand-ins that throw EvalError. The stand-ins keep the
  // original prototypes, so instanceof still works and a constructor walk ends at the stand-in 'Function'.
  function lockFunctionConstructors() {
    const prototypes = [
      Object.getPrototypeOf(function () {}),
      Object.getPrototypeOf(async function () {}),
      Object.getPrototypeOf(function* () {}),
      Object.getPrototypeOf(async function* () {}),
    ];
    const names = ['Function', 'AsyncFunction', 'GeneratorFunction', 'AsyncGeneratorFunction'];
    for (let index = 0; index < prototypes.length; index += 1) {
      const standIn = function () { return refuseCodeGeneration(); };
      defineProperty(standIn, 'name', { value: names[index] });
      defineProperty(standIn, 'prototype', { value: prototypes[index], writable: false, enumerable: false, configurable: false });
      defineProperty(prototypes[index], 'constructor', { value: standIn, writable: false, enumerable: false, configurable: false });
      if (index === 0) defineProperty(realmGlobal, 'Function', { value: standIn, writable: true, enumerable: false, configurable: true });
    }
    const evalStandIn = function () { return refuseCodeGeneration(); };
    defineProperty(evalStandIn, 'name', { value: 'eval' });
    defineProperty(realmGlobal, 'eval', { value: evalStandIn, writable: true, enumerable: false, configurable: true });
  }

  if (installGlobals) {
    // No WebAssembly at all (compilation is off too); V8's own console is replaced by ours.
    delete realmGlobal.WebAssembly;
    // Atomics.waitAsync resolves after a timeout: a timer, which the contract says the body does not have.
    if (realmGlobal.Atomics !== undefined) delete /** @type {{ waitAsync?: unknown }} */ (realmGlobal.Atomics).waitAsync;
    defineProperty(realmGlobal, 'console', { value: sandboxConsole, writable: true, configurable: true, enumerable: false });
    defineProperty(realmGlobal, 'tools', { value: tools, writable: true, configurable: true, enumerable: false });
  }
  if (lockCodeGeneration) lockFunctionConstructors();

  return freeze({ start: start, settle: settle, makeImportError: makeImportError, drainCalls: drainCalls });
});
