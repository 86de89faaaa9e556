import type { ModelError } from '@tool-search/modes';

/** The arguments for the target tool of a `tool_call`, possibly repaired, or why they cannot be read. */
export type RepairedArgs =
  | { ok: true; args: Record<string, unknown>; repair?: 'flattened' | 'alias' | 'json-string' }
  | { ok: false; error: ModelError };

const ALIASES = ['arguments', 'input', 'params', 'parameters'] as const;

/**
 * Reads the target arguments of a `tool_call` whose payload is `{ id, args }`. Repairs, only when
 * unambiguous: flattened arguments (`{ id, title }` becomes `args: { title }`), a common alias key
 * (`arguments`, `input`, `params`, `parameters`) the tool does not itself declare, and `args` sent as a
 * JSON string. `toolProperties` are the target's declared parameter names.
 */
export function repairFlattenedArgs(payload: Record<string, unknown>, toolProperties: readonly string[]): RepairedArgs {
  const { id: _id, ...rest } = payload;
  const keys = Object.keys(rest);
  if ('args' in rest) {
    let args = rest['args'];
    let repair: 'json-string' | undefined;
    if (typeof args === 'string') {
      try {
        args = JSON.parse(args);
        repair = 'json-string';
      } catch {
        return { ok: false, error: { kind: 'call_args_not_object', received: 'non-JSON string' } };
      }
    }
    if (args === null || args === undefined) args = {};
    if (typeof args !== 'object' || Array.isArray(args)) {
      return { ok: false, error: { kind: 'call_args_not_object', received: Array.isArray(args) ? 'array' : typeof args } };
    }
    if (keys.length > 1) {
      return { ok: false, error: { kind: 'call_args_and_top_level', extras: keys.filter((key) => key !== 'args') } };
    }
    return repair ? { ok: true, args: args as Record<string, unknown>, repair } : { ok: true, args: args as Record<string, unknown> };
  }
  if (keys.length === 0) return { ok: true, args: {} };
  const only = keys[0]!;
  const aliased = rest[only];
  if (
    keys.length === 1 &&
    (ALIASES as readonly string[]).includes(only) &&
    !toolProperties.includes(only) &&
    typeof aliased === 'object' &&
    aliased !== null &&
    !Array.isArray(aliased)
  ) {
    return { ok: true, args: aliased as Record<string, unknown>, repair: 'alias' };
  }
  return { ok: true, args: rest, repair: 'flattened' };
}
