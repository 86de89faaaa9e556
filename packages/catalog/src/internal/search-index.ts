// The ranking index. minisearch's radix tree (`SearchableMap`) is the term dictionary and gives prefix and
// small-typo lookups; scoring is BM25F over compact postings kept here, because per-field BM25 summed across
// fields over-rewards a term repeated in name, parameters and description, and because minisearch's
// per-document result objects cost tens of milliseconds per long query at 10,000 tools.
import SearchableMap from 'minisearch/SearchableMap';
import type { MatchPath, Thesaurus, ToolDescriptor } from '../types.js';
import { IndexScope, isAdmittedSlot } from './index-scope.js';
import { expandQueryTerms, relatedTerms } from './intent-table.js';
import type { FusionSettings } from './fuse-rankings.js';
import { queryFacet } from './intent-table.js';
import { analyzeText, EXACT_MARK, normalizeTerm, splitWords, type AnalyzedText } from './tokenize-text.js';

/**
 * The indexed fields, in posting order. `context` is the owner's context text (an MCP server's name and
 * `instructions`), shared by all its tools; `details` is the description past its lead (see `leadWords`).
 */
export const INDEXED_FIELDS = ['name', 'title', 'owner', 'context', 'tags', 'params', 'description', 'details', 'paramText'] as const;
/** Fields whose words do not lengthen the tool (text shared by many tools, not the tool's own). */
const UNLENGTHENED_FIELDS: ReadonlySet<IndexedField> = new Set(['context']);
/** Marks the whole form of a split identifier ("%github" for GitHub): its own posting, looked up exactly. */
const JOINED_MARK = '%';

/** One indexed field. */
export type IndexedField = (typeof INDEXED_FIELDS)[number];
/** Query terms tracked per tool for diversification (one bit each). */
const MAX_TRACKED_TERMS = 30;
/** Labels a pair of nearby words among the query terms (pairs have their own numeric postings). */
const PAIR_MARK = '+';
/** Prefix/typo variants kept per query term. */
const MAX_DERIVED_TERMS = 32;
/** Characters of a query that are analysed. */
const MAX_QUERY_CHARS = 4_000;

/** Ranking knobs; DESIGN.md gives the reasons and bench/RESULTS.md the figures. Exported for the benchmark scripts only. */
export interface RankingSettings {
  /** BM25F field weights (term-frequency multipliers). */
  fieldWeights: Record<IndexedField, number>;
  k1: number;
  /**
   * BM25 b, applied once to the weighted length of all fields (as if the fields were one text with each
   * field's terms repeated by its weight). Per-field normalisation measured worse on every benchmark set.
   */
  b: number;
  /** Weight of two query words found near each other (see `pairWindow`) in one of `pairFields`. */
  pairWeight: number;
  pairFields: IndexedField[];
  /**
   * Word pairs are formed from words at most this many positions apart, in either order, on both sides
   * (1 = adjacent only; 2 also pairs "weather" and "forecast" in "forecast of the weather").
   */
  pairWindow: number;
  /** Extra weight of a word matched in its exact unstemmed form on top of its stem. */
  exactWeight: number;
  /** Weight of an intent-table expansion relative to the query term it came from. */
  expansionWeight: number;
  /** Original query terms kept after de-duplication (the rarest win). */
  maxQueryTerms: number;
  /** Queries with at most this many terms also match by prefix and small typos. */
  maxTermsForFuzzy: number;
  prefixWeight: number;
  fuzzyWeight: number;
  /**
   * Longer queries: a word no tool has (a typo: "wiat", "appned") also searches the words one edit or one swap
   * of two neighbouring letters away, at `fuzzyWeight`.
   */
  unknownWordTypos: boolean;
  /**
   * Diversification of the top hits for multi-intent queries: a query term already covered by a higher hit
   * counts this much (1 = no diversification).
   */
  coveredTermWeight: number;
  /** How many top candidates the diversification re-orders. */
  diversifyDepth: number;
  /**
   * Description words past the first sentence (and past this many words at most) go to `details`, weighted
   * with `fieldWeights.details`; 0 keeps the whole description in `description`.
   */
  leadWords: number;
  /** Only descriptions longer than this many words are split into lead and details. */
  leadMinWords: number;
  /** Score multiplier for a tool whose annotations agree with the query's read-only or destructive intent. */
  facetBoost: number;
  /** Weight of the whole form of an identifier split at case changes ("GitHub" -> `github`). */
  joinedWeight: number;
  /** How `searchAsync` fuses the lexical ranking with the embedder's nearest tools. */
  fusion: FusionSettings;
  /** Candidates taken from each list before fusion. */
  fusionDepth: number;
  /**
   * `likelyTools`: the top hits scoring at least `likelyRatio` × the top score are declared (up to the limit),
   * and only when the best hit left out scores at most the top score / (1 + `likelyMargin`).
   */
  likelyRatio: number;
  likelyMargin: number;
  /**
   * A search is weak evidence when its best hit covers less than `weakCoverage` of the query and matches less
   * than `weakStrength` (see `QueryCoverage`).
   */
  weakCoverage: number;
  weakStrength: number;
  /**
   * Server-level evidence: each matching tool gains this share of what the other matching tools of its server
   * score (capped at its own score), so the tools of a server the query is about rise together.
   */
  serverWeight: number;
  /** Weight of a thesaurus expansion (see `Thesaurus`) relative to the query word it came from; 0 = off. */
  thesaurusWeight: number;
  /** Query words found in at most this many tools (0 = words no tool has) are expanded through the thesaurus. */
  thesaurusMaxFrequency: number;
  /** Related terms searched per expanded query word (those some tool has, in the thesaurus' order). */
  thesaurusMaxRelated: number;
  /** Two-word verbs of the query ("kick off") are looked up as such, whatever the verb's frequency. */
  thesaurusPhrasal: boolean;
}

/** The settings the catalog ships with. */
export const DEFAULT_RANKING: RankingSettings = {
  fieldWeights: { name: 2, title: 1.5, owner: 1, context: 0.3, tags: 1.5, params: 1.5, description: 1, details: 0.5, paramText: 1 },
  k1: 1.5,
  b: 0.75,
  pairWeight: 0.2,
  pairFields: ['name', 'params', 'description'],
  pairWindow: 2,
  exactWeight: 0.3,
  expansionWeight: 0.3,
  maxQueryTerms: 64,
  maxTermsForFuzzy: 3,
  prefixWeight: 0.375,
  fuzzyWeight: 0.45,
  unknownWordTypos: true,
  coveredTermWeight: 0.7,
  diversifyDepth: 30,
  leadWords: 40,
  leadMinWords: 60,
  facetBoost: 0.1,
  joinedWeight: 0.5,
  fusion: { semanticWeight: 0.5, similarityRange: 0.3 },
  fusionDepth: 50,
  likelyRatio: 0.8,
  likelyMargin: 1,
  weakCoverage: 0.5,
  weakStrength: 1.2,
  serverWeight: 0,
  thesaurusWeight: 0.3,
  thesaurusMaxFrequency: 0,
  thesaurusMaxRelated: 4,
  thesaurusPhrasal: true,
};

/**
 * One array per term, interleaved: slot, field-weighted term frequency (Σ weight × tf over fields), slot, ...
 * One allocation per term keeps build time and garbage collection down at 10,000+ tools.
 */
type Posting = number[];

/** Collects property names and descriptions from a JSON Schema, nested objects and arrays included. */
function collectSchemaText(schema: unknown, names: string[], texts: string[], depth = 0): void {
  if (typeof schema !== 'object' || schema === null || depth > 4) return;
  const record = schema as Record<string, unknown>;
  const properties = record.properties;
  if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      names.push(name);
      if (typeof property === 'object' && property !== null) {
        const description = (property as Record<string, unknown>).description;
        if (typeof description === 'string') texts.push(description);
        const values = (property as Record<string, unknown>).enum;
        if (Array.isArray(values)) texts.push(values.filter((value) => typeof value === 'string').join(' '));
        collectSchemaText(property, names, texts, depth + 1);
      }
    }
  }
  if (record.items !== undefined) collectSchemaText(record.items, names, texts, depth + 1);
}

const EMPTY_ANALYSIS: AnalyzedText = Object.freeze({ terms: [], exact: [], exactStems: [], joined: [], words: [] }) as unknown as AnalyzedText;
const SENTENCE_END = /[.!?](?=\s)|\n\s*\n/;

/** Whether `text` has more than `count` words (stops counting there). */
function hasMoreWords(text: string, count: number): boolean {
  const words = /\S+/g;
  let seen = 0;
  while (words.exec(text) !== null) if (++seen > count) return true;
  return false;
}

/** Splits a description into its lead (first sentence, at most `leadWords` words) and the rest. */
function splitLead(description: string, leadWords: number, minWords: number): [string, string] {
  if (leadWords <= 0) return [description, ''];
  if (minWords > 0 && !hasMoreWords(description, minWords)) return [description, ''];
  const end = SENTENCE_END.exec(description);
  let cut = end === null ? description.length : end.index + 1;
  // At most `leadWords` words: count word starts up to the cut.
  const words = /\S+/g;
  let count = 0;
  let match: RegExpExecArray | null;
  while ((match = words.exec(description)) !== null && match.index < cut) {
    count += 1;
    if (count > leadWords) {
      cut = match.index;
      break;
    }
  }
  return [description.slice(0, cut), description.slice(cut)];
}

/** The index terms (and exact unstemmed forms) of each field of a tool; `context` is its owner's context text. */
export function indexFields(tool: ToolDescriptor, context = '', leadWords = 0, leadMinWords = 0): Record<IndexedField, AnalyzedText> {
  const names: string[] = [];
  const texts: string[] = [];
  collectSchemaText(tool.inputSchema, names, texts);
  const [lead, details] = splitLead(tool.description, leadWords, leadMinWords);
  return {
    name: analyzeText(tool.name),
    title: tool.title === undefined ? EMPTY_ANALYSIS : analyzeText(tool.title),
    owner: analyzeText(tool.owner),
    context: context === '' ? EMPTY_ANALYSIS : analyzeText(context),
    tags: analyzeText(tool.tags.join(' ')),
    params: analyzeText(names.join(' ')),
    description: analyzeText(lead),
    details: details === '' ? EMPTY_ANALYSIS : analyzeText(details),
    paramText: analyzeText(texts.join(' ')),
  };
}

/** 1 read-only, -1 destructive, 0 neither or both (annotations are hints; they only break near-ties). */
function toolFacet(tool: ToolDescriptor): number {
  const readOnly = tool.annotations?.readOnlyHint === true;
  const destructive = tool.annotations?.destructiveHint === true && !readOnly;
  return readOnly ? 1 : destructive ? -1 : 0;
}

/** Collection statistics for one ranking: document count and document frequency, scoped or whole. */
interface Statistics {
  total: number;
  /** 1 per admitted slot; undefined when every tool is a candidate. */
  admitted: Uint8Array | undefined;
  frequency(posting: Posting | undefined): number;
}

/**
 * How much of a query one tool matches: `share`, the idf-weighted share of the query's words; `strength`, the
 * matched idf in units of the rarest possible word (2 = as much evidence as two words no other tool has).
 */
export interface QueryCoverage {
  share: number;
  strength: number;
}

/** One scored tool from `rank`. */
export interface RankedId {
  id: string;
  score: number;
}

/** How a query term reached the index: the word itself, or the expansion that found it. */
export type { MatchPath } from '../types.js';

interface QueryTerm {
  term: string;
  weight: number;
  path: MatchPath;
  /** A word of the query itself (not an exact form, relative, prefix or typo variant). */
  original: boolean;
  /** Bit of the original query term this one stands for. */
  bit: number;
  idf: number;
  /** The posting to score, when it is not `postings.get(term)` (word pairs). */
  posting?: Posting;
}

/** An index over tools: radix-tree term dictionary, BM25F postings, incremental add and remove. */
export class SearchIndex {
  private readonly settings: RankingSettings;
  /** term -> posting; the hot path (a plain Map is several times faster than the radix tree for exact keys). */
  private readonly postings = new Map<string, Posting>();
  /** The same postings in minisearch's radix tree, for prefix and fuzzy lookups. */
  private readonly terms = new SearchableMap<Posting>();
  private readonly slotOf = new Map<string, number>();
  private readonly ids: Array<string | undefined> = [];
  /** Weighted length of all fields per slot, and its sum, for `document` length normalisation. */
  private readonly documentLengths: number[] = [];
  private documentLengthSum = 0;
  private saturation = new Float64Array(0);
  private saturationDirty = true;
  /** Distinct terms per slot, to take a tool out of its postings. */
  private readonly slotTerms: Array<string[] | undefined> = [];
  /**
   * Word pairs: one integer key per pair of term ids (`pairKey`) -> posting. Numeric keys, so a pair costs no string
   * at build time (pairs outnumber words). Term ids are handed out on first sight and kept for the index's life.
   */
  private readonly termIds = new Map<string, number>();
  private readonly pairPostings = new Map<number, Posting>();
  /** Distinct pair keys per slot, to take a tool out of them. */
  private readonly slotPairs: Array<number[] | undefined> = [];
  private readonly freeSlots: number[] = [];
  private scores = new Float64Array(0);
  private masks = new Uint32Array(0);
  /** Per slot: 1 read-only, -1 destructive, 0 neither (from the tool's annotations). */
  private facets = new Int8Array(0);
  /** Per slot: its owner's number (`<source>:<owner>`, numbered on first sight), for server-level evidence. */
  private ownerOfSlot: number[] = [];
  private readonly ownerNumbers = new Map<string, number>();
  private readonly contextOf: (tool: ToolDescriptor) => string;
  private readonly thesaurus: Thesaurus | undefined;

  /** `contextOf` gives a tool's owner context text (indexed in `context`); default none. */
  constructor(settings: RankingSettings = DEFAULT_RANKING, contextOf: (tool: ToolDescriptor) => string = () => '', thesaurus?: Thesaurus) {
    this.settings = settings;
    this.contextOf = contextOf;
    this.thesaurus = thesaurus;
  }

  get size(): number {
    return this.slotOf.size;
  }

  add(tools: readonly ToolDescriptor[]): void {
    for (const tool of tools) this.addOne(tool);
  }

  private addOne(tool: ToolDescriptor): void {
    const fields = indexFields(tool, this.contextOf(tool), this.settings.leadWords, this.settings.leadMinWords);
    const slot = this.freeSlots.pop() ?? this.ids.length;
    this.ids[slot] = tool.id;
    this.slotOf.set(tool.id, slot);
    // Field weights are fixed per index, so each posting stores the weighted term frequency directly. This
    // tool's entries are appended last, so a repeated term adds to the posting's last entry: no per-tool map.
    const distinct: string[] = [];
    const count = (term: string, weight: number) => {
      const posting = this.postings.get(term);
      if (posting === undefined) {
        const created = [slot, weight];
        this.postings.set(term, created);
        // Marked entries (exact forms, whole identifiers) are only ever looked up exactly: keep them out of the
        // tree. Pairs never come here: they have their own numeric postings.
        if (!isMarked(term)) this.terms.set(term, created);
        distinct.push(term);
      } else if (posting[posting.length - 2] === slot) {
        posting[posting.length - 1] = (posting[posting.length - 1] as number) + weight;
      } else {
        posting.push(slot, weight);
        distinct.push(term);
      }
    };
    let documentLength = 0;
    const joinedWeight = this.settings.joinedWeight;
    for (const field of INDEXED_FIELDS) {
      const { terms, exact, joined } = fields[field];
      const weight = this.settings.fieldWeights[field];
      if (weight === 0) continue;
      // Length counts words once; the exact forms ride along without lengthening the text.
      if (!UNLENGTHENED_FIELDS.has(field)) documentLength += weight * terms.length;
      for (const term of terms) count(term, weight);
      for (const term of exact) count(term, weight);
      if (joinedWeight > 0) for (const term of joined) count(JOINED_MARK + term, weight);
    }
    if (this.facets.length <= slot) {
      const grown = new Int8Array(Math.max(64, (slot + 1) * 2));
      grown.set(this.facets);
      this.facets = grown;
    }
    this.facets[slot] = toolFacet(tool);
    const ownerKey = `${tool.source}:${tool.owner}`;
    let ownerNumber = this.ownerNumbers.get(ownerKey);
    if (ownerNumber === undefined) {
      ownerNumber = this.ownerNumbers.size;
      this.ownerNumbers.set(ownerKey, ownerNumber);
    }
    this.ownerOfSlot[slot] = ownerNumber;
    // Pairs of nearby words ("health statistics" in getHealthStatistics), also without lengthening.
    const window = this.settings.pairWindow;
    const pairs: number[] = [];
    for (const field of this.settings.pairFields) {
      const fieldTerms = fields[field].terms;
      if (fieldTerms.length < 2 || this.settings.fieldWeights[field] === 0) continue;
      const weight = this.settings.fieldWeights[field];
      const ids = fieldTerms.map((term) => this.termId(term));
      for (let i = 1; i < ids.length; i++) {
        for (let gap = 1; gap <= window && gap <= i; gap++) {
          const first = ids[i - gap] as number;
          const second = ids[i] as number;
          if (first >= PAIR_KEY_BASE || second >= PAIR_KEY_BASE) continue;
          const key = pairKey(first, second);
          const posting = this.pairPostings.get(key);
          if (posting === undefined) {
            this.pairPostings.set(key, [slot, weight]);
            pairs.push(key);
          } else if (posting[posting.length - 2] === slot) {
            posting[posting.length - 1] = (posting[posting.length - 1] as number) + weight;
          } else {
            posting.push(slot, weight);
            pairs.push(key);
          }
        }
      }
    }
    this.slotPairs[slot] = pairs;
    this.documentLengths[slot] = documentLength;
    this.documentLengthSum += documentLength;
    this.slotTerms[slot] = distinct;
    this.saturationDirty = true;
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      const slot = this.slotOf.get(id);
      if (slot === undefined) continue;
      for (const term of this.slotTerms[slot] ?? []) {
        const posting = this.postings.get(term);
        if (!posting) continue;
        removeSlot(posting, slot);
        if (posting.length === 0) {
          this.postings.delete(term);
          if (!isMarked(term)) this.terms.delete(term);
        }
      }
      const pairs = this.slotPairs[slot] ?? [];
      for (const key of pairs) {
        const posting = this.pairPostings.get(key);
        if (!posting) continue;
        removeSlot(posting, slot);
        if (posting.length === 0) this.pairPostings.delete(key);
      }
      this.slotPairs[slot] = undefined;
      this.documentLengthSum -= this.documentLengths[slot] as number;
      this.documentLengths[slot] = 0;
      this.slotTerms[slot] = undefined;
      this.facets[slot] = 0;
      this.ids[slot] = undefined;
      this.slotOf.delete(id);
      this.freeSlots.push(slot);
    }
    this.saturationDirty = true;
  }

  /** k1 × (1 − b + b × length / average length) per slot; recomputed after the catalog changes. */
  private saturationBySlot(): Float64Array {
    if (!this.saturationDirty && this.saturation.length >= this.ids.length) return this.saturation;
    const { k1, b } = this.settings;
    const average = this.documentLengthSum / Math.max(1, this.slotOf.size);
    if (this.saturation.length < this.ids.length) this.saturation = new Float64Array(this.ids.length * 2);
    for (let slot = 0; slot < this.ids.length; slot++) {
      this.saturation[slot] = average > 0 ? k1 * (1 - b + (b * (this.documentLengths[slot] as number)) / average) : k1;
    }
    this.saturationDirty = false;
    return this.saturation;
  }

  /** `saturationBySlot` for the tools a scope admits, with their own average length (cached until it changes). */
  private scopedSaturation(scope: IndexScope): Float64Array {
    const { k1, b } = this.settings;
    const cache = scope.saturationCache(this.ids.length);
    if (cache.fresh) return cache.values;
    const average = scope.lengthSum / Math.max(1, scope.count);
    const admitted = scope.admittedSlots();
    for (let slot = 0; slot < this.ids.length; slot++) {
      if (!isAdmittedSlot(admitted, slot)) continue;
      cache.values[slot] = average > 0 ? k1 * (1 - b + (b * (this.documentLengths[slot] as number)) / average) : k1;
    }
    return cache.values;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termIds.size;
      this.termIds.set(term, id);
    }
    return id;
  }

  /** The id in a slot (undefined for a free slot). */
  idAt(slot: number): string | undefined {
    return this.ids[slot];
  }

  /** The slot of a catalogued id (slots are reused after a removal). */
  slotFor(id: string): number | undefined {
    return this.slotOf.get(id);
  }

  /** Slots in use or free: one more than the highest slot ever handed out. */
  get capacity(): number {
    return this.ids.length;
  }

  /** Weighted length of the tool in `slot` (0 for a free slot). */
  lengthOf(slot: number): number {
    return this.documentLengths[slot] ?? 0;
  }

  /** A new, empty set of admitted tools over this index (see `IndexScope`). */
  createScope(): IndexScope {
    return new IndexScope(this);
  }

  /** The collection statistics BM25 reads: over the whole index, or over the tools a scope admits. */
  private statistics(scope: IndexScope | undefined): Statistics {
    if (scope === undefined) {
      const total = this.slotOf.size;
      return { total, admitted: undefined, frequency: (posting) => (posting?.length ?? 0) / 2 };
    }
    const admitted = scope.admittedSlots();
    return {
      total: scope.count,
      admitted,
      frequency: (posting) => {
        if (posting === undefined) return 0;
        // Counted over the posting once, then kept until the scope's tools change (most query words recur).
        const known = scope.frequencies.get(posting);
        if (known !== undefined) return known;
        let count = 0;
        for (let i = 0; i < posting.length; i += 2) if (isAdmittedSlot(admitted, posting[i] as number)) count += 1;
        scope.frequencies.set(posting, count);
        return count;
      },
    };
  }

  /** Query text to the weighted terms that will be scored (empty when nothing meaningful is left). */
  queryTerms(query: string, statistics: Statistics = this.statistics(undefined), analyzed: AnalyzedText = analyzeQuery(query), keptOut?: string[]): QueryTerm[] {
    const settings = this.settings;
    const unique = [...new Set(analyzed.terms)];
    const total = statistics.total;
    if (unique.length === 0 || total === 0) return [];
    const typoTolerant = unique.length <= settings.maxTermsForFuzzy;
    const frequencies = new Map<string, number>();
    const df = (term: string) => {
      let frequency = frequencies.get(term);
      if (frequency === undefined) {
        frequency = statistics.frequency(this.postings.get(term));
        frequencies.set(term, frequency);
      }
      return frequency;
    };
    const idf = (frequency: number) => Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
    // A word counts as present when a tool has it, or has it as one split identifier ("github" in GitHub).
    const present = (term: string) => df(term) > 0 || (settings.joinedWeight > 0 && df(JOINED_MARK + term) > 0);
    // Longer queries: a word no tool has may be a typo of one that a tool has.
    const typoVariants = new Map<string, string[]>();
    if (!typoTolerant && settings.unknownWordTypos) {
      analyzed.terms.forEach((term, i) => {
        if (present(term) || typoVariants.has(term) || term.length < 4 || !/^[a-z]+$/.test(term)) return;
        const variants = new Set<string>();
        if (term.length >= 5) for (const [variant, [, distance]] of this.terms.fuzzyGet(term, 1)) if (distance > 0 && df(variant) > 0) variants.add(variant);
        for (const variant of swappedNeighbours(analyzed.words[i] as string)) if (variant !== term && df(variant) > 0) variants.add(variant);
        if (variants.size > 0) typoVariants.set(term, [...variants].sort().slice(0, MAX_DERIVED_TERMS));
      });
    }
    // Rare or unknown query words (and two-word verbs) -> their thesaurus relatives that some tool has.
    const thesaurusRelatives = this.thesaurusRelatives(query, unique, df);
    let kept = typoTolerant ? unique : unique.filter((term) => present(term) || typoVariants.has(term) || thesaurusRelatives.has(term));
    const limit = settings.maxQueryTerms;
    if (kept.length > limit) {
      const rarest = new Set([...kept].sort((a, b) => df(a) - df(b) || (a < b ? -1 : 1)).slice(0, limit));
      kept = kept.filter((term) => rarest.has(term));
    }
    keptOut?.push(...kept);
    // Terms past the 30th share the last bit (they still score; diversification just sees them as one).
    const bitOf = new Map(kept.map((term, i) => [term, Math.min(i, MAX_TRACKED_TERMS - 1)]));
    const out: QueryTerm[] = [];
    // Exact forms of the kept words, on the bit of their stem.
    if (settings.exactWeight > 0) {
      const seen = new Set<string>();
      analyzed.exact.forEach((exact, i) => {
        const bit = bitOf.get(analyzed.exactStems[i] as string);
        const frequency = df(exact);
        if (bit === undefined || frequency === 0 || seen.has(exact)) return;
        seen.add(exact);
        out.push({ term: exact, weight: settings.exactWeight, path: 'exact-form', original: false, bit, idf: idf(frequency) });
      });
    }
    // Nearby query words that are near each other in a tool; they score but cover no query term of their own.
    if (settings.pairWeight > 0) {
      const seenPairs = new Set<Posting>();
      const ids = analyzed.terms.map((term) => this.termIds.get(term));
      for (let i = 1; i < ids.length; i++) {
        for (let gap = 1; gap <= settings.pairWindow && gap <= i; gap++) {
          const first = ids[i - gap];
          const second = ids[i];
          if (first === undefined || second === undefined || first >= PAIR_KEY_BASE || second >= PAIR_KEY_BASE) continue;
          const posting = this.pairPostings.get(pairKey(first, second));
          if (posting === undefined || seenPairs.has(posting)) continue;
          seenPairs.add(posting);
          const frequency = statistics.frequency(posting);
          if (frequency === 0) continue;
          const term = `${PAIR_MARK}${analyzed.terms[i - gap]} ${analyzed.terms[i]}`;
          out.push({ term, weight: settings.pairWeight, path: 'word-pair', original: false, bit: -1, idf: idf(frequency), posting });
        }
      }
    }
    // A query word that a tool writes as one identifier split at case changes ("github" for GitHub), and an
    // identifier of the query that a tool writes as one word. They score; they cover nothing of their own.
    if (settings.joinedWeight > 0) {
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
    }
    for (const [term, relatives] of thesaurusRelatives) {
      const bit = bitOf.get(term);
      if (bit === undefined) continue;
      for (const relative of relatives) out.push({ term: relative, weight: settings.thesaurusWeight, path: 'thesaurus', original: false, bit, idf: idf(df(relative)) });
    }
    for (const entry of expandQueryTerms(kept, settings.expansionWeight)) {
      const bit = bitOf.get(entry.origin) as number;
      const frequency = df(entry.term);
      const original = entry.term === entry.origin;
      if (frequency > 0) out.push({ term: entry.term, weight: entry.weight, path: original ? 'word' : 'intent', original, bit, idf: idf(frequency) });
      for (const variant of original ? (typoVariants.get(entry.term) ?? []) : []) {
        out.push({ term: variant, weight: settings.fuzzyWeight, path: 'typo', original: false, bit, idf: idf(df(variant)) });
      }
      if (!typoTolerant || !original || entry.term.length < 3) continue;
      // Short queries: prefix and one-typo matches of each original term, at lower weight. Sorted, so the
      // sum order (and so the score) does not depend on the tree's insertion history.
      const derived = new Map<string, number>();
      const typos = new Set<string>();
      for (const [term] of this.terms.atPrefix(entry.term)) {
        if (term === entry.term || df(term) === 0) continue;
        const distance = term.length - entry.term.length;
        derived.set(term, (settings.prefixWeight * term.length) / (term.length + 0.3 * distance));
      }
      if (entry.term.length >= 5) {
        for (const [term, [, distance]] of this.terms.fuzzyGet(entry.term, 1)) {
          if (distance === 0 || derived.has(term) || df(term) === 0) continue;
          derived.set(term, (settings.fuzzyWeight * term.length) / (term.length + distance));
          typos.add(term);
        }
      }
      // A short prefix can reach hundreds of words; the closest ones are enough and keep latency flat.
      const closest = [...derived].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_DERIVED_TERMS);
      for (const [term, weight] of closest.sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        out.push({ term, weight, path: typos.has(term) ? 'typo' : 'prefix', original: false, bit, idf: idf(df(term)) });
      }
    }
    return out;
  }

  /**
   * Query term -> the thesaurus relatives to search for it: for a two-word verb of the query ("kick off") and for
   * each query word at most `thesaurusMaxFrequency` tools have. Each relative is in some tool, and is neither a
   * query term nor one of the term's intent-table relatives (those are searched anyway).
   */
  private thesaurusRelatives(query: string, unique: readonly string[], df: (term: string) => number): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const thesaurus = this.thesaurus;
    const settings = this.settings;
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
      const words = splitWords(query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query).map((word) => word.toLowerCase());
      for (let i = 0; i + 1 < words.length; i++) {
        const verb = normalizeTerm(words[i] as string);
        if (verb !== undefined && inQuery.has(verb)) take(verb, `${verb} ${words[i + 1]}`);
      }
    }
    for (const term of unique) if (!out.has(term) && df(term) <= settings.thesaurusMaxFrequency) take(term, term);
    return out;
  }

  /**
   * For each id: the idf-weighted share of the query's words that tool matches, 0..1. A word matched as written
   * (or as its stem, exact form or whole identifier) counts whole; one matched only through a relative, a prefix
   * or a typo counts half; a word no tool has counts as unmatched at the highest idf. Statistics are the scope's,
   * as in `rank`.
   */
  coverage(query: string, ids: readonly string[], scope?: IndexScope): QueryCoverage[] {
    const statistics = this.statistics(scope);
    const analyzed = analyzeQuery(query);
    const unique = [...new Set(analyzed.terms)];
    const total = statistics.total;
    if (unique.length === 0 || total === 0) return ids.map(() => ({ share: 0, strength: 0 }));
    const kept: string[] = [];
    const queryTerms = this.queryTerms(query, statistics, analyzed, kept);
    const idf = (frequency: number) => Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
    const bitWeights = new Map<number, number>();
    let all = 0;
    for (const term of unique) {
      const weight = idf(statistics.frequency(this.postings.get(term)));
      all += weight;
      const at = kept.indexOf(term);
      if (at < 0) continue;
      const bit = Math.min(at, MAX_TRACKED_TERMS - 1);
      bitWeights.set(bit, (bitWeights.get(bit) ?? 0) + weight);
    }
    return ids.map((id) => {
      const slot = this.slotOf.get(id);
      if (slot === undefined || all === 0) return { share: 0, strength: 0 };
      const credit = new Map<number, number>();
      for (const { term, bit, original, posting } of queryTerms) {
        if (bit < 0 || (credit.get(bit) ?? 0) === 1) continue;
        if (!postingHas(posting ?? this.postings.get(term), slot)) continue;
        const whole = original || term.startsWith(EXACT_MARK) || term.startsWith(JOINED_MARK);
        credit.set(bit, Math.max(credit.get(bit) ?? 0, whole ? 1 : 0.5));
      }
      let matched = 0;
      for (const [bit, share] of credit) matched += share * (bitWeights.get(bit) ?? 0);
      return { share: Math.min(1, matched / all), strength: matched / idf(0) };
    });
  }

  /**
   * Why each of `tools` scores as `rank` scores it for `query`: every query term it matched (the word itself or
   * the expansion that reached it), that term's part of the lexical sum (the same formula and statistics as
   * `rank`), the fields of the tool the term is in, and the annotation factor. Also the query's own words and
   * whether any tool of the scope has each. A tool outside the scope matches nothing.
   */
  explain(query: string, tools: readonly ToolDescriptor[], scope?: IndexScope): IndexExplanation {
    const statistics = this.statistics(scope);
    const analyzed = analyzeQuery(query);
    const kept: string[] = [];
    const queryTerms = this.queryTerms(query, statistics, analyzed, kept);
    const words = [...new Set(analyzed.terms)].map((term) => ({ term, found: statistics.frequency(this.postings.get(term)) > 0 || statistics.frequency(this.postings.get(JOINED_MARK + term)) > 0 }));
    const admitted = statistics.admitted;
    const saturation = admitted === undefined ? this.saturationBySlot() : this.scopedSaturation(scope as IndexScope);
    const facet = this.settings.facetBoost > 0 ? queryFacet(analyzed.terms) : 0;
    const k1 = this.settings.k1;
    const hits = tools.map((tool) => {
      const slot = this.slotOf.get(tool.id);
      if (slot === undefined || (admitted !== undefined && !isAdmittedSlot(admitted, slot))) return { id: tool.id, lexical: 0, facet: 1, matches: [] };
      const fields = indexFields(tool, this.contextOf(tool), this.settings.leadWords, this.settings.leadMinWords);
      const matches: IndexExplanation['hits'][number]['matches'] = [];
      let lexical = 0;
      for (const { term, weight, path, idf, posting } of queryTerms) {
        const tf = postingFrequency(posting ?? this.postings.get(term), slot);
        if (tf === 0) continue;
        const contribution = (weight * idf * (k1 + 1) * tf) / (tf + (saturation[slot] as number));
        lexical += contribution;
        matches.push({ term: displayTerm(term), path, contribution, fields: path === 'word-pair' ? [] : fieldsWith(fields, term) });
      }
      const facetFactor = facet !== 0 && this.facets[slot] !== 0 ? (this.facets[slot] === facet ? 1 + this.settings.facetBoost : 1 - this.settings.facetBoost) : 1;
      return { id: tool.id, lexical, facet: facetFactor, matches };
    });
    return { words, hits };
  }

  /**
   * The best `limit` tools for `query` with their scores, best first, ties by id. With a `scope`, only the tools
   * it admits are scored, and document counts, frequencies and the average length are theirs: the ranking is the
   * one an index of those tools alone would give, and nothing of the other tools shapes it.
   */
  rank(query: string, limit: number, scope?: IndexScope): RankedId[] {
    const statistics = this.statistics(scope);
    const analyzed = analyzeQuery(query);
    const queryTerms = this.queryTerms(query, statistics, analyzed);
    if (queryTerms.length === 0) return [];
    const settings = this.settings;
    const facet = settings.facetBoost > 0 ? queryFacet(analyzed.terms) : 0;
    const facets = this.facets;
    if (this.scores.length < this.ids.length) {
      this.scores = new Float64Array(this.ids.length * 2);
      this.masks = new Uint32Array(this.ids.length * 2);
    }
    const scores = this.scores;
    const masks = this.masks;
    const admitted = statistics.admitted;
    const saturation = admitted === undefined ? this.saturationBySlot() : this.scopedSaturation(scope as IndexScope);
    const k1 = settings.k1;
    const touched: number[] = [];
    const bitIdf = new Map<number, number>();
    const accumulate = (posting: Posting | undefined, weight: number, bit: number, idf: number) => {
      if (!posting) return;

      const termWeight = weight * idf * (k1 + 1);
      const bitMask = bit < 0 ? 0 : 1 << bit;
      for (let i = 0; i < posting.length; i += 2) {
        const slot = posting[i] as number;
        if (admitted !== undefined && !isAdmittedSlot(admitted, slot)) continue;
        const tf = posting[i + 1] as number;
        if (masks[slot] === 0 && scores[slot] === 0) touched.push(slot);
        scores[slot] = (scores[slot] as number) + (termWeight * tf) / (tf + (saturation[slot] as number));
        masks[slot] = (masks[slot] as number) | bitMask;
      }
    };
    const termIdf = new Map<number, number>();
    for (const { term, weight, original, bit, idf, posting } of queryTerms) {
      if (original) termIdf.set(bit, idf);
      accumulate(posting ?? this.postings.get(term), weight, bit, idf);
    }
    // A query term counts as matched (for diversification) only when a candidate has it.
    const candidates = touched;
    let presentBits = 0;
    for (const slot of candidates) presentBits |= masks[slot] as number;
    for (const [bit, idf] of termIdf) if (presentBits & (1 << bit)) bitIdf.set(bit, idf);
    const depth = Math.max(limit, settings.coveredTermWeight < 1 ? settings.diversifyDepth : 0);
    const top: Array<{ slot: number; score: number; id: string }> = [];
    // Server-level evidence: each server (owner) as one document of all its admitted tools, scored by BM25 over the
    // admitted servers; a matching tool is lifted by its server's share of the best server score. Only admitted
    // tools take part, so a view's ranking still depends on its admitted tools alone.
    const serverWeight = settings.serverWeight;
    const serverScores = serverWeight > 0 && candidates.length > 1 ? this.serverScores(queryTerms, admitted) : undefined;
    for (const slot of candidates) {
      let score = scores[slot] as number;
      if (serverScores !== undefined) score *= 1 + serverWeight * (serverScores[this.ownerOfSlot[slot] as number] as number);
      // Annotations agree (or disagree) with a read-only or destructive request: a small nudge that breaks ties.
      if (facet !== 0 && facets[slot] !== 0) score *= facets[slot] === facet ? 1 + settings.facetBoost : 1 - settings.facetBoost;
      if (top.length === depth && score < (top[depth - 1] as { score: number }).score) continue;
      insertTop(top, { slot, score, id: this.ids[slot] as string }, depth);
    }
    const result =
      settings.coveredTermWeight < 1 && bitIdf.size > 1
        ? this.diversify(top, bitIdf, masks).slice(0, limit)
        : top.slice(0, limit).map(({ id, score }) => ({ id, score }));
    for (const slot of touched) {
      scores[slot] = 0;
      masks[slot] = 0;
    }
    return result;
  }

  /**
   * Per owner number: the BM25 score of the query against the owner's admitted tools taken as one document (term
   * frequencies and lengths summed over them; document frequencies and the average length over the admitted
   * owners), divided by the best owner's (so 0..1).
   */
  private serverScores(queryTerms: readonly QueryTerm[], admitted: Uint8Array | undefined): Float64Array {
    const owners = this.ownerNumbers.size;
    const lengths = new Float64Array(owners);
    const present = new Uint8Array(owners);
    let ownerCount = 0;
    let lengthSum = 0;
    for (let slot = 0; slot < this.ids.length; slot++) {
      if (this.ids[slot] === undefined || (admitted !== undefined && !isAdmittedSlot(admitted, slot))) continue;
      const owner = this.ownerOfSlot[slot] as number;
      if (present[owner] === 0) {
        present[owner] = 1;
        ownerCount += 1;
      }
      const length = this.documentLengths[slot] as number;
      lengths[owner] = (lengths[owner] as number) + length;
      lengthSum += length;
    }
    const out = new Float64Array(owners);
    if (ownerCount === 0) return out;
    const { k1, b } = this.settings;
    const average = lengthSum / ownerCount;
    const frequencies = new Float64Array(owners);
    const seen: number[] = [];
    for (const { term, weight, bit, posting: own } of queryTerms) {
      if (bit < 0) continue;
      const posting = own ?? this.postings.get(term);
      if (posting === undefined) continue;
      for (let i = 0; i < posting.length; i += 2) {
        const slot = posting[i] as number;
        if (admitted !== undefined && !isAdmittedSlot(admitted, slot)) continue;
        const owner = this.ownerOfSlot[slot] as number;
        if (frequencies[owner] === 0) seen.push(owner);
        frequencies[owner] = (frequencies[owner] as number) + (posting[i + 1] as number);
      }
      const idf = Math.log(1 + (ownerCount - seen.length + 0.5) / (seen.length + 0.5));
      for (const owner of seen) {
        const tf = frequencies[owner] as number;
        const saturation = average > 0 ? k1 * (1 - b + (b * (lengths[owner] as number)) / average) : k1;
        out[owner] = (out[owner] as number) + (weight * idf * tf * (k1 + 1)) / (tf + saturation);
        frequencies[owner] = 0;
      }
      seen.length = 0;
    }
    let best = 0;
    for (let owner = 0; owner < owners; owner++) best = Math.max(best, out[owner] as number);
    if (best > 0) for (let owner = 0; owner < owners; owner++) out[owner] = (out[owner] as number) / best;
    return out;
  }

  /**
   * Greedy re-ordering of the top candidates: each pick's score is scaled by the idf-weighted share of its
   * matched query terms not yet covered by earlier picks, so a query asking for three things gets a tool for
   * each before a fourth near-duplicate of the first.
   */
  private diversify(pool: Array<{ slot: number; score: number; id: string }>, bitIdf: Map<number, number>, masks: Uint32Array): RankedId[] {
    const remaining = [...pool];
    let covered = 0;
    const out: RankedId[] = [];
    let floor = Number.POSITIVE_INFINITY;
    while (remaining.length > 0) {
      let bestIndex = 0;
      let bestScore = Number.NEGATIVE_INFINITY;
      remaining.forEach((candidate, i) => {
        const mask = masks[candidate.slot] as number;
        let all = 0;
        let fresh = 0;
        for (const [bit, idf] of bitIdf) {
          if (!(mask & (1 << bit))) continue;
          all += idf;
          fresh += covered & (1 << bit) ? idf * this.settings.coveredTermWeight : idf;
        }
        const adjusted = all > 0 ? (candidate.score * fresh) / all : candidate.score;
        if (adjusted > bestScore || (adjusted === bestScore && candidate.id < (remaining[bestIndex] as { id: string }).id)) {
          bestScore = adjusted;
          bestIndex = i;
        }
      });
      const [picked] = remaining.splice(bestIndex, 1) as [{ slot: number; score: number; id: string }];
      covered |= masks[picked.slot] as number;
      // Scores stay monotonic with rank.
      floor = Math.min(floor, bestScore);
      out.push({ id: picked.id, score: floor });
    }
    return out;
  }
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

/** Term ids below this pair into one exact integer key (2^26 × 2^26 stays under 2^53). */
const PAIR_KEY_BASE = 2 ** 26;

/** One key for a pair of term ids, in either order. */
function pairKey(first: number, second: number): number {
  return first < second ? first * PAIR_KEY_BASE + second : second * PAIR_KEY_BASE + first;
}

/** Whether a posting has an entry for `slot`. */
function postingHas(posting: Posting | undefined, slot: number): boolean {
  if (posting === undefined) return false;
  for (let at = 0; at < posting.length; at += 2) if (posting[at] === slot) return true;
  return false;
}

/** Takes one slot's entry out of a posting. */
function removeSlot(posting: Posting, slot: number): void {
  for (let at = 0; at < posting.length; at += 2) {
    if (posting[at] === slot) {
      posting.splice(at, 2);
      return;
    }
  }
}

function isMarked(term: string): boolean {
  return term.startsWith(EXACT_MARK) || term.startsWith(JOINED_MARK);
}

/** Query text to its analysis; only the start of a very long query is read (bounded work whatever is sent). */
function analyzeQuery(query: string): AnalyzedText {
  return analyzeText(query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query);
}

/** Keeps `top` sorted (score desc, id asc) and at most `size` long. */
function insertTop(top: Array<{ slot: number; score: number; id: string }>, candidate: { slot: number; score: number; id: string }, size: number): void {
  if (top.length === size) {
    const last = top[size - 1] as { score: number; id: string };
    if (candidate.score < last.score || (candidate.score === last.score && candidate.id > last.id)) return;
  }
  let i = top.length;
  while (i > 0) {
    const before = top[i - 1] as { score: number; id: string };
    if (before.score > candidate.score || (before.score === candidate.score && before.id < candidate.id)) break;
    i--;
  }
  top.splice(i, 0, candidate);
  if (top.length > size) top.pop();
}

/** What `SearchIndex.explain` finds. */
export interface IndexExplanation {
  /** The query's words after analysis (stems), and whether any tool of the scope has each. */
  words: Array<{ term: string; found: boolean }>;
  hits: Array<{
    id: string;
    /** The lexical sum before the annotation factor and diversification. */
    lexical: number;
    /** The annotation factor (1 when the query asks neither only to look nor only to destroy). */
    facet: number;
    matches: Array<{ term: string; path: MatchPath; contribution: number; fields: IndexedField[] }>;
  }>;
}

/** A slot's weighted term frequency in a posting (0 when it is not there). */
function postingFrequency(posting: Posting | undefined, slot: number): number {
  if (posting === undefined) return 0;
  for (let i = 0; i < posting.length; i += 2) if (posting[i] === slot) return posting[i + 1] as number;
  return 0;
}

/** A query term as a person reads it: without the index's marks. */
function displayTerm(term: string): string {
  return term.replace(/^[=%+]/, '');
}

/** The fields of a tool whose analysed text holds `term` (as a word, exact form or whole identifier). */
function fieldsWith(fields: Record<IndexedField, AnalyzedText>, term: string): IndexedField[] {
  const bare = displayTerm(term);
  return INDEXED_FIELDS.filter((field) => {
    const text = fields[field];
    return text.terms.includes(bare) || text.exact.includes(term) || text.joined.includes(bare);
  });
}
