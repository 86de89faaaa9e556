// expandQuery: the query expansion. A query's kept words become the weighted terms the ranking scores: each
// word, and what each expander adds (exact forms, nearby word pairs, whole identifiers, thesaurus relatives,
// intent-table relatives, typo variants, and for short queries prefixes), every term tagged with its path.
import type { MatchPath, Thesaurus } from '../types.js';
import { clipQuery } from './index-fields.js';
import { expandQueryTerms, relatedTerms } from './intent-table.js';
import { CONTEXT_MARK, JOINED_MARK, PAIR_MARK, type Posting, type Postings } from './postings.js';
import type { RankingSettings } from './ranking-settings.js';
import { normalizeTerm, splitWords, type AnalyzedText } from './tokenize-text.js';

/** Query terms tracked per tool for diversification (one bit each). */
export const MAX_TRACKED_TERMS = 30;
/** Prefix/typo variants kept per query term. */
const MAX_DERIVED_TERMS = 32;
/**
 * A word whose stem is shorter than a typo is looked for in (5 letters) is looked for as written when it has at
 * least this many letters ("maching": stem "mach", but "matching" one edit away), for at most
 * `MAX_WRITTEN_TYPO_WORDS` words of a query (each costs a few hundred stemmings).
 */
const WRITTEN_TYPO_MIN_LETTERS = 7;
const MAX_WRITTEN_TYPO_WORDS = 4;

/** Collection statistics for one ranking: document count and document frequency, scoped or whole. */
export interface Statistics {
  total: number;
  /** 1 per admitted slot; undefined when every tool is a candidate. */
  admitted: Uint8Array | undefined;
  frequency(posting: Posting | undefined): number;
}

/** One weighted term to score. */
export interface QueryTerm {
  term: string;
  weight: number;
  path: MatchPath;
  /** A word of the query itself (not an exact form, relative, prefix or typo variant). */
  original: boolean;
  /** Bit of the original query term this one stands for; -1 for terms that cover no query word of their own. */
  bit: number;
  idf: number;
  /** The posting to score, when it is not the term's own (word pairs). */
  posting?: Posting;
}

/** What every expander reads. */
interface Expansion {
  query: string;
  analyzed: AnalyzedText;
  postings: Postings;
  settings: RankingSettings;
  thesaurus: Thesaurus | undefined;
  /** Document frequency of a term (memoised), within the statistics' scope. */
  df(term: string): number;
  idf(frequency: number): number;
  /** The kept query words, by their bit. */
  bitOf: Map<string, number>;
}

/**
 * The weighted terms to score for `query` (empty when nothing meaningful is left). `keptOut` receives the query
 * words kept (in bit order). The order of the terms is fixed, so sums (and scores) are reproducible.
 */
export function expandQuery(query: string, analyzed: AnalyzedText, statistics: Statistics, postings: Postings, settings: RankingSettings, thesaurus: Thesaurus | undefined, keptOut?: string[]): QueryTerm[] {
  const unique = [...new Set(analyzed.terms)];
  const total = statistics.total;
  if (unique.length === 0 || total === 0) return [];
  const frequencies = new Map<string, number>();
  const df = (term: string) => {
    let frequency = frequencies.get(term);
    if (frequency === undefined) {
      frequency = statistics.frequency(postings.get(term));
      frequencies.set(term, frequency);
    }
    return frequency;
  };
  const expansion: Expansion = { query, analyzed, postings, settings, thesaurus, df, idf: (frequency) => bm25Idf(total, frequency), bitOf: new Map() };
  const typoTolerant = unique.length <= settings.maxTermsForFuzzy;
  // A word counts as present when a tool has it, or has it as one split identifier ("github" in GitHub).
  const present = (term: string) => df(term) > 0 || (settings.joinedWeight > 0 && df(JOINED_MARK + term) > 0) || df(CONTEXT_MARK + term) > 0;
  const typos = typoTolerant || !settings.unknownWordTypos ? new Map<string, string[]>() : typoVariants(expansion, present);
  const relatives = thesaurusRelatives(expansion, unique);
  let kept = typoTolerant ? unique : unique.filter((term) => present(term) || typos.has(term) || relatives.has(term));
  if (kept.length > settings.maxQueryTerms) {
    const rarest = new Set([...kept].sort((a, b) => df(a) - df(b) || (a < b ? -1 : 1)).slice(0, settings.maxQueryTerms));
    kept = kept.filter((term) => rarest.has(term));
  }
  keptOut?.push(...kept);
  // Terms past the 30th share the last bit (they still score; diversification just sees them as one).
  kept.forEach((term, i) => expansion.bitOf.set(term, Math.min(i, MAX_TRACKED_TERMS - 1)));
  return [
    ...exactFormTerms(expansion),
    ...wordPairTerms(expansion, statistics),
    ...identifierTerms(expansion, kept),
    ...thesaurusTerms(expansion, relatives),
    ...intentTerms(expansion, kept, typos, typoTolerant),
    ...contextTerms(expansion, kept),
  ];
}

/**
 * The query's words as owners' contexts have them (`CONTEXT_MARK`): they cover no query word of their own (bit
 * -1), so they neither count as evidence nor steer diversification; the ranking reads them only for tools
 * without a match in their own text.
 */
function contextTerms({ df, idf }: Expansion, kept: readonly string[]): QueryTerm[] {
  const out: QueryTerm[] = [];
  for (const term of kept) {
    const marked = CONTEXT_MARK + term;
    const frequency = df(marked);
    if (frequency > 0) out.push({ term: marked, weight: 1, path: 'word', original: false, bit: -1, idf: idf(frequency) });
  }
  return out;
}

/** BM25's idf of a term found in `frequency` of `total` tools. */
export function bm25Idf(total: number, frequency: number): number {
  return Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
}

/**
 * Longer queries: a word no tool has may be a typo (one edit, or two neighbouring letters swapped) of one a tool
 * has: one edit of its stem, or, when the stem is too short for that, of the word as written.
 */
function typoVariants({ analyzed, postings, df }: Expansion, present: (term: string) => boolean): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let writtenLeft = MAX_WRITTEN_TYPO_WORDS;
  analyzed.terms.forEach((term, i) => {
    if (present(term) || out.has(term) || term.length < 4 || !/^[a-z]+$/.test(term)) return;
    const variants = new Set<string>();
    const written = analyzed.words[i] as string;
    if (term.length >= 5) {
      for (const [variant, distance] of postings.withinOneEdit(term)) if (distance > 0 && df(variant) > 0) variants.add(variant);
    } else if (written.length >= WRITTEN_TYPO_MIN_LETTERS && writtenLeft-- > 0) {
      for (const variant of oneEditAway(written)) if (variant !== term && df(variant) > 0) variants.add(variant);
    }
    for (const variant of swappedNeighbours(written)) if (variant !== term && df(variant) > 0) variants.add(variant);
    if (variants.size > 0) out.set(term, [...variants].sort().slice(0, MAX_DERIVED_TERMS));
  });
  return out;
}

/**
 * Query term -> the thesaurus relatives to search for it: for a two-word verb of the query ("kick off") and for
 * each query word at most `thesaurusMaxFrequency` tools have. Each relative is in some tool, and is neither a
 * query term nor one of the term's intent-table relatives (those are searched anyway).
 */
function thesaurusRelatives({ query, thesaurus, settings, df }: Expansion, unique: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (thesaurus === undefined || settings.thesaurusWeight <= 0) return out;
  const inQuery = new Set(unique);
  const take = (term: string, key: string) => {
    const related = thesaurus.related(key);
    if (related === undefined) return;
    const list = out.get(term) ?? [];
    const intent = relatedTerms(term);
    for (const relative of related) {
      if (list.length >= settings.thesaurusMaxRelated) break;
      if (inQuery.has(relative) || list.includes(relative) || intent.includes(relative) || df(relative) === 0) continue;
      list.push(relative);
    }
    if (list.length > 0) out.set(term, list);
  };
  if (settings.thesaurusPhrasal) {
    const words = splitWords(clipQuery(query)).map((word) => word.toLowerCase());
    for (let i = 0; i + 1 < words.length; i++) {
      const verb = normalizeTerm(words[i] as string);
      if (verb !== undefined && inQuery.has(verb)) take(verb, `${verb} ${words[i + 1]}`);
    }
  }
  for (const term of unique) if (!out.has(term) && df(term) <= settings.thesaurusMaxFrequency) take(term, term);
  return out;
}

/** Exact unstemmed forms of the kept words, on the bit of their stem. */
function exactFormTerms({ analyzed, settings, df, idf, bitOf }: Expansion): QueryTerm[] {
  const out: QueryTerm[] = [];
  if (settings.exactWeight <= 0) return out;
  const seen = new Set<string>();
  analyzed.exact.forEach((exact, i) => {
    const bit = bitOf.get(analyzed.exactStems[i] as string);
    const frequency = df(exact);
    if (bit === undefined || frequency === 0 || seen.has(exact)) return;
    seen.add(exact);
    out.push({ term: exact, weight: settings.exactWeight, path: 'exact-form', original: false, bit, idf: idf(frequency) });
  });
  return out;
}

/** Nearby query words that are near each other in a tool; they score but cover no query term of their own. */
function wordPairTerms({ analyzed, postings, settings, idf }: Expansion, statistics: Statistics): QueryTerm[] {
  const out: QueryTerm[] = [];
  if (settings.pairWeight <= 0) return out;
  const seen = new Set<Posting>();
  const terms = analyzed.terms;
  for (let i = 1; i < terms.length; i++) {
    for (let gap = 1; gap <= settings.pairWindow && gap <= i; gap++) {
      const posting = postings.pair(terms[i - gap] as string, terms[i] as string);
      if (posting === undefined || seen.has(posting)) continue;
      seen.add(posting);
      const frequency = statistics.frequency(posting);
      if (frequency === 0) continue;
      out.push({ term: `${PAIR_MARK}${terms[i - gap]} ${terms[i]}`, weight: settings.pairWeight, path: 'word-pair', original: false, bit: -1, idf: idf(frequency), posting });
    }
  }
  return out;
}

/**
 * A query word that a tool writes as one identifier split at case changes ("github" for GitHub), and an
 * identifier of the query that a tool writes as one word. They score; the second covers nothing of its own.
 */
function identifierTerms({ analyzed, settings, df, idf, bitOf }: Expansion, kept: readonly string[]): QueryTerm[] {
  const out: QueryTerm[] = [];
  if (settings.joinedWeight <= 0) return out;
  for (const term of kept) {
    const frequency = df(JOINED_MARK + term);
    if (frequency > 0) out.push({ term: JOINED_MARK + term, weight: settings.joinedWeight, path: 'identifier', original: false, bit: bitOf.get(term) as number, idf: idf(frequency) });
  }
  for (const term of new Set(analyzed.joined)) {
    if (bitOf.has(term)) continue;
    for (const key of [term, JOINED_MARK + term]) {
      const frequency = df(key);
      if (frequency > 0) out.push({ term: key, weight: settings.joinedWeight, path: 'identifier', original: false, bit: -1, idf: idf(frequency) });
    }
  }
  return out;
}

/** The thesaurus relatives of kept words, on their word's bit. */
function thesaurusTerms({ settings, df, idf, bitOf }: Expansion, relatives: Map<string, string[]>): QueryTerm[] {
  const out: QueryTerm[] = [];
  for (const [term, related] of relatives) {
    const bit = bitOf.get(term);
    if (bit === undefined) continue;
    for (const relative of related) out.push({ term: relative, weight: settings.thesaurusWeight, path: 'thesaurus', original: false, bit, idf: idf(df(relative)) });
  }
  return out;
}

/** Each kept word and its intent-table relatives; after each word, its typo variants and (short queries) prefixes. */
function intentTerms(expansion: Expansion, kept: readonly string[], typos: Map<string, string[]>, typoTolerant: boolean): QueryTerm[] {
  const { settings, df, idf, bitOf } = expansion;
  const out: QueryTerm[] = [];
  for (const entry of expandQueryTerms(kept, settings.expansionWeight)) {
    const bit = bitOf.get(entry.origin) as number;
    const frequency = df(entry.term);
    const original = entry.term === entry.origin;
    if (frequency > 0) out.push({ term: entry.term, weight: entry.weight, path: original ? 'word' : 'intent', original, bit, idf: idf(frequency) });
    for (const variant of original ? (typos.get(entry.term) ?? []) : []) {
      out.push({ term: variant, weight: settings.fuzzyWeight, path: 'typo', original: false, bit, idf: idf(df(variant)) });
    }
    if (typoTolerant && original && entry.term.length >= 3) out.push(...prefixAndTypoTerms(expansion, entry.term, bit));
  }
  return out;
}

/**
 * Short queries: prefix and one-typo matches of an original term, at lower weight. Sorted, so the sum order (and
 * so the score) does not depend on the tree's insertion history.
 */
function prefixAndTypoTerms({ postings, settings, df, idf }: Expansion, word: string, bit: number): QueryTerm[] {
  const derived = new Map<string, number>();
  const typos = new Set<string>();
  for (const term of postings.withPrefix(word)) {
    if (term === word || df(term) === 0) continue;
    const distance = term.length - word.length;
    derived.set(term, (settings.prefixWeight * term.length) / (term.length + 0.3 * distance));
  }
  if (word.length >= 5) {
    for (const [term, distance] of postings.withinOneEdit(word)) {
      if (distance === 0 || derived.has(term) || df(term) === 0) continue;
      derived.set(term, (settings.fuzzyWeight * term.length) / (term.length + distance));
      typos.add(term);
    }
  }
  // A short prefix can reach hundreds of words; the closest ones are enough and keep latency flat.
  const closest = [...derived].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_DERIVED_TERMS);
  return closest.sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([term, weight]) => ({ term, weight, path: typos.has(term) ? 'typo' : 'prefix', original: false, bit, idf: idf(df(term)) }));
}

/** The word with one letter deleted, replaced or inserted, normalised as index terms ("maching" -> match). */
function oneEditAway(word: string): Set<string> {
  const out = new Set<string>();
  const add = (edited: string) => {
    const term = normalizeTerm(edited);
    if (term !== undefined) out.add(term);
  };
  for (let i = 0; i <= word.length; i++) {
    const before = word.slice(0, i);
    if (i < word.length) add(before + word.slice(i + 1));
    for (let code = 97; code <= 122; code++) {
      const letter = String.fromCharCode(code);
      add(before + letter + word.slice(i));
      if (i < word.length && letter !== word[i]) add(before + letter + word.slice(i + 1));
    }
  }
  return out;
}

/** The word with each pair of neighbouring letters swapped, normalised as index terms ("wiat" -> wait). */
function swappedNeighbours(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < word.length; i++) {
    if (word[i] === word[i + 1]) continue;
    const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    const term = normalizeTerm(swapped);
    if (term !== undefined) out.push(term);
  }
  return out;
}
