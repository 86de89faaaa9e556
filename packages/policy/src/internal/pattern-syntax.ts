// Pattern syntax. A pattern is one of:
//   `group:<name>`            a group reference (expanded through the known groups)
//   `hint:<name>`             an MCP annotation hint (`hint:destructive`); see tool-hints.ts
//   `<glob>`                  no ':' -> matched against the tool name
//   `<source>:<owner>:<name>` three globs matched against the tool's source, owner and name fields
// `*` is the only wildcard: any run of characters within one field (it never spans fields, because
// the fields are matched separately, so a tool name containing ':' cannot pose as an id).
// Matching is case-insensitive.

import { TOOL_SOURCES } from '@tool-search/catalog';
import type { PolicySource } from '../types';
import { describeUnknownHint, toHintName, type HintName } from './tool-hints';

/** The sources an id pattern's first segment may name: the catalog's, which owns the list. */
export const POLICY_SOURCES: readonly PolicySource[] = TOOL_SOURCES;

/** A group reference: `group:` then a name of letters, digits, `_`, `.` or `-`. */
export const GROUP_REFERENCE = /^group:[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** A parsed (non-group) pattern, lower-cased (a hint in its canonical spelling). */
export type ParsedPattern =
  | { kind: 'name'; name: string }
  | { kind: 'id'; source: string; owner: string; name: string }
  | { kind: 'hint'; hint: HintName };

const HINT_PREFIX = 'hint:';

/** True when the pattern is meant as a group reference (starts with `group:`). */
export function isGroupReference(pattern: string): boolean {
  return pattern.startsWith('group:');
}

function checkGlob(segment: string, what: string): string | undefined {
  if (segment === '') return `the ${what} segment is empty`;
  if (segment.includes('**')) return `'**' is not supported (a '*' never spans ':'; use one '*' per segment)`;
  // Reject other glob syntax loudly so nobody believes it works.
  const unsupported = /[?[\]{}!]/.exec(segment);
  if (unsupported) return `'${unsupported[0]}' is not supported; '*' is the only wildcard`;
  return undefined;
}

/**
 * Parses a non-group pattern, or returns a message saying why it is invalid.
 * Group references must be handled (and resolved) by the caller.
 */
export function parsePattern(pattern: string): ParsedPattern | { error: string } {
  if (pattern.trim() === '') return { error: 'a pattern must not be empty' };
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(pattern)) return { error: 'a pattern must not contain whitespace or control characters' };
  if (pattern.toLowerCase().startsWith(HINT_PREFIX)) {
    const name = pattern.slice(HINT_PREFIX.length);
    const hint = toHintName(name);
    return hint === undefined ? { error: describeUnknownHint(name) } : { kind: 'hint', hint };
  }
  const segments = pattern.toLowerCase().split(':');
  if (segments.length === 1) {
    const problem = checkGlob(segments[0]!, 'name');
    return problem ? { error: problem } : { kind: 'name', name: segments[0]! };
  }
  if (segments.length !== 3) {
    return { error: `expected a tool name or '<source>:<owner>:<name>' (3 segments), got ${segments.length} segments` };
  }
  const [source, owner, name] = segments as [string, string, string];
  const problem = checkGlob(source, 'source') ?? checkGlob(owner, 'owner') ?? checkGlob(name, 'name');
  if (problem) return { error: problem };
  if (!source.includes('*') && !(POLICY_SOURCES as readonly string[]).includes(source)) {
    return { error: `unknown source '${source}'; expected one of ${POLICY_SOURCES.join(', ')} or a glob` };
  }
  return { kind: 'id', source, owner, name };
}
