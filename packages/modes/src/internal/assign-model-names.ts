// Provider-safe, unique names for the directly visible tools. Every provider we target accepts
// `^[a-zA-Z0-9_-]{1,64}$` (OpenAI's rule; Anthropic allows up to 128), so every name is made to fit it:
// a name that already fits is kept; other characters (dots, slashes, spaces) become `_`; a name that is
// too long is cut and tagged with a hash. A name shared by several tools is qualified with the owner.
import { OPENAI_TOOL_NAME_PATTERN } from '../to-provider-tools.js';
import { compareStrings, shortHash } from './text.js';

/** The strictest tool-name rule of the supported providers. */
export const MODEL_NAME_PATTERN = OPENAI_TOOL_NAME_PATTERN;
const MAX_NAME_LENGTH = 64;

/** A tool that needs a model name; `pinned` tools (visible, client) win their name over catalog tools. */
export interface NameRequest {
  id: string;
  name: string;
  owner: string;
  pinned: boolean;
}

function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
}

/** The name with every character outside `[a-zA-Z0-9_-]` replaced and the length bounded. */
export function toSafeName(name: string): string {
  const replaced = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (replaced.length === 0) return `tool_${shortHash(name)}`;
  if (replaced.length <= MAX_NAME_LENGTH) return replaced;
  return withSuffix(replaced, `_${shortHash(name)}`);
}

/**
 * Assigns each request a unique model name, deterministically (independent of input order): pinned tools
 * first, then catalog tools, each group by id. `reserved` names (the control tools) are never assigned.
 * A catalog name shared by several catalog tools is qualified for all of them, so no tool wins by id order.
 */
export function assignModelNames(requests: readonly NameRequest[], reserved: ReadonlySet<string>): Map<string, string> {
  const ordered = [...requests].sort((left, right) =>
    left.pinned !== right.pinned ? (left.pinned ? -1 : 1) : compareStrings(left.id, right.id),
  );
  const catalogBaseCounts = new Map<string, number>();
  for (const request of ordered) {
    if (request.pinned) continue;
    const base = toSafeName(request.name);
    catalogBaseCounts.set(base, (catalogBaseCounts.get(base) ?? 0) + 1);
  }
  const taken = new Set(reserved);
  const names = new Map<string, string>();
  for (const request of ordered) {
    const base = toSafeName(request.name);
    const shared = !request.pinned && (catalogBaseCounts.get(base) ?? 0) > 1;
    let name = base;
    if (shared || taken.has(name)) name = toSafeName(`${request.owner}__${request.name}`);
    if (taken.has(name)) name = withSuffix(base, `_${shortHash(request.id)}`);
    for (let counter = 2; taken.has(name); counter += 1) name = withSuffix(base, `_${shortHash(request.id)}_${counter}`);
    taken.add(name);
    names.set(request.id, name);
  }
  return names;
}
