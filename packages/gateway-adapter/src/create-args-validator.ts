import type { JsonSchema } from '@tool-search/catalog';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { nearNames } from './internal/edit-distance.js';

/** The result of validating a call's final arguments against the tool's input schema. */
export type ArgsValidation = { ok: true } | { ok: false; message: string; problems: string[]; suggestions: Record<string, string[]> };

/** Validates final tool arguments against JSON Schema, compiling each schema once. */
export interface ArgsValidator {
  validate(options: { toolId: string; schema: JsonSchema; args: Record<string, unknown>; signature?: string }): ArgsValidation;
}

// ajv-formats is CommonJS: depending on the loader its default export is the plugin or a namespace holding it.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

/**
 * Creates a JSON Schema validator (ajv, all errors, formats). An error says what was wrong, suggests near
 * parameter names for unknown or missing ones, and shows the expected signature. A schema ajv cannot
 * compile is not enforced (validation is a convenience for the model; policy is the security gate).
 */
export function createArgsValidator(): ArgsValidator {
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  const compiled = new Map<string, { schemaText: string; validate: ValidateFunction | undefined }>();

  const compile = (toolId: string, schema: JsonSchema): ValidateFunction | undefined => {
    const schemaText = JSON.stringify(schema);
    const cached = compiled.get(toolId);
    if (cached && cached.schemaText === schemaText) return cached.validate;
    let validate: ValidateFunction | undefined;
    try {
      // Tools declare various drafts; the keywords we check are shared, so the draft marker is dropped.
      const { $schema: _ignored, ...rest } = schema;
      validate = ajv.compile(rest);
    } catch {
      validate = undefined;
    }
    compiled.set(toolId, { schemaText, validate });
    return validate;
  };

  return {
    validate({ toolId, schema, args, signature }) {
      const validate = compile(toolId, schema);
      if (!validate || validate(args)) return { ok: true };
      const properties = Object.keys((schema['properties'] as Record<string, unknown> | undefined) ?? {});
      const given = Object.keys(args);
      const suggestions: Record<string, string[]> = {};
      const problems = (validate.errors ?? []).slice(0, 10).map((error) => describeError(error, { properties, given, suggestions }));
      const hints = Object.entries(suggestions).map(([name, near]) => `"${name}": did you mean ${near.map((n) => `"${n}"`).join(' or ')}?`);
      const message = [
        `Invalid arguments for ${toolId}: ${problems.join('; ')}.`,
        ...(hints.length > 0 ? [hints.join(' ')] : []),
        ...(signature ? [`Expected: ${signature}`] : []),
      ].join(' ');
      return { ok: false, message, problems, suggestions };
    },
  };
}

function describeError(
  error: ErrorObject,
  known: { properties: string[]; given: string[]; suggestions: Record<string, string[]> },
): string {
  const where = error.instancePath === '' ? 'args' : `args${error.instancePath.replace(/\//g, '.')}`;
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    const near = error.instancePath === '' ? nearNames(extra, known.properties) : [];
    if (near.length > 0) known.suggestions[extra] = near;
    return `unknown parameter "${extra}"${where === 'args' ? '' : ` in ${where}`}`;
  }
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    if (error.instancePath === '') {
      const near = nearNames(missing, known.given.filter((name) => !known.properties.includes(name)));
      for (const name of near) known.suggestions[name] = [missing];
    }
    return `missing required parameter "${missing}"${where === 'args' ? '' : ` in ${where}`}`;
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.slice(0, 10).map((v) => JSON.stringify(v));
    return `${where} must be one of ${allowed.join(', ')}`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}
