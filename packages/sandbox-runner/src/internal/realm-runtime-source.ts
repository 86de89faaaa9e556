// The `tools`/`console` runtime, evaluated *inside* the body's vm context so that everything the body can touch
// is a realm object. The host hands in three functions (hostCall, hostLog, hostDone) that take and return
// primitives only; they live in this closure and are never stored on anything the body can reach.
// Kept as plain JavaScript text (not compiled TypeScript) because it is evaluated by the child verbatim.

/** Source of a strict-mode function expression `(hostCall, hostLog, hostDone, limits..., installGlobals) => runtime`. */
export const REALM_RUNTIME_SOURCE = String.raw`'use strict';
(function createSandboxRuntime(hostCall, hostLog, hostDone, logLineBytes, resultBytes, inFlightLimit, installGlobals) {
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
  const isArray = Array.isArray;
  const apply = Reflect.apply;
  const sliceString = String.prototype.slice;
  const charCodeAt = Function.prototype.call.bind(String.prototype.charCodeAt);

  const pending = create(null);
  const waiting = create(null);
  let waitingHead = 0;
  let waitingTail = 0;
  let nextId = 1;
  let inFlight = 0;
  let logCount = 0;
  let finished = false;

  // Calls a host function; whatever it throws (even a host-realm error) is swallowed here, never re-thrown.
  function callHost(hostFunction, first, second, third) {
    try {
      hostFunction(first, second, third);
      return true;
    } catch (_) {
      return false;
    }
  }

  function truncate(text, length) {
    return text.length > length ? apply(sliceString, text, [0, length]) : text;
  }

  // UTF-8 bytes of a string, as the parent will count them (JSON text holds no lone surrogates).
  function utf8Length(text) {
    let bytes = 0;
    for (let index = 0; index < text.length; index += 1) {
      const code = charCodeAt(text, index);
      if (code < 0x80) bytes += 1;
      else if (code < 0x800) bytes += 2;
      else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
        bytes += 4;
        index += 1;
      } else bytes += 3;
    }
    return bytes;
  }

  // Only strings that could be over the limit are measured (one UTF-16 unit is at most three UTF-8 bytes).
  function jsonBytesOver(json, limit) {
    if (json.length > limit) return true;
    return json.length * 3 > limit && utf8Length(json) > limit;
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
    if (!callHost(hostCall, id, method, argsJson)) settle(id, false, 'the sandbox channel failed');
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
      entry.reject(new RealmError(typeof payload === 'string' ? payload : 'the bridge call failed'));
      return;
    }
    let value;
    try {
      value = payload === undefined ? undefined : jsonParse(payload);
    } catch (_) {
      entry.reject(new RealmError('the bridge returned invalid JSON'));
      return;
    }
    entry.resolve(value);
  }

  function encodeArgs(method, args) {
    let json;
    try {
      json = jsonStringify(args);
    } catch (error) {
      throw new RealmTypeError('tools.' + method + ' arguments must be JSON-serializable: ' + describeError(error));
    }
    if (typeof json !== 'string') throw new RealmTypeError('tools.' + method + ' arguments must be JSON-serializable');
    if (jsonBytesOver(json, resultBytes)) {
      throw new RealmRangeError('tools.' + method + ' arguments exceed ' + resultBytes + ' bytes of JSON');
    }
    return json;
  }

  function isPlainObject(value) {
    return value !== null && typeof value === 'object' && !isArray(value);
  }

  const tools = freeze({
    search(query, options) {
      try {
        if (typeof query !== 'string') throw new RealmTypeError('tools.search(query, options): query must be a string');
        if (options !== undefined && options !== null && !isPlainObject(options)) {
          throw new RealmTypeError('tools.search(query, options): options must be an object');
        }
        const json = encodeArgs('search', [query, options === undefined ? null : options]);
        // toJSON can turn an object into anything: check what will actually cross.
        const crossing = jsonParse(json)[1];
        if (crossing !== null && !isPlainObject(crossing)) {
          throw new RealmTypeError('tools.search(query, options): options must serialize to a JSON object');
        }
        return request('search', json);
      } catch (error) {
        return rejected(error);
      }
    },
    describe(id) {
      try {
        if (typeof id !== 'string') throw new RealmTypeError('tools.describe(id): id must be a string');
        return request('describe', encodeArgs('describe', [id]));
      } catch (error) {
        return rejected(error);
      }
    },
    call(id, args) {
      try {
        if (typeof id !== 'string') throw new RealmTypeError('tools.call(id, args): id must be a string');
        return request('call', encodeArgs('call', [id, args === undefined ? {} : args]));
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
    logCount += 1;
    let text = '';
    for (let index = 0; index < args.length; index += 1) {
      if (index > 0) text += ' ';
      text += formatArgument(args[index]);
      if (text.length > logLineBytes) break;
    }
    // One character over the limit is enough for the parent to see the overrun and stop the run.
    callHost(hostLog, level, truncate(text, logLineBytes + 1));
  }

  const sandboxConsole = freeze({
    log(...args) { writeLog('log', args); },
    warn(...args) { writeLog('warn', args); },
    error(...args) { writeLog('error', args); },
  });

  function finish(kind, payload) {
    if (finished) return;
    finished = true;
    callHost(hostDone, kind, payload);
  }

  async function start(body) {
    let value;
    try {
      value = await body(tools, sandboxConsole);
    } catch (error) {
      finish('runtime', describeError(error));
      return;
    }
    let json;
    try {
      json = jsonStringify(value);
    } catch (error) {
      finish('runtime', 'the result is not JSON-serializable: ' + describeError(error));
      return;
    }
    if (json !== undefined && jsonBytesOver(json, resultBytes)) {
      finish('result_too_large', 'the result is over the ' + resultBytes + '-byte limit of JSON');
      return;
    }
    finish('ok', json);
  }

  function makeImportError() {
    return new RealmTypeError('import() is not available in the sandbox');
  }

  if (installGlobals) {
    // No WebAssembly at all (compilation is off too); V8's own console is replaced by ours.
    delete realmGlobal.WebAssembly;
    defineProperty(realmGlobal, 'console', { value: sandboxConsole, writable: true, configurable: true, enumerable: false });
    defineProperty(realmGlobal, 'tools', { value: tools, writable: true, configurable: true, enumerable: false });
  }

  return freeze({ start: start, settle: settle, makeImportError: makeImportError });
})`;
