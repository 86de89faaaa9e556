// Compiles a list of config patterns into one fast matcher. `filter` runs every tool through several of
// these, so the hot path is a few Set/Map lookups on strings that already exist (no concatenation) and
// a regex test only where a pattern really is a glob. Finding *which* pattern matched (for a verdict's
// `rule`) walks the entries and only happens on the slow path.

import type { ParsedPattern } from './pattern-syntax';

const SEPARATOR = '\u0000';

/** What a pattern is matched against: the lower-cased fields, and a lazily built `source\0owner\0name` key. */
export class MatchTarget {
  readonly source: string;
  readonly owner: string;
  readonly name: string;
  #key: string | undefined;

  constructor(source: string, owner: string, name: string) {
    this.source = source.toLowerCase();
    this.owner = owner.toLowerCase();
    this.name = name.toLowerCase();
  }

  /** Built on first use: only glob id patterns need it. */
  key(): string {
    return (this.#key ??= `${this.source}${SEPARATOR}${this.owner}${SEPARATOR}${this.name}`);
  }
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

/** Builds the match target of a tool's fields (fields must not contain NUL). */
export function toMatchTarget(source: string, owner: string, name: string): MatchTarget {
  return new MatchTarget(source, owner, name);
}

function globToRegexSource(glob: string): string {
  // `*` stays inside its field: a key's fields are separated by NUL, which no field contains.
  return glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join(`[^${SEPARATOR}]*`);
}

interface LeafMatcher {
  matchAll: boolean;
  exactNames: Set<string>;
  /** `prefix*`, `*suffix`, `*infix*` name globs: plain string tests, no regex. */
  namePrefixes: string[];
  nameSuffixes: string[];
  nameInfixes: string[];
  /** Every other name glob, as one regex. */
  nameRegex: RegExp | undefined;
  /** `source:*:*` */
  wholeSources: Set<string>;
  /** `source:owner:*`, by source. */
  wholeOwners: Map<string, Set<string>>;
  /** `source:owner:name`, by source then owner. */
  exactIds: Map<string, Map<string, Set<string>>>;
  /** `source:*:name` (every built-in OpenClaw group), by source. */
  sourceNames: Map<string, Set<string>>;
  /** Every other id pattern, as one regex over the key. */
  keyRegex: RegExp | undefined;
}

function setIn<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = create()));
  return value;
}

function buildMatcher(leaves: readonly ParsedPattern[]): LeafMatcher {
  const matcher: LeafMatcher = {
    matchAll: false,
    exactNames: new Set(),
    namePrefixes: [],
    nameSuffixes: [],
    nameInfixes: [],
    nameRegex: undefined,
    wholeSources: new Set(),
    wholeOwners: new Map(),
    exactIds: new Map(),
    sourceNames: new Map(),
    keyRegex: undefined,
  };
  const nameGlobs = new Set<string>();
  const keyGlobs = new Set<string>();
  for (const leaf of leaves) {
    if (leaf.kind === 'name') {
      const { name } = leaf;
      const stars = name.split('*').length - 1;
      const inner = name.slice(1, -1);
      if (name === '*') matcher.matchAll = true;
      else if (stars === 0) matcher.exactNames.add(name);
      else if (stars === 1 && name.endsWith('*')) matcher.namePrefixes.push(name.slice(0, -1));
      else if (stars === 1 && name.startsWith('*')) matcher.nameSuffixes.push(name.slice(1));
      else if (stars === 2 && name.startsWith('*') && name.endsWith('*') && inner !== '') matcher.nameInfixes.push(inner);
      else nameGlobs.add(globToRegexSource(name));
      continue;
    }
    const { source, owner, name } = leaf;
    const exactSource = !source.includes('*');
    const exactOwner = !owner.includes('*');
    if (source === '*' && owner === '*' && name === '*') matcher.matchAll = true;
    else if (exactSource && owner === '*' && name === '*') matcher.wholeSources.add(source);
    else if (exactSource && exactOwner && name === '*') setIn(matcher.wholeOwners, source, () => new Set()).add(owner);
    else if (exactSource && exactOwner && !name.includes('*')) {
      setIn(setIn(matcher.exactIds, source, () => new Map()), owner, () => new Set<string>()).add(name);
    } else if (exactSource && owner === '*' && !name.includes('*')) {
      setIn(matcher.sourceNames, source, () => new Set()).add(name);
    } else keyGlobs.add([source, owner, name].map(globToRegexSource).join(SEPARATOR));
  }
  const combine = (globs: Set<string>): RegExp | undefined =>
    globs.size === 0 ? undefined : new RegExp(`^(?:${[...globs].join('|')})$`, 's');
  matcher.nameRegex = combine(nameGlobs);
  matcher.keyRegex = combine(keyGlobs);
  return matcher;
}

function matcherMatches(matcher: LeafMatcher, target: MatchTarget): boolean {
  if (matcher.matchAll) return true;
  if (matcher.exactNames.size > 0 && matcher.exactNames.has(target.name)) return true;
  if (matcher.wholeSources.size > 0 && matcher.wholeSources.has(target.source)) return true;
  if (matcher.wholeOwners.size > 0 && matcher.wholeOwners.get(target.source)?.has(target.owner) === true) return true;
  if (matcher.exactIds.size > 0 && matcher.exactIds.get(target.source)?.get(target.owner)?.has(target.name) === true) return true;
  if (matcher.sourceNames.size > 0 && matcher.sourceNames.get(target.source)?.has(target.name) === true) return true;
  const name = target.name;
  for (const prefix of matcher.namePrefixes) if (name.startsWith(prefix)) return true;
  for (const suffix of matcher.nameSuffixes) if (name.endsWith(suffix)) return true;
  for (const infix of matcher.nameInfixes) if (name.includes(infix)) return true;
  if (matcher.nameRegex !== undefined && matcher.nameRegex.test(target.name)) return true;
  return matcher.keyRegex !== undefined && matcher.keyRegex.test(target.key());
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
