// Renders a JSON Schema as a compact TypeScript-like signature for search hits:
// `{ owner: string; repo: string; title: string; body?: string }`.
import { sanitizeText, truncateCodePoints } from './sanitize-text.js';
import type { JsonSchema } from './types.js';

/** Default and maximum length of a rendered signature, in characters. */
export const MAX_INPUT_SIGNATURE_LENGTH = 300;

/** Options for `renderInputSignature`. */
export interface RenderInputSignatureOptions {
  /** Default 300. */
  maxLength?: number;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const MAX_LITERAL_LENGTH = 40;
const MAX_DEPTH = 6;

interface RenderContext {
  root: JsonSchema;
  /** `$ref`s being expanded on the current path: a cycle renders as `unknown`. */
  refs: Set<string>;
  /** Nested objects deeper than this render as `{ … }` (used to shorten long signatures). */
  maxObjectDepth: number;
}

/**
 * Renders `schema` as a TypeScript-like type: required properties first, enums as literal unions, local `$ref`s
 * resolved, `unknown` where the schema cannot be rendered faithfully; at most `maxLength` (300) characters.
 */
export function renderInputSignature(schema: unknown, options: RenderInputSignatureOptions = {}): string {
  const maxLength = options.maxLength ?? MAX_INPUT_SIGNATURE_LENGTH;
  if (!isSchemaObject(schema)) return 'unknown';
  for (const maxObjectDepth of [MAX_DEPTH, 1, 0]) {
    const context: RenderContext = { root: schema, refs: new Set(), maxObjectDepth };
    const rendered = renderSchema(schema, context, 0, maxLength);
    if (rendered.length <= maxLength) return rendered;
  }
  // Still too long: keep as many top-level properties as fit.
  const context: RenderContext = { root: schema, refs: new Set(), maxObjectDepth: 0 };
  return truncateCodePoints(renderSchema(schema, context, 0, maxLength, true), maxLength);
}

function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function renderSchema(schema: unknown, context: RenderContext, depth: number, maxLength: number, cutProperties = false): string {
  if (schema === true || (isSchemaObject(schema) && Object.keys(schema).length === 0)) return 'unknown';
  if (!isSchemaObject(schema) || depth > MAX_DEPTH) return 'unknown';

  if (typeof schema.$ref === 'string') return renderRef(schema.$ref, context, depth, maxLength);
  if ('const' in schema) return renderLiteral(schema.const) ?? 'unknown';
  if (Array.isArray(schema.enum)) {
    const literals = schema.enum.map(renderLiteral);
    if (literals.length === 0 || literals.some((literal) => literal === undefined)) return 'unknown';
    return [...new Set(literals as string[])].join(' | ');
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const variants = schema[key];
    if (Array.isArray(variants) && variants.length > 0) {
      return [...new Set(variants.map((variant) => wrapUnionMember(renderSchema(variant, context, depth + 1, maxLength))))].join(' | ');
    }
  }
  if (Array.isArray(schema.allOf)) {
    // An intersection is rendered only when it is trivial; merging schemas is not faithful in general.
    return schema.allOf.length === 1 ? renderSchema(schema.allOf[0], context, depth + 1, maxLength) : 'unknown';
  }

  const type = schema.type;
  if (Array.isArray(type)) {
    const rendered = type.map((member) => wrapUnionMember(renderTyped(String(member), schema, context, depth, maxLength, cutProperties)));
    return [...new Set(rendered)].join(' | ');
  }
  if (typeof type === 'string') return renderTyped(type, schema, context, depth, maxLength, cutProperties);
  if (isSchemaObject(schema.properties)) return renderTyped('object', schema, context, depth, maxLength, cutProperties);
  if (schema.items !== undefined) return renderTyped('array', schema, context, depth, maxLength, cutProperties);
  return 'unknown';
}

function renderTyped(type: string, schema: JsonSchema, context: RenderContext, depth: number, maxLength: number, cutProperties: boolean): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return renderArray(schema, context, depth, maxLength);
    case 'object':
      return renderObject(schema, context, depth, maxLength, cutProperties);
    default:
      return 'unknown';
  }
}

function renderArray(schema: JsonSchema, context: RenderContext, depth: number, maxLength: number): string {
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple) return `[${tuple.map((item) => renderSchema(item, context, depth + 1, maxLength)).join(', ')}]`;
  if (schema.items === undefined) return 'unknown[]';
  const item = renderSchema(schema.items, context, depth + 1, maxLength);
  return /[|&]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
}

function renderObject(schema: JsonSchema, context: RenderContext, depth: number, maxLength: number, cutProperties: boolean): string {
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  if (names.length === 0) {
    const additional = schema.additionalProperties;
    if (isSchemaObject(additional) && Object.keys(additional).length > 0) {
      return `Record<string, ${renderSchema(additional, context, depth + 1, maxLength)}>`;
    }
    // Declared but empty properties read as "no parameters"; an object with no `properties` at all is open.
    return additional === false || isSchemaObject(schema.properties) ? '{}' : 'Record<string, unknown>';
  }
  if (depth > context.maxObjectDepth) return '{ … }';
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []);
  // Required first, each group in declaration order.
  const ordered = [...names.filter((name) => required.has(name)), ...names.filter((name) => !required.has(name))];
  const parts = ordered.map((name) => {
    const key = renderKey(name);
    const optional = required.has(name) ? '' : '?';
    return `${key}${optional}: ${renderSchema(properties[name], context, depth + 1, maxLength)}`;
  });
  if (!cutProperties) return `{ ${parts.join('; ')} }`;
  // Keep whole properties while they fit, then mark the rest as elided.
  const kept: string[] = [];
  for (const part of parts) {
    if (`{ ${[...kept, part].join('; ')}; … }`.length > maxLength) break;
    kept.push(part);
  }
  if (kept.length === parts.length) return `{ ${parts.join('; ')} }`;
  return kept.length === 0 ? truncateCodePoints(`{ ${parts.join('; ')} }`, maxLength) : `{ ${kept.join('; ')}; … }`;
}

function renderKey(name: string): string {
  if (IDENTIFIER.test(name)) return name;
  return JSON.stringify(sanitizeText(name, { maxLength: MAX_LITERAL_LENGTH }));
}

function renderLiteral(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value !== 'string') return undefined;
  const clean = sanitizeText(value, { maxLength: Number.MAX_SAFE_INTEGER });
  // A literal we would have to change to print is no longer faithful.
  if (clean !== value || Array.from(value).length > MAX_LITERAL_LENGTH) return undefined;
  return JSON.stringify(value);
}

function wrapUnionMember(rendered: string): string {
  return rendered.includes('=>') ? `(${rendered})` : rendered;
}

function renderRef(ref: string, context: RenderContext, depth: number, maxLength: number): string {
  // Only local JSON pointers (`#/$defs/X`, `#/definitions/X`) are resolved; anything else is unknown.
  if (!ref.startsWith('#') || context.refs.has(ref)) return 'unknown';
  let target: unknown = context.root;
  const pointer = ref.slice(1);
  if (pointer !== '') {
    if (!pointer.startsWith('/')) return 'unknown';
    for (const raw of pointer.slice(1).split('/')) {
      const segment = decodePointerSegment(raw);
      if (segment === undefined) return 'unknown';
      if (!isSchemaObject(target) || !Object.prototype.hasOwnProperty.call(target, segment)) return 'unknown';
      target = target[segment];
    }
  }
  context.refs.add(ref);
  const rendered = renderSchema(target, context, depth + 1, maxLength);
  context.refs.delete(ref);
  return rendered;
}

function decodePointerSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return undefined;
  }
}
