import { createHash } from 'node:crypto';
import type { JsonSchema } from '@tool-search/catalog';
import type { ArgsProblem } from '@tool-search/modes';
import type { ErrorObject, ValidateFunction } from 'ajv';
import pino, { type Logger } from 'pino';
import { DEFAULT_SCHEMA_LIMITS, type SchemaLimits } from '../shared/index.js';
import { createBoundedSchemaCompiler } from '../shared/index.js';
import { nearNames } from './near-names.js';

/**
 * The result of validating a call's final arguments against the tool's input schema. `unchecked` says why a
 * schema was not enforced (over the limits, a non-local `$ref`, not compilable): the call may go ahead and the
 * server validates its own input. The problems are data: modes words them for the model (`tool_arguments_refused`).
 */
export type ArgsValidation =
  | { ok: true; unchecked?: string }
  | { ok: false; problems: ArgsProblem[]; suggestions: Record<string, string[]> };

/** Validates final tool arguments against JSON Schema, compiling each tool's schema once. */
export interface ArgsValidator {
  validate(options: { toolId: string; schema: JsonSchema; args: Record<string, unknown> }): ArgsValidation;
}

/** Options of `createArgsValidator`. */
export interface ArgsValidatorOptions {
  /** Bounds a schema must stay within to be compiled (default `DEFAULT_SCHEMA_LIMITS`). */
  limits?: Partial<SchemaLimits>;
  /** Compiled schemas kept (least recently used first out). Default 500. */
  maxCached?: number;
  logger?: Logger;
}

interface CacheEntry {
  schema: JsonSchema;
  fingerprint: string | undefined;
  validate: ValidateFunction | undefined;
  key: object | boolean | undefined;
  unchecked: string | undefined;
}

/**
 * Creates a JSON Schema validator safe for schemas from any source: each schema is measured first (size,
 * depth, node count, `$ref` expansion, local `$ref`s only), `pattern` runs on RE2 (linear time) and schemas
 * are never registered by `$id`. An error says what was wrong and finds near parameter names for unknown or
 * missing ones. A schema outside the limits is not enforced (`unchecked`).
 */
export function createArgsValidator(options: ArgsValidatorOptions = {}): ArgsValidator {
  const limits: SchemaLimits = { ...DEFAULT_SCHEMA_LIMITS, ...options.limits };
  const maxCached = options.maxCached ?? 500;
  const log = (options.logger ?? pino({ level: 'silent' })).child({ component: 'args-validator' });
  const compiler = createBoundedSchemaCompiler(limits);
  const cache = new Map<string, CacheEntry>();

  const remember = (toolId: string, entry: CacheEntry): CacheEntry => {
    cache.delete(toolId);
    cache.set(toolId, entry);
    while (cache.size > maxCached) {
      const [oldestId, oldest] = cache.entries().next().value as [string, CacheEntry];
      cache.delete(oldestId);
      if (oldest.key !== undefined) compiler.release(oldest.key);
    }
    return entry;
  };

  const compile = (toolId: string, schema: JsonSchema): CacheEntry => {
    const cached = cache.get(toolId);
    // The host hands the same schema object on every call: identity is the fast path.
    if (cached && cached.schema === schema) return remember(toolId, cached);
    const result = compiler.compile(schema);
    if (!result.ok) {
      log.debug({ toolId, reason: result.reason }, 'schema not enforced');
      if (cached?.key !== undefined) compiler.release(cached.key);
      return remember(toolId, { schema, fingerprint: undefined, validate: undefined, key: undefined, unchecked: result.reason });
    }
    // Within the limits the schema is small enough to serialise; an equal schema in a new object reuses its code.
    const fingerprint = createHash('sha256').update(JSON.stringify(schema)).digest('base64');
    if (cached && cached.fingerprint === fingerprint && cached.validate) {
      compiler.release(result.key);
      return remember(toolId, { ...cached, schema });
    }
    if (cached?.key !== undefined) compiler.release(cached.key);
    if (result.skippedPatterns.length > 0) log.debug({ toolId, patterns: result.skippedPatterns }, 'patterns RE2 cannot run are not enforced');
    return remember(toolId, { schema, fingerprint, validate: result.validate, key: result.key, unchecked: undefined });
  };

  return {
    validate({ toolId, schema, args }) {
      const { validate, unchecked } = compile(toolId, schema);
      if (!validate) return unchecked === undefined ? { ok: true } : { ok: true, unchecked };
      if (validate(args)) return { ok: true };
      const properties = Object.keys((schema['properties'] as Record<string, unknown> | undefined) ?? {});
      const given = Object.keys(args);
      const suggestions: Record<string, string[]> = {};
      const problems = (validate.errors ?? []).slice(0, 10).map((error) => describeError(error, { properties, given, suggestions }));
      return { ok: false, problems, suggestions };
    },
  };
}

function describeError(
  error: ErrorObject,
  known: { properties: string[]; given: string[]; suggestions: Record<string, string[]> },
): ArgsProblem {
  const where = error.instancePath === '' ? 'args' : `args${error.instancePath.replace(/\//g, '.')}`;
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    const near = error.instancePath === '' ? nearNames(extra, known.properties) : [];
    if (near.length > 0) known.suggestions[extra] = near;
    return { kind: 'unknown_parameter', name: extra, where };
  }
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    if (error.instancePath === '') {
      const near = nearNames(missing, known.given.filter((name) => !known.properties.includes(name)));
      for (const name of near) known.suggestions[name] = [missing];
    }
    return { kind: 'missing_parameter', name: missing, where };
  }
  if (error.keyword === 'enum') return { kind: 'not_one_of', where, allowed: (error.params as { allowedValues: unknown[] }).allowedValues };
  // An untrusted schema's own text (a pattern, a format) appears in ajv's message: modes keeps it short.
  return { kind: 'schema', where, message: error.message };
}
