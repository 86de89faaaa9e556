// Compiles a list of config patterns into one fast matcher. `filter` runs every tool through several of
// these, so the hot path is a few Set/Map lookups on strings that already exist (no concatenation) and
// a regex test only where a pattern really is a glob. Finding *which* pattern matched (for a verdict's
// `rule`) walks the entries and only happens on the slow path.
//
// Hint patterns match a tool's hint bits. Which bits a set reads depends on its role: a set that
// admits (an `allow` list) reads only hints the host vouches for (`trusted: true`), every other set
// reads the hints as stated. So an untrusted tool's own claims can tighten a policy but never widen it.

import type { ParsedPattern } from './pattern-syntax';
import { HINT_BITS } from './tool-hints';

const SEPARATOR = '\u0000';

/** What a pattern is matched against: the lower-cased fields, the hint bits, and a lazily built `source\0owner\0name` key. */
export class MatchTarget {
  readonly source: string;
  readonly owner: string;
  readonly name: string;
  /** The tool's hints as stated (or defaulted): what `deny` and `requireApproval` read. */
  readonly statedHints: number;
  /** The hints an `allow` list may count: `statedHints` for a trusted tool, none for any other. */
  readonly admittingHints: number;
  #key: string | undefined;

  constructor(source: string, owner: string, name: string, hints: number, trusted: boolean) {
    this.source = source.toLowerCase();
    this.owner = owner.toLowerCase();
    this.name = name.toLowerCase();
    this.statedHints = hints;
    this.admittingHints = trusted ? hints : 0;
  }

  /** Built on first use: only glob id patterns need it. */
  key(): string {
    return (this.#key ??= `${this.source}${SEPARATOR}${this.owner}${SEPARATOR}${this.name}`);
  }
}

/** A compiled pattern list. */
export interface PatternSet {
  /** True when the set matches every tool (it holds `*` or `*:*:*`). */
  readonly matchesEverything: boolean;
  /** True when any pattern matches. */
  matches(target: MatchTarget): boolean;
  /** The first config pattern (as written) that matches, or `undefined`. */
  firstMatch(target: MatchTarget): string | undefined;
  /** True when a pattern would match if every stated hint counted (for an admitting set: if the tool were trusted). */
  matchesStated(target: MatchTarget): boolean;
}

/** How a set reads hints: `admit` (an allow list) counts trusted hints only, `restrict` counts them as stated. */
export type PatternSetRole = 'admit' | 'restrict';

/** One config pattern as written and the leaf patterns it stands for (one, or a group's members). */
export interface PatternEntry {
  pattern: string;
  leaves: readonly ParsedPattern[];
}

/** Builds the match target of a tool's fields (fields must not contain NUL); `hints` as from `hintBitsOf`. */
export function toMatchTarget(source: string, owner: string, name: string, hints = 0, trusted = false): MatchTarget {
  return new MatchTarget(source, owner, name, hints, trusted);
}

function globToRegexSource(glob: string): string {
  // `*` stays inside its field: a key's fields are separated by NUL, which no field contains.
  return glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join(`[^${SEPARATOR}]*`);
}

/** The id patterns with one exact source, so a tool's source is looked up once. */
interface SourceBucket {
  /** `source:*:*` */
  whole: boolean;
  /** `source:owner:*` */
  owners: Set<string>;
  /** `source:*:name` (every built-in OpenClaw group) */
  names: Set<string>;
  /** `source:owner:name`, by owner. */
  ids: Map<string, Set<string>>;
  /** `source:*:<glob>`, as one regex over the name. */
  nameRegex: RegExp | undefined;
  /** `source:<glob>:*`, as one regex over the owner. */
  ownerRegex: RegExp | undefined;
  /** `source:owner:<glob>`, as one regex over the name per owner. */
  ownerNameRegex: Map<string, RegExp>;
}

interface LeafMatcher {
  matchAll: boolean;
  /** The hint bits any `hint:` pattern names. */
  hintMask: number;
  exactNames: Set<string>;
  /** `prefix*`, `*suffix`, `*infix*` name globs: plain string tests, no regex. */
  namePrefixes: string[];
  nameSuffixes: string[];
  nameInfixes: string[];
  /** Every other name glob, as one regex. */
  nameRegex: RegExp | undefined;
  /** Id patterns with an exact source, by source. */
  bySource: Map<string, SourceBucket>;
  /** Every other id pattern, as one regex over the key. */
  keyRegex: RegExp | undefined;
}

function setIn<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = create()));
  return value;
}

const combine = (globs: Set<string>): RegExp | undefined =>
  globs.size === 0 ? undefined : new RegExp(`^(?:${[...globs].join('|')})$`, 's');

function addNameLeaf(matcher: LeafMatcher, name: string, nameGlobs: Set<string>): void {
  const stars = name.split('*').length - 1;
  const inner = name.slice(1, -1);
  if (name === '*') matcher.matchAll = true;
  else if (stars === 0) matcher.exactNames.add(name);
  else if (stars === 1 && name.endsWith('*')) matcher.namePrefixes.push(name.slice(0, -1));
  else if (stars === 1 && name.startsWith('*')) matcher.nameSuffixes.push(name.slice(1));
  else if (stars === 2 && name.startsWith('*') && name.endsWith('*') && inner !== '') matcher.nameInfixes.push(inner);
  else nameGlobs.add(globToRegexSource(name));
}

function buildMatcher(leaves: readonly ParsedPattern[]): LeafMatcher {
  const matcher: LeafMatcher = {
    matchAll: false,
    hintMask: 0,
    exactNames: new Set(),
    namePrefixes: [],
    nameSuffixes: [],
    nameInfixes: [],
    nameRegex: undefined,
    bySource: new Map(),
    keyRegex: undefined,
  };
  const nameGlobs = new Set<string>();
  const keyGlobs = new Set<string>();
  const sourceGlobs = new Map<string, { names: Set<string>; owners: Set<string>; byOwner: Map<string, Set<string>> }>();
  const bucketOf = (source: string): SourceBucket =>
    setIn(matcher.bySource, source, () => ({
      whole: false,
      owners: new Set(),
      names: new Set(),
      ids: new Map(),
      nameRegex: undefined,
      ownerRegex: undefined,
      ownerNameRegex: new Map(),
    }));
  for (const leaf of leaves) {
    if (leaf.kind === 'hint') matcher.hintMask |= HINT_BITS[leaf.hint];
    else if (leaf.kind === 'name') addNameLeaf(matcher, leaf.name, nameGlobs);
    else {
      const { source, owner, name } = leaf;
      const anyOwner = owner === '*';
      const anyName = name === '*';
      const exactOwner = !owner.includes('*');
      const exactName = !name.includes('*');
      const globs = () => setIn(sourceGlobs, source, () => ({ names: new Set(), owners: new Set(), byOwner: new Map() }));
      if (source === '*' && anyOwner && anyName) matcher.matchAll = true;
      else if (source.includes('*') || (!exactOwner && !anyOwner && !anyName)) keyGlobs.add([source, owner, name].map(globToRegexSource).join(SEPARATOR));
      else if (anyOwner && anyName) bucketOf(source).whole = true;
      else if (exactOwner && anyName) bucketOf(source).owners.add(owner);
      else if (anyOwner && exactName) bucketOf(source).names.add(name);
      else if (exactOwner && exactName) setIn(bucketOf(source).ids, owner, () => new Set<string>()).add(name);
      else if (anyOwner) globs().names.add(globToRegexSource(name));
      else if (anyName) globs().owners.add(globToRegexSource(owner));
      else setIn(globs().byOwner, owner, () => new Set<string>()).add(globToRegexSource(name));
    }
  }
  for (const [source, { names, owners, byOwner }] of sourceGlobs) {
    const bucket = bucketOf(source);
    bucket.nameRegex = combine(names);
    bucket.ownerRegex = combine(owners);
    for (const [owner, globs] of byOwner) bucket.ownerNameRegex.set(owner, combine(globs)!);
  }
  matcher.nameRegex = combine(nameGlobs);
  matcher.keyRegex = combine(keyGlobs);
  return matcher;
}

function bucketMatches(bucket: SourceBucket, target: MatchTarget): boolean {
  if (bucket.whole) return true;
  if (bucket.owners.size > 0 && bucket.owners.has(target.owner)) return true;
  if (bucket.names.size > 0 && bucket.names.has(target.name)) return true;
  if (bucket.ids.size > 0 && bucket.ids.get(target.owner)?.has(target.name) === true) return true;
  if (bucket.nameRegex !== undefined && bucket.nameRegex.test(target.name)) return true;
  if (bucket.ownerRegex !== undefined && bucket.ownerRegex.test(target.owner)) return true;
  return bucket.ownerNameRegex.size > 0 && bucket.ownerNameRegex.get(target.owner)?.test(target.name) === true;
}

function matcherMatches(matcher: LeafMatcher, target: MatchTarget, hints: number): boolean {
  if (matcher.matchAll) return true;
  if ((matcher.hintMask & hints) !== 0) return true;
  const name = target.name;
  if (matcher.exactNames.size > 0 && matcher.exactNames.has(name)) return true;
  if (matcher.bySource.size > 0) {
    const bucket = matcher.bySource.get(target.source);
    if (bucket !== undefined && bucketMatches(bucket, target)) return true;
  }
  for (const prefix of matcher.namePrefixes) if (name.startsWith(prefix)) return true;
  for (const suffix of matcher.nameSuffixes) if (name.endsWith(suffix)) return true;
  for (const infix of matcher.nameInfixes) if (name.includes(infix)) return true;
  if (matcher.nameRegex !== undefined && matcher.nameRegex.test(name)) return true;
  return matcher.keyRegex !== undefined && matcher.keyRegex.test(target.key());
}

/**
 * Compiles config patterns (already validated and with groups expanded into leaves) into a `PatternSet`.
 * `role` says which of a tool's hints the set counts (see the file header).
 */
export function compilePatternSet(entries: readonly PatternEntry[], role: PatternSetRole): PatternSet {
  const all = buildMatcher(entries.flatMap((entry) => entry.leaves));
  const admitting = role === 'admit';
  let perEntry: { pattern: string; matcher: LeafMatcher }[] | undefined;
  return {
    matchesEverything: all.matchAll,
    matches: (target) => matcherMatches(all, target, admitting ? target.admittingHints : target.statedHints),
    firstMatch(target) {
      const hints = admitting ? target.admittingHints : target.statedHints;
      if (!matcherMatches(all, target, hints)) return undefined;
      perEntry ??= entries.map((entry) => ({ pattern: entry.pattern, matcher: buildMatcher(entry.leaves) }));
      return perEntry.find((entry) => matcherMatches(entry.matcher, target, hints))?.pattern;
    },
    matchesStated: (target) => matcherMatches(all, target, target.statedHints),
  };
}
