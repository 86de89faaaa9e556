// Compiles a list of config patterns into one fast matcher. `filter` runs every tool through several of
// these, so the hot path is two Set lookups and at most two regex tests per set; finding *which* pattern
// matched (for a verdict's `rule`) walks the entries and only happens on the slow path.

import type { ParsedPattern } from './pattern-syntax';

/** What a pattern is matched against: lower-cased name and a `source\0owner\0name` key. */
export interface MatchTarget {
  name: string;
  key: string;
}

/** A compiled pattern list. */
export interface PatternSet {
  /** True when any pattern matches. */
  matches(target: MatchTarget): boolean;
  /** The first config pattern (as written) that matches, or `undefined`. */
  firstMatch(target: MatchTarget): string | undefined;
}

/** One config pattern as written and the leaf patterns it stands for (one, or a group's members). */
export interface PatternEntry {
  pattern: string;
  leaves: readonly ParsedPattern[];
}

const SEPARATOR = '\u0000';

/** Builds the match target of a tool's fields (lower-cased; fields must not contain NUL). */
export function toMatchTarget(source: string, owner: string, name: string): MatchTarget {
  const lowerName = name.toLowerCase();
  return { name: lowerName, key: `${source.toLowerCase()}${SEPARATOR}${owner.toLowerCase()}${SEPARATOR}${lowerName}` };
}

function globToRegexSource(glob: string): string {
  // `*` stays inside its field: a key's fields are separated by NUL, which no field contains.
  return glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join(`[^${SEPARATOR}]*`);
}

function leafKey(leaf: ParsedPattern & { kind: 'id' }): string {
  return `${leaf.source}${SEPARATOR}${leaf.owner}${SEPARATOR}${leaf.name}`;
}

interface LeafMatcher {
  exactNames: Set<string>;
  exactKeys: Set<string>;
  nameRegex: RegExp | undefined;
  keyRegex: RegExp | undefined;
}

function buildMatcher(leaves: readonly ParsedPattern[]): LeafMatcher {
  const exactNames = new Set<string>();
  const exactKeys = new Set<string>();
  const nameGlobs = new Set<string>();
  const keyGlobs = new Set<string>();
  for (const leaf of leaves) {
    if (leaf.kind === 'name') {
      if (leaf.name.includes('*')) nameGlobs.add(globToRegexSource(leaf.name));
      else exactNames.add(leaf.name);
    } else {
      const key = leafKey(leaf);
      if (key.includes('*')) {
        keyGlobs.add([leaf.source, leaf.owner, leaf.name].map(globToRegexSource).join(SEPARATOR));
      } else exactKeys.add(key);
    }
  }
  const combine = (globs: Set<string>): RegExp | undefined =>
    globs.size === 0 ? undefined : new RegExp(`^(?:${[...globs].join('|')})$`, 's');
  return { exactNames, exactKeys, nameRegex: combine(nameGlobs), keyRegex: combine(keyGlobs) };
}

function matcherMatches(matcher: LeafMatcher, target: MatchTarget): boolean {
  return (
    matcher.exactNames.has(target.name) ||
    matcher.exactKeys.has(target.key) ||
    (matcher.nameRegex !== undefined && matcher.nameRegex.test(target.name)) ||
    (matcher.keyRegex !== undefined && matcher.keyRegex.test(target.key))
  );
}

/** Compiles config patterns (already validated and with groups expanded into leaves) into a `PatternSet`. */
export function compilePatternSet(entries: readonly PatternEntry[]): PatternSet {
  const all = buildMatcher(entries.flatMap((entry) => entry.leaves));
  let perEntry: { pattern: string; matcher: LeafMatcher }[] | undefined;
  return {
    matches: (target) => matcherMatches(all, target),
    firstMatch(target) {
      if (!matcherMatches(all, target)) return undefined;
      perEntry ??= entries.map((entry) => ({ pattern: entry.pattern, matcher: buildMatcher(entry.leaves) }));
      return perEntry.find((entry) => matcherMatches(entry.matcher, target))?.pattern;
    },
  };
}
