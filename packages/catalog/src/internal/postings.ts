// Postings: the term side of the index. Per term the tools that have it, with their field-weighted term
// frequency; the same postings in minisearch's radix tree for prefix and typo lookups; and postings of nearby
// word pairs under numeric keys.
import SearchableMap from 'minisearch/SearchableMap';
import { INDEXED_FIELDS, type IndexedField, type RankingSettings } from './ranking-settings.js';
import { EXACT_MARK, type AnalyzedText } from './tokenize-text.js';

/**
 * One array per term, interleaved: slot, field-weighted term frequency (Σ weight × tf over fields), slot, ...
 * One allocation per term keeps build time and garbage collection down at 10,000+ tools.
 */
export type Posting = number[];

/** Marks the whole form of a split identifier ("%github" for GitHub): its own posting, looked up exactly. */
export const JOINED_MARK = '%';
/** Labels a pair of nearby words among the query terms (pairs have their own numeric postings). */
export const PAIR_MARK = '+';
/**
 * Marks a word of an owner's context (a server's instructions): its own posting, so the ranking can count it only
 * for tools no word of the query finds in their own text (`SearchIndex.rankTerms`).
 */
export const CONTEXT_MARK = '^';
/** Fields whose words do not lengthen the tool (text shared by many tools, not the tool's own). */
const UNLENGTHENED_FIELDS: ReadonlySet<IndexedField> = new Set(['context']);
/** Term ids below this pair into one exact integer key (2^26 × 2^26 stays under 2^53). */
const PAIR_KEY_BASE = 2 ** 26;

/** Postings by term and by word pair, with what each slot added so it can be taken out again. */
export class Postings {
  /** term -> posting; the hot path (a plain Map is several times faster than the radix tree for exact keys). */
  private readonly byTerm = new Map<string, Posting>();
  /** The same postings in minisearch's radix tree, for prefix and fuzzy lookups. */
  private readonly tree = new SearchableMap<Posting>();
  /**
   * Word pairs: one integer key per pair of term ids (`pairKey`) -> posting. Numeric keys, so a pair costs no string
   * at build time (pairs outnumber words). Term ids are handed out on first sight and kept for the index's life.
   */
  private readonly termIds = new Map<string, number>();
  private readonly pairs = new Map<number, Posting>();
  /** Distinct terms and pair keys per slot, to take a tool out of its postings. */
  private readonly slotTerms: Array<string[] | undefined> = [];
  private readonly slotPairs: Array<number[] | undefined> = [];
  /** Scratch for `removeAll`: 1 for a slot being taken out, 0 otherwise. */
  private leaving = new Uint8Array(0);

  constructor(private readonly settings: RankingSettings) {}

  get(term: string): Posting | undefined {
    return this.byTerm.get(term);
  }

  /** The posting of two words near each other in a tool (either order), if any tool has them so. */
  pair(first: string, second: string): Posting | undefined {
    const a = this.termIds.get(first);
    const b = this.termIds.get(second);
    if (a === undefined || b === undefined || a >= PAIR_KEY_BASE || b >= PAIR_KEY_BASE) return undefined;
    return this.pairs.get(pairKey(a, b));
  }

  /** Indexed words that start with `prefix` (itself included when indexed). */
  *withPrefix(prefix: string): Generator<string> {
    for (const [term] of this.tree.atPrefix(prefix)) yield term;
  }

  /** Indexed words at most one edit from `term`, with their distance (0 for `term` itself). */
  *withinOneEdit(term: string): Generator<[string, number]> {
    for (const [variant, [, distance]] of this.tree.fuzzyGet(term, 1)) yield [variant, distance];
  }

  /** Adds one tool's analysed fields under `slot`; returns its weighted length (for BM25's normalisation). */
  add(slot: number, fields: Record<IndexedField, AnalyzedText>): number {
    // Field weights are fixed per index, so each posting stores the weighted term frequency directly. This
    // tool's entries are appended last, so a repeated term adds to the posting's last entry: no per-tool map.
    const distinct: string[] = [];
    const count = (term: string, weight: number) => {
      const posting = this.byTerm.get(term);
      if (posting === undefined) {
        const created = [slot, weight];
        this.byTerm.set(term, created);
        // Marked entries (exact forms, whole identifiers) are only ever looked up exactly: keep them out of the
        // tree. Pairs never come here: they have their own numeric postings.
        if (!isMarked(term)) this.tree.set(term, created);
        distinct.push(term);
      } else if (appendOrAdd(posting, slot, weight)) {
        distinct.push(term);
      }
    };
    let documentLength = 0;
    const { fieldWeights, joinedWeight } = this.settings;
    for (const field of INDEXED_FIELDS) {
      const { terms, exact, joined } = fields[field];
      const weight = fieldWeights[field];
      if (weight === 0) continue;
      // Length counts words once; the exact forms ride along without lengthening the text.
      if (!UNLENGTHENED_FIELDS.has(field)) documentLength += weight * terms.length;
      if (field === 'context') {
        for (const term of terms) count(CONTEXT_MARK + term, weight);
        continue;
      }
      for (const term of terms) count(term, weight);
      for (const term of exact) count(term, weight);
      if (joinedWeight > 0) for (const term of joined) count(JOINED_MARK + term, weight);
    }
    this.slotTerms[slot] = distinct;
    this.slotPairs[slot] = this.addPairs(slot, fields);
    return documentLength;
  }

  /** Pairs of nearby words ("health statistics" in getHealthStatistics), without lengthening the tool. */
  private addPairs(slot: number, fields: Record<IndexedField, AnalyzedText>): number[] {
    const { pairWindow, pairFields, fieldWeights } = this.settings;
    const added: number[] = [];
    for (const field of pairFields) {
      const fieldTerms = fields[field].terms;
      const weight = fieldWeights[field];
      if (fieldTerms.length < 2 || weight === 0) continue;
      const ids = fieldTerms.map((term) => this.termId(term));
      for (let i = 1; i < ids.length; i++) {
        for (let gap = 1; gap <= pairWindow && gap <= i; gap++) {
          const first = ids[i - gap] as number;
          const second = ids[i] as number;
          if (first >= PAIR_KEY_BASE || second >= PAIR_KEY_BASE) continue;
          const key = pairKey(first, second);
          const posting = this.pairs.get(key);
          if (posting === undefined) {
            this.pairs.set(key, [slot, weight]);
            added.push(key);
          } else if (appendOrAdd(posting, slot, weight)) {
            added.push(key);
          }
        }
      }
    }
    return added;
  }

  /**
   * Takes the tools in `slots` out of every posting they are in. Each posting they share is compacted once for all
   * of them (a server's `list_changed` takes its ~100 tools out of the same common words' long postings), keeping
   * the order of the entries left, so the postings are the same as after removing the slots one by one.
   */
  removeAll(slots: readonly number[]): void {
    const leaving = this.leavingMarks(slots);
    // A term shared by several of the leaving tools is compacted once (the common words' postings are long).
    const terms = new Set<string>();
    for (const slot of slots) for (const term of this.slotTerms[slot] ?? []) terms.add(term);
    for (const term of terms) {
      const posting = this.byTerm.get(term);
      if (!posting) continue;
      removeSlots(posting, leaving);
      if (posting.length === 0) {
        this.byTerm.delete(term);
        if (!isMarked(term)) this.tree.delete(term);
      }
    }
    // Pair postings are short: one visited again finds nothing more to take out (or is gone already).
    for (const slot of slots) {
      for (const key of this.slotPairs[slot] ?? []) {
        const posting = this.pairs.get(key);
        if (!posting) continue;
        removeSlots(posting, leaving);
        if (posting.length === 0) this.pairs.delete(key);
      }
    }
    for (const slot of slots) {
      this.slotTerms[slot] = undefined;
      this.slotPairs[slot] = undefined;
      leaving[slot] = 0;
    }
  }

  /** A mark per slot (1 for those in `slots`), reused between calls. */
  private leavingMarks(slots: readonly number[]): Uint8Array {
    let highest = this.leaving.length - 1;
    for (const slot of slots) if (slot > highest) highest = slot;
    if (highest >= this.leaving.length) {
      const grown = new Uint8Array(Math.max(64, (highest + 1) * 2));
      grown.set(this.leaving);
      this.leaving = grown;
    }
    for (const slot of slots) this.leaving[slot] = 1;
    return this.leaving;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termIds.size;
      this.termIds.set(term, id);
    }
    return id;
  }
}

/**
 * Adds `weight` to the posting's last entry when it is `slot`'s (the tool being added), or appends a new entry;
 * true when an entry was appended.
 */
function appendOrAdd(posting: Posting, slot: number, weight: number): boolean {
  if (posting[posting.length - 2] === slot) {
    posting[posting.length - 1] = (posting[posting.length - 1] as number) + weight;
    return false;
  }
  posting.push(slot, weight);
  return true;
}

/** One key for a pair of term ids, in either order. */
function pairKey(first: number, second: number): number {
  return first < second ? first * PAIR_KEY_BASE + second : second * PAIR_KEY_BASE + first;
}

/** Whether a posting has an entry for `slot`. */
export function postingHas(posting: Posting | undefined, slot: number): boolean {
  if (posting === undefined) return false;
  for (let at = 0; at < posting.length; at += 2) if (posting[at] === slot) return true;
  return false;
}

/** A slot's weighted term frequency in a posting (0 when it is not there). */
export function postingFrequency(posting: Posting | undefined, slot: number): number {
  if (posting === undefined) return 0;
  for (let i = 0; i < posting.length; i += 2) if (posting[i] === slot) return posting[i + 1] as number;
  return 0;
}

/** Takes the entries of `slots` out of a posting in one pass, keeping the order of the others. */
function removeSlots(posting: Posting, leaving: Uint8Array): void {
  let kept = 0;
  for (let at = 0; at < posting.length; at += 2) {
    const slot = posting[at] as number;
    if (leaving[slot] === 1) continue;
    if (kept !== at) {
      posting[kept] = slot;
      posting[kept + 1] = posting[at + 1] as number;
    }
    kept += 2;
  }
  posting.length = kept;
}

/** Whether a term is an exact form or a whole identifier (looked up exactly, never by prefix or typo). */
export function isMarked(term: string): boolean {
  return term.startsWith(EXACT_MARK) || term.startsWith(JOINED_MARK) || term.startsWith(CONTEXT_MARK);
}
