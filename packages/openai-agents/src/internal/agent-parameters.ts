// A surface schema as the `parameters` of an Agents SDK function tool, typed as the SDK's strict or non-strict
// JSON object schema (no cast: every field the SDK's types require is built here).
import type { FunctionTool } from '@openai/agents';
import type { ModelSurface } from '@tool-search/gateway-adapter';

type ObjectSchema = ModelSurface['tools'][number]['inputSchema'];
type Parameters = FunctionTool['parameters'];
/** The SDK's `JsonObjectSchemaStrict`: closed, every property required. */
export type StrictParameters = Extract<Parameters, { additionalProperties: false }>;
/** The SDK's `JsonObjectSchemaNonStrict`: `additionalProperties: true`. */
export type NonStrictParameters = Extract<Parameters, { additionalProperties: true }>;

const PRIMITIVE_TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'boolean']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// JSON Schema allows `true`/`false` as a property schema; the SDK's type wants objects: `{}` accepts anything,
// `{ not: {} }` nothing, as the booleans do.
function propertiesOf(schema: ObjectSchema): Record<string, Record<string, unknown>> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, isRecord(value) ? value : value === false ? { not: {} } : {}]));
}

function requiredOf(schema: ObjectSchema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : [];
}

/**
 * The schema as strict parameters when it is strict as it stands, so that the SDK's strict conversion has nothing
 * to change: closed (`additionalProperties: false`), every property required, each a primitive type (no nested
 * object, array or union). Otherwise undefined (declare it non-strict).
 */
export function strictParameters(schema: ObjectSchema): StrictParameters | undefined {
  if (schema.additionalProperties !== false) return undefined;
  const properties = propertiesOf(schema);
  const required = requiredOf(schema);
  const keys = Object.keys(properties);
  if (keys.length === 0 || keys.some((key) => !required.includes(key) || !PRIMITIVE_TYPES.has(properties[key]?.['type']))) return undefined;
  return { ...schema, type: 'object', properties, required, additionalProperties: false };
}

/** The schema as non-strict parameters: `additionalProperties: true`, as the SDK's own MCP bridge declares MCP tools. */
export function nonStrictParameters(schema: ObjectSchema): NonStrictParameters {
  return { ...schema, type: 'object', properties: propertiesOf(schema), required: requiredOf(schema), additionalProperties: true };
}
