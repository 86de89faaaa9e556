// MCP tool annotations (the `ToolAnnotations` of the MCP spec) as policy sees them: four behaviour hints,
// each read as the value the tool states or, when it states none, the spec's default. A tool's hints
// become one small bit field, so a hint pattern costs one `&` on the hot path.
//
// The spec says a hint's default is: readOnly false, destructive true, idempotent false, openWorld true;
// destructive and idempotent are "meaningful only when readOnlyHint == false". So a read-only tool that
// states neither is read as not destructive and idempotent (it changes nothing, so repeating it changes
// nothing either), and every other tool that states nothing is read as the spec's worst case.

import type { PolicyToolAnnotations } from '../types';

/** A hint a `hint:<name>` pattern can name (canonical spelling). */
export type HintName = 'readOnly' | 'destructive' | 'idempotent' | 'openWorld';

/** Canonical hint names, in the order error messages list them. */
export const HINT_NAMES: readonly HintName[] = ['readOnly', 'destructive', 'idempotent', 'openWorld'];

/** The bit each hint sets in a tool's hint field. */
export const HINT_BITS: Readonly<Record<HintName, number>> = { readOnly: 1, destructive: 2, idempotent: 4, openWorld: 8 };

/** The annotation key that states each hint. */
const ANNOTATION_KEYS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

const HINT_BY_LOWER_CASE: ReadonlyMap<string, HintName> = new Map(HINT_NAMES.map((name) => [name.toLowerCase(), name]));

/** The hint a (lower-cased or not) name stands for, or `undefined` when there is none. */
export function toHintName(name: string): HintName | undefined {
  return HINT_BY_LOWER_CASE.get(name.toLowerCase());
}

/** Why `name` is not a hint, for a config error. */
export function describeUnknownHint(name: string): string {
  const expected = `expected one of ${HINT_NAMES.map((hint) => `'${hint}'`).join(', ')}`;
  // `hint:destructiveHint` is the likeliest slip: the annotation key instead of the hint.
  const withoutSuffix = name.toLowerCase().endsWith('hint') ? toHintName(name.slice(0, -4)) : undefined;
  if (withoutSuffix !== undefined) return `unknown hint '${name}'; write 'hint:${withoutSuffix}' (without the 'Hint' suffix)`;
  return `unknown hint '${name}'; ${expected}`;
}

/** Why `annotations` is malformed, or `undefined` when it is absent or well formed. Keys we do not read are ignored. */
export function checkAnnotationsShape(annotations: unknown): string | undefined {
  if (annotations === undefined) return undefined;
  if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations)) {
    return 'annotations must be an object when present';
  }
  const { title } = annotations as { title?: unknown };
  if (title !== undefined && typeof title !== 'string') return 'annotations.title must be a string when present';
  for (const key of ANNOTATION_KEYS) {
    const value = (annotations as Record<string, unknown>)[key];
    if (value !== undefined && typeof value !== 'boolean') return `annotations.${key} must be a boolean when present`;
  }
  return undefined;
}

/** The hint bits of well-formed annotations: each hint as stated, or as the spec's default. */
export function hintBitsOf(annotations: PolicyToolAnnotations | undefined): number {
  const readOnly = annotations?.readOnlyHint === true;
  const destructive = annotations?.destructiveHint ?? !readOnly;
  const idempotent = annotations?.idempotentHint ?? readOnly;
  const openWorld = annotations?.openWorldHint ?? true;
  return (
    (readOnly ? HINT_BITS.readOnly : 0) |
    (destructive ? HINT_BITS.destructive : 0) |
    (idempotent ? HINT_BITS.idempotent : 0) |
    (openWorld ? HINT_BITS.openWorld : 0)
  );
}

/**
 * Why a `hint:` pattern matched a tool that does not state that hint, e.g. "no annotations: MCP's default
 * destructiveHint is true", or `undefined` when every hint the pattern names is stated (or none is named).
 * A tool with no annotations is read as the spec's worst case; an operator seldom expects that.
 */
export function describeDefaultedHints(pattern: string, annotations: PolicyToolAnnotations | undefined): string | undefined {
  const defaulted: string[] = [];
  for (const [, name] of pattern.matchAll(/hint:([A-Za-z]+)/g)) {
    const hint = toHintName(name!);
    if (hint === undefined) continue;
    const key = ANNOTATION_KEYS[HINT_NAMES.indexOf(hint)]!;
    if (annotations?.[key] !== undefined) continue;
    const value = (hintBitsOf(annotations) & HINT_BITS[hint]) !== 0;
    const entry = `MCP's default ${key} is ${String(value)}`;
    if (!defaulted.includes(entry)) defaulted.push(entry);
  }
  if (defaulted.length === 0) return undefined;
  const hasAny = annotations !== undefined && ANNOTATION_KEYS.some((key) => annotations[key] !== undefined);
  return `${hasAny ? 'not stated in its annotations' : 'no annotations'}: ${defaulted.join(', ')}`;
}
