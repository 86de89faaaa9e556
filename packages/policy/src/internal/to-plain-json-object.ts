// Deep-copies a value that must be a plain JSON object (tool arguments); undefined properties are
// dropped, as JSON.stringify would. Hooks and approval providers
// each get their own copy, so nothing they do to it leaks into the call; a hook's rewritten args must
// pass this check or the call is blocked.

const MAX_DEPTH = 64;

/** The copy, or a short description of why the value is not a plain JSON object. */
export type PlainJsonResult = { ok: true; value: Record<string, unknown> } | { ok: false; problem: string };

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return isPlainObject(value) ? 'an object' : `an instance of ${value.constructor?.name ?? 'a class'}`;
  return `a ${typeof value}`;
}

function copy(value: unknown, depth: number, path: string): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${path} is a non-finite number`);
    return value;
  }
  if (typeof value !== 'object') throw new Error(`${path} is ${describe(value)}, which is not JSON`);
  if (depth >= MAX_DEPTH) throw new Error(`${path} is nested deeper than ${MAX_DEPTH} levels (or is circular)`);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) throw new Error(`${path}[${index}] is a hole in a sparse array`);
      out.push(copy(value[index], depth + 1, `${path}[${index}]`));
    }
    return out;
  }
  if (!isPlainObject(value)) throw new Error(`${path} is ${describe(value)}, not a plain object`);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    // An undefined property is absent in JSON (JSON.stringify drops it); keep that reading.
    if (item === undefined) continue;
    // defineProperty, not assignment: a `__proto__` key must stay data, not become a prototype.
    Object.defineProperty(out, key, {
      value: copy(item, depth + 1, `${path}.${key}`),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Copies `value` if it is a plain JSON object (plain objects, arrays, strings, finite numbers, booleans, null). */
export function toPlainJsonObject(value: unknown): PlainJsonResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !isPlainObject(value)) {
    return { ok: false, problem: `expected a plain JSON object, received ${describe(value)}` };
  }
  try {
    return { ok: true, value: copy(value, 0, 'args') as Record<string, unknown> };
  } catch (error) {
    // A throwing getter or proxy trap lands here too: the value is not plain data.
    return { ok: false, problem: error instanceof Error ? error.message : 'the value could not be read' };
  }
}
