// One place where JSON Schemas from any source are compiled: limits first (check-schema-limits), then ajv
// with `pattern` and `patternProperties` run by RE2 (linear time, so a catastrophic pattern cannot hang a
// call), schemas never registered by their `$id` (one server's schema cannot be reached from another's),
// and no loader (a remote `$ref` is never fetched). A pattern RE2 cannot compile (lookaround,
// backreferences, over 1,000 characters) is not enforced; the compile result says which ones.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { RE2JS } from 're2js';
import { checkSchemaLimits, DEFAULT_SCHEMA_LIMITS, type SchemaLimits } from './check-schema-limits.js';

/** Patterns longer than this are not enforced (RE2 would accept them, but their cost is the schema author's). */
export const MAX_PATTERN_LENGTH = 1_000;

/** A compiled schema, or why it is not enforced. */
export type BoundedCompileResult =
  | { ok: true; validate: ValidateFunction; skippedPatterns: string[]; key: object | boolean }
  | { ok: false; reason: string };

/** Compiles schemas within limits; `release` drops a compiled schema from ajv's own cache. */
export interface BoundedSchemaCompiler {
  compile(schema: unknown): BoundedCompileResult;
  /** Drops what ajv cached for a compiled schema (the `key` of its result). */
  release(key: object | boolean): void;
}

// ajv-formats is CommonJS: depending on the loader its default export is the plugin or a namespace holding it.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

/** Creates a compiler; every schema it compiles shares one ajv instance (compiled code is cached by ajv per object). */
export function createBoundedSchemaCompiler(limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS): BoundedSchemaCompiler {
  // The engine is called while ajv compiles (synchronously): patterns it could not use are collected here.
  let skipped: string[] = [];
  const engine = Object.assign(
    (pattern: string) => {
      const compiled = compilePattern(pattern);
      if (compiled === undefined) {
        skipped.push(pattern.slice(0, 200));
        return { test: () => true };
      }
      return { test: (text: string) => compiled.test(text) };
    },
    { code: 're2js' },
  );
  // Made on the first compile: a connection whose tools declare no output schema never needs one (and a host
  // starting many servers does not build an ajv with its formats for each before they answer).
  let created: Ajv | undefined;
  const ajv = (): Ajv => {
    if (created === undefined) {
      created = new Ajv({ allErrors: true, strict: false, validateFormats: true, addUsedSchema: false, logger: false, code: { regExp: engine } });
      addFormats(created);
    }
    return created;
  };

  return {
    compile(schema) {
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
        return typeof schema === 'boolean' ? compileChecked(schema) : { ok: false, reason: 'schema is not an object' };
      }
      const problem = checkSchemaLimits(schema, limits);
      if (problem !== undefined) return { ok: false, reason: problem };
      // Tools declare various drafts; the keywords we check are shared, so the draft marker is dropped.
      const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
      return compileChecked(rest);
    },
    release(key) {
      if (typeof key === 'boolean' || created === undefined) return;
      try {
        created.removeSchema(key);
      } catch {
        // not cached: nothing to release
      }
    },
  };

  function compileChecked(schema: object | boolean): BoundedCompileResult {
    skipped = [];
    try {
      const validate = ajv().compile(schema);
      return { ok: true, validate, skippedPatterns: skipped, key: schema };
    } catch (error) {
      return { ok: false, reason: `schema does not compile: ${(error instanceof Error ? error.message : String(error)).slice(0, 200)}` };
    }
  }
}

/** The RE2 form of an ECMAScript pattern, or `undefined` when RE2 cannot run it. */
function compilePattern(pattern: string): RE2JS | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return undefined;
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch {
    return undefined;
  }
}
