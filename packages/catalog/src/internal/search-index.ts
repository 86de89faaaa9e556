// The ranking index. minisearch's radix tree (`SearchableMap`, in `Postings`) is the term dictionary and gives
// prefix and small-typo lookups; scoring is BM25F over compact postings kept here, because per-field BM25 summed
// across fields over-rewards a term repeated in name, parameters and description, and because minisearch's
// per-document result objects cost too much per long query at 10,000 tools (bench/RESULTS.md).
//
// The parts: analysis (`index-fields.ts`), postings (`postings.ts`), query expansion (`expand-query.ts`), the
// scope (`index-scope.ts`), and the ranking here with its last steps (`name-evidence.ts`, `diversify-ranking.ts`).
import type { MatchPath, Thesaurus, ToolDescriptor } from '../types.js';
import { diversifyRanking, insertTop, type Candidate } from './diversify-ranking.js';
import { bm25Idf, expandQuery, MAX_TRACKED_TERMS, type QueryTerm, type Statistics } from './expand-query.js';
import { analyzeQuery, clipQuery, indexFields, toolFacet, writtenQueryTerms } from './index-fields.js';
import { IndexScope, isAdmittedSlot } from './index-scope.js';
import { queryFacet } from './intent-table.js';
import { GENERIC_VERB_STEMS, NameEvidence } from './name-evidence.js';
import { deprecatedReplacement } from './deprecated-replacement.js';
import { toolId } from '../tool-id.js';
import { CONTEXT_MARK, JOINED_MARK, postingFrequency, postingHas, Postings } from './postings.js';
import { DEFAULT_RANKING, INDEXED_FIELDS, isWeakEvidence, type IndexedField, type RankingSettings } from './ranking-settings.js';
import { EXACT_MARK, normalizeTerm, splitWords, type AnalyzedText } from './tokenize-text.js';

export { DEFAULT_RANKING, INDEXED_FIELDS, type IndexedField, type RankingSettings } from './ranking-settings.js';
export { indexFields } from './index-fields.js';
export type { MatchPath } from '../types.js';

/**
 * How much of a query one tool matches: `share`, the idf-weighted share of the query's words; `strength`, the
 * matched idf in units of the rarest possible word (2 = as much evidence as two words no other tool has).
 */
export interface QueryCoverage {
  share: number;
  strength: number;
  /** Whether a query word itself (not a relative, prefix or typo) is in what the tool says it does (not incidental). */
  direct?: boolean;
  /** Whether the query names the tool's server and a word of the tool's own name. */
  serverAndName?: boolean;
  /**
   * Whether the query has every word of the tool's name that says what it does (at least `NAME_ASKED_MIN_WORDS`;
   * not its server's words, not a generic verb): "the earnings trend for META" asks for `earnings_trend`. Measured
   * for the answer's verdict only (`coverage`), never for the thesaurus trigger.
   */
  nameAsked?: boolean;
}

/** One scored tool from `rank`. */
export interface RankedId {
  id: string;
  score: number;
}

/** A query's terms and the query words they keep, in bit order (what `expandQuery` gives). */
interface Expansion {
  terms: QueryTerm[];
  kept: string[];
}

/** What `SearchIndex.explain` finds. */
export interface IndexExplanation {
  /** The query's words after analysis (stems), whether any tool of the scope has each, and whether it is implied. */
  words: Array<{ term: string; found: boolean; implied?: true }>;
  hits: Array<{
    id: string;
    /** The lexical sum before the annotation factor and diversification. */
    lexical: number;
    /** The annotation factor (1 when the query asks neither only to look nor only to destroy). */
    facet: number;
    /** The name and server factor (see `nameWeight`, `ownerNamedWeight`, `oppositeNameWeight`; 1 when none applies). */
    naming: number;
    matches: Array<{ term: string; path: MatchPath; contribution: number; fields: IndexedField[] }>;
  }>;
}

/** An index over tools: slots, lengths and facets here, terms in `Postings`; incremental add and remove. */
export class SearchIndex {
  private readonly postings: Postings;
  private readonly slotOf = new Map<string, number>();
  private readonly ids: Array<string | undefined> = [];
  /** Weighted length of all fields per slot, and its sum, for `document` length normalisation. */
  private readonly documentLengths: number[] = [];
  private documentLengthSum = 0;
  private saturation = new Float64Array(0);
  private saturationDirty = true;
  private readonly freeSlots: number[] = [];
  private scores = new Float64Array(0);
  private masks = new Uint32Array(0);
  /** Per slot: 1 read-only, -1 destructive, 0 neither (from the tool's annotations). */
  private facets = new Int8Array(0);
  /** Per slot: its owner's number (`<source>:<owner>`, numbered on first sight), for a query that names a server. */
  private readonly ownerOfSlot: number[] = [];
  private readonly ownerNumbers = new Map<string, number>();
  /** Names and owners as evidence (see `nameWeight`, `ownerNamedWeight`, `oppositeNameWeight`). */
  private readonly names: NameEvidence;
  /** Counts `add` and `remove` calls: a thesaurus verdict is kept only while nothing changed. */
  private changes = 0;
  /** The last query's thesaurus verdict (see `readsThesaurus`): rank, coverage and explain of one search share it. */
  private thesaurusVerdict: { query: string; scope: IndexScope | undefined; changes: number; uses: boolean } | undefined;

  /** Per deprecated slot: the id of the tool its description names as its replacement (same source and owner). */
  private readonly replacementOf = new Map<number, string>();
  /** Per slot, where a judged hit has its terms (see `evidenceFields`); bounded, dropped on any change. */
  private readonly evidenceFieldCache = new Map<number, EvidenceFields>();

  /**
   * `contextOf` gives a tool's owner context text (indexed in `context`); default none. `toolOf` gives a catalogued
   * tool by id (to read where a judged hit has the query's words); without it every field counts the same.
   */
  constructor(
    private readonly settings: RankingSettings = DEFAULT_RANKING,
    private readonly contextOf: (tool: ToolDescriptor) => string = () => '',
    private readonly thesaurus?: Thesaurus,
    private readonly toolOf?: (id: string) => ToolDescriptor | undefined,
  ) {
    this.postings = new Postings(settings);
    this.names = new NameEvidence(settings);
  }

  get size(): number {
    return this.slotOf.size;
  }

  add(tools: readonly ToolDescriptor[]): void {
    this.changes += 1;
    this.evidenceFieldCache.clear();
    for (const tool of tools) this.addOne(tool);
  }

  private addOne(tool: ToolDescriptor): void {
    const slot = this.freeSlots.pop() ?? this.ids.length;
    this.ids[slot] = tool.id;
    this.slotOf.set(tool.id, slot);
    const fields = this.fieldsOf(tool);
    const documentLength = this.postings.add(slot, fields);
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
      this.names.addOwner(ownerNumber, fields.owner);
    }
    this.ownerOfSlot[slot] = ownerNumber;
    this.names.add(slot, fields, this.ownerOfSlot);
    const replacement = deprecatedReplacement(tool.description, tool.name);
    if (replacement === undefined) this.replacementOf.delete(slot);
    else this.replacementOf.set(slot, toolId(tool.source, tool.owner, replacement));
    this.documentLengths[slot] = documentLength;
    this.documentLengthSum += documentLength;
    this.saturationDirty = true;
  }

  remove(ids: readonly string[]): void {
    this.changes += 1;
    this.evidenceFieldCache.clear();
    const slots: number[] = [];
    for (const id of ids) {
      const slot = this.slotOf.get(id);
      if (slot === undefined) continue;
      slots.push(slot);
      this.documentLengthSum -= this.documentLengths[slot] as number;
      this.documentLengths[slot] = 0;
      this.facets[slot] = 0;
      this.replacementOf.delete(slot);
      this.ids[slot] = undefined;
      this.slotOf.delete(id);
      this.freeSlots.push(slot);
    }
    // All at once: the tools of one server share many postings, each compacted once rather than once per tool.
    this.postings.removeAll(slots);
    this.names.removeAll(slots);
    this.saturationDirty = true;
  }

  private fieldsOf(tool: ToolDescriptor): Record<IndexedField, AnalyzedText> {
    return indexFields(tool, this.contextOf(tool), this.settings.leadWords, this.settings.leadMinWords);
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

  private saturationFor(scope: IndexScope | undefined): Float64Array {
    return scope === undefined ? this.saturationBySlot() : this.scopedSaturation(scope);
  }

  /** The id of the tool a deprecated tool names as its replacement (`deprecatedReplacement`), if any. */
  replacementNamedBy(id: string): string | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : this.replacementOf.get(slot);
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

  /**
   * Query text to the weighted terms that will be scored (empty when nothing meaningful is left), through `scope`.
   * Thesaurus relatives are among them only when the answer without them is weak (see `readsThesaurus`).
   */
  queryTerms(query: string, scope?: IndexScope, statistics: Statistics = this.statistics(scope), analyzed: AnalyzedText = analyzeQuery(query), keptOut?: string[]): QueryTerm[] {
    const { plain, withRelatives } = this.expansions(query, statistics, analyzed);
    const chosen = withRelatives !== undefined && this.readsThesaurus(query, scope, statistics, analyzed, plain) ? withRelatives : plain;
    keptOut?.push(...chosen.kept);
    return chosen.terms;
  }

  /** The query's terms without thesaurus relatives, and with them when the thesaurus adds any. */
  private expansions(query: string, statistics: Statistics, analyzed: AnalyzedText): { plain: Expansion; withRelatives: Expansion | undefined } {
    const kept: string[] = [];
    const terms = expandQuery(query, analyzed, statistics, this.postings, this.settings, this.thesaurus, kept);
    if (!terms.some((term) => term.path === 'thesaurus')) return { plain: { terms, kept }, withRelatives: undefined };
    const plainKept: string[] = [];
    const plain = expandQuery(query, analyzed, statistics, this.postings, this.settings, undefined, plainKept);
    return { plain: { terms: plain, kept: plainKept }, withRelatives: { terms, kept } };
  }

  /**
   * Whether `query` reads the thesaurus through `scope`: only when the best hit without it (`plain`; `ranked`, its
   * ranking when known) is weak evidence (`isWeakEvidence`), so a query its own words answer ranks as without a
   * thesaurus, and one that finds nothing or guesses reaches for relatives. Decided on the scope's tools alone;
   * kept for the next call on the same query and scope while the index is unchanged (a search ranks, then
   * measures its top hit).
   */
  private readsThesaurus(query: string, scope: IndexScope | undefined, statistics: Statistics, analyzed: AnalyzedText, plain: Expansion, ranked?: readonly RankedId[]): boolean {
    const known = this.thesaurusVerdict;
    if (known !== undefined && known.query === query && known.scope === scope && known.changes === this.changes) return known.uses;
    const top = plain.terms.length === 0 ? undefined : (ranked ?? this.rankTerms(query, plain.terms, analyzed, 1, statistics, scope))[0];
    const uses = top === undefined || isWeakEvidence(this.settings, this.coverageOf(plain.terms, plain.kept, analyzed, statistics, [top.id], query)[0] as QueryCoverage);
    this.thesaurusVerdict = { query, scope, changes: this.changes, uses };
    return uses;
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
    const kept: string[] = [];
    const queryTerms = this.queryTerms(query, scope, statistics, analyzed, kept);
    return this.coverageOf(queryTerms, kept, analyzed, statistics, ids, query, true);
  }

  /** `coverage` of terms already expanded (`kept`: the query words they keep, in bit order). */
  private coverageOf(queryTerms: readonly QueryTerm[], kept: readonly string[], analyzed: AnalyzedText, statistics: Statistics, ids: readonly string[], query: string, forVerdict = false): QueryCoverage[] {
    const total = statistics.total;
    const unique = [...new Set(analyzed.terms)];
    let values = this.settings.valuesOutOfCoverage ? valueTerms(query, forVerdict && this.settings.quotedOutOfCoverage) : undefined;
    // Values are left out only beside words enough to say what is asked ("what is 17 plus 25" asks with its numbers).
    if (values !== undefined && unique.filter((term) => !values?.has(term)).length < MIN_WORDS_BESIDE_VALUES) values = undefined;
    if (unique.length === 0 || total === 0) return ids.map(() => ({ share: 0, strength: 0 }));
    const bitWeights = new Map<number, number>();
    const queryStems = new Set(analyzed.terms);
    let all = 0;
    for (const term of unique) {
      const frequency = statistics.frequency(this.postings.get(term));
      // A value the request passes (a number, a time, a date, a name) is no word of what it asks when no tool has it.
      if (frequency === 0 && values?.has(term) === true) continue;
      const weight = bm25Idf(total, frequency);
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
      const fields = this.evidenceFields(slot, id);
      let direct = false;
      let nameWord = false;
      for (const { term, bit, original, posting } of queryTerms) {
        if (bit < 0) continue;
        if (!postingHas(posting ?? this.postings.get(term), slot)) continue;
        const whole = original || term.startsWith(EXACT_MARK) || term.startsWith(JOINED_MARK);
        const where = fields === undefined || posting !== undefined ? 1 : fields.credit(term);
        if (whole && where >= 1) direct = true;
        if (original && fields?.inName(term) === true) nameWord = true;
        credit.set(bit, Math.max(credit.get(bit) ?? 0, (whole ? 1 : 0.5) * where));
      }
      let matched = 0;
      for (const [bit, share] of credit) matched += share * (bitWeights.get(bit) ?? 0);
      const serverAndName = nameWord && fields !== undefined && fields.ownerNamedBy(queryStems);
      const nameAsked = forVerdict && fields !== undefined && fields.nameAskedBy(queryStems);
      return { share: Math.min(1, matched / all), strength: matched / bm25Idf(total, 0), direct, serverAndName, ...(nameAsked ? { nameAsked } : {}) };
    });
  }

  /** Where the tool in `slot` has its terms (`incidentalCredit`, `QueryCoverage`); undefined without `toolOf`. */
  private evidenceFields(slot: number, id: string): EvidenceFields | undefined {
    const incidental = this.settings.incidentalCredit;
    if (this.toolOf === undefined) return undefined;
    const known = this.evidenceFieldCache.get(slot);
    if (known !== undefined) return known;
    const tool = this.toolOf(id);
    if (tool === undefined) return undefined;
    const fields = this.fieldsOf(tool);
    const termsOf = (list: readonly IndexedField[]) => {
      const terms = new Set<string>();
      for (const field of list) {
        const text = fields[field];
        for (const term of text.terms) terms.add(term);
        for (const term of text.exact) terms.add(term);
        for (const term of text.joined) terms.add(JOINED_MARK + term);
      }
      return terms;
    };
    const named = termsOf(['name', 'title']);
    const core = termsOf(['owner', 'tags', 'description']);
    const ownerStems = [...new Set(fields.owner.terms)];
    const ownerJoined = fields.owner.words.length > 1 ? normalizeTerm(fields.owner.words.join('')) : undefined;
    const ownerWords = new Set(ownerStems);
    // The words of its name that say what it does: not its server's, not a generic verb (get, list, fetch, ...).
    const nameWords = [...new Set(fields.name.terms)].filter((term) => !ownerWords.has(term) && !GENERIC_VERB_STEMS.has(term));
    const entry: EvidenceFields = {
      credit: (term) => (named.has(term) || core.has(term) ? 1 : incidental),
      inName: (term) => named.has(term) && !ownerWords.has(term),
      ownerNamedBy: (stems) => (ownerStems.length > 0 && ownerStems.every((stem) => stems.has(stem))) || (ownerJoined !== undefined && stems.has(ownerJoined)),
      nameAskedBy: (stems) => nameWords.length >= NAME_ASKED_MIN_WORDS && nameWords.every((term) => stems.has(term)),
    };
    if (this.evidenceFieldCache.size >= EVIDENCE_FIELD_CACHE) this.evidenceFieldCache.clear();
    this.evidenceFieldCache.set(slot, entry);
    return entry;
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
    const queryTerms = this.queryTerms(query, scope, statistics, analyzed);
    const written = new Set(writtenQueryTerms(query));
    const words = [...new Set(analyzed.terms)].map((term) => ({
      term,
      found: statistics.frequency(this.postings.get(term)) > 0 || statistics.frequency(this.postings.get(JOINED_MARK + term)) > 0,
      ...(written.has(term) ? {} : { implied: true as const }),
    }));
    const admitted = statistics.admitted;
    const saturation = this.saturationFor(scope);
    const facet = this.settings.facetBoost > 0 ? queryFacet(analyzed.terms) : 0;
    const naming = this.names.open(analyzed, query, admitted);
    const k1 = this.settings.k1;
    const hits = tools.map((tool) => {
      const slot = this.slotOf.get(tool.id);
      if (slot === undefined || (admitted !== undefined && !isAdmittedSlot(admitted, slot))) return { id: tool.id, lexical: 0, facet: 1, naming: 1, matches: [] };
      const fields = this.fieldsOf(tool);
      let matches: Array<IndexExplanation['hits'][number]['matches'][number] & { context?: true }> = [];
      let lexical = 0;
      for (const { term, weight, path, idf, posting } of queryTerms) {
        const tf = postingFrequency(posting ?? this.postings.get(term), slot);
        if (tf === 0) continue;
        const contribution = (weight * idf * (k1 + 1) * tf) / (tf + (saturation[slot] as number));
        lexical += contribution;
        matches.push({ term: displayTerm(term), path, contribution, fields: path === 'word-pair' ? [] : fieldsWith(fields, term), ...(term.startsWith(CONTEXT_MARK) ? { context: true } : {}) });
      }
      // Context counts only for a tool its own text does not match (see `addContextOnly`).
      if (matches.some((match) => match.context !== true) && matches.some((match) => match.context === true)) {
        for (const match of matches) if (match.context === true) lexical -= match.contribution;
        matches = matches.filter((match) => match.context !== true);
      }
      return { id: tool.id, lexical, facet: this.facetFactor(facet, slot), naming: naming?.factor(slot) ?? 1, matches: matches.map(({ term, path, contribution, fields: found }) => ({ term, path, contribution, fields: found })) };
    });
    naming?.close();
    return { words, hits };
  }

  /** Annotations agree (or disagree) with a read-only or destructive request: a small nudge that breaks ties. */
  private facetFactor(queryFacet: number, slot: number): number {
    const facet = this.facets[slot];
    if (queryFacet === 0 || facet === 0) return 1;
    return facet === queryFacet ? 1 + this.settings.facetBoost : 1 - this.settings.facetBoost;
  }

  /**
   * The best `limit` tools for `query` with their scores, best first, ties by id. With a `scope`, only the tools
   * it admits are scored, and document counts, frequencies and the average length are theirs: the ranking is the
   * one an index of those tools alone would give, and nothing of the other tools shapes it.
   */
  rank(query: string, limit: number, scope?: IndexScope): RankedId[] {
    const statistics = this.statistics(scope);
    const analyzed = analyzeQuery(query);
    const { plain, withRelatives } = this.expansions(query, statistics, analyzed);
    // The ranking without relatives both decides and, when the query's own words answer it, is the answer.
    const ranked = this.rankTerms(query, plain.terms, analyzed, limit, statistics, scope);
    if (withRelatives === undefined || !this.readsThesaurus(query, scope, statistics, analyzed, plain, ranked)) return ranked;
    return this.rankTerms(query, withRelatives.terms, analyzed, limit, statistics, scope);
  }

  /** `rank` of terms already expanded. */
  private rankTerms(query: string, queryTerms: readonly QueryTerm[], analyzed: AnalyzedText, limit: number, statistics: Statistics, scope: IndexScope | undefined): RankedId[] {
    if (queryTerms.length === 0) return [];
    const settings = this.settings;
    const admitted = statistics.admitted;
    const touched = this.accumulate(queryTerms, admitted, this.saturationFor(scope));
    const { scores, masks } = this;
    // A query term counts as matched (for diversification) only when a candidate has it.
    let presentBits = 0;
    for (const slot of touched) presentBits |= masks[slot] as number;
    const bitIdf = new Map<number, number>();
    for (const { original, bit, idf } of queryTerms) if (original && presentBits & (1 << bit)) bitIdf.set(bit, idf);
    const depth = Math.max(limit, settings.coveredTermWeight < 1 ? settings.diversifyDepth : 0);
    const top: Candidate[] = [];
    const facet = settings.facetBoost > 0 ? queryFacet(analyzed.terms) : 0;
    const naming = this.names.open(analyzed, query, admitted);
    // No factor lifts a score more than this: a candidate below the last kept one even so is passed over unscored.
    const bound = (naming?.bound ?? 1) * (facet === 0 ? 1 : 1 + settings.facetBoost);
    for (const slot of touched) {
      let score = scores[slot] as number;
      if (top.length === depth && score * bound < (top[depth - 1] as Candidate).score) continue;
      score *= this.facetFactor(facet, slot) * (naming?.factor(slot) ?? 1);
      if (top.length === depth && score < (top[depth - 1] as Candidate).score) continue;
      insertTop(top, { slot, score, id: this.ids[slot] as string }, depth);
    }
    const result =
      settings.coveredTermWeight < 1 && bitIdf.size > 1
        ? diversifyRanking(top, bitIdf, masks, settings.coveredTermWeight).slice(0, limit)
        : top.slice(0, limit).map(({ id, score }) => ({ id, score }));
    naming?.close();
    for (const slot of touched) {
      scores[slot] = 0;
      masks[slot] = 0;
    }
    return this.replacementsFirst(result, limit, admitted);
  }

  /**
   * Each deprecated hit's named replacement (when the scope admits it) placed just above it, scored a hair above
   * it: a tool that says "use read_text_file instead" ranks below `read_text_file`.
   */
  private replacementsFirst(ranked: RankedId[], limit: number, admitted: Uint8Array | undefined): RankedId[] {
    if (this.replacementOf.size === 0) return ranked;
    let out = ranked;
    for (let i = 0; i < out.length; i++) {
      const entry = out[i] as RankedId;
      const slot = this.slotOf.get(entry.id) as number;
      const replacement = this.replacementOf.get(slot);
      if (replacement === undefined) continue;
      const replacementSlot = this.slotOf.get(replacement);
      if (replacementSlot === undefined || (admitted !== undefined && !isAdmittedSlot(admitted, replacementSlot))) continue;
      const at = out.findIndex((other) => other.id === replacement);
      if (at >= 0 && at < i) continue;
      const rest = out.filter((other) => other.id !== replacement);
      const position = rest.indexOf(entry);
      out = [...rest.slice(0, position), { id: replacement, score: entry.score + REPLACEMENT_LEAD }, ...rest.slice(position)].slice(0, limit);
      i = position + 1;
    }
    return out;
  }

  /** Adds each term's BM25F part to the scores of the admitted slots that have it; returns the slots touched. */
  private accumulate(queryTerms: readonly QueryTerm[], admitted: Uint8Array | undefined, saturation: Float64Array): number[] {
    if (this.scores.length < this.ids.length) {
      this.scores = new Float64Array(this.ids.length * 2);
      this.masks = new Uint32Array(this.ids.length * 2);
    }
    const { scores, masks } = this;
    const k1 = this.settings.k1;
    const touched: number[] = [];
    let context: Map<number, number> | undefined;
    for (const { term, weight, bit, idf, posting: own } of queryTerms) {
      const posting = own ?? this.postings.get(term);
      if (!posting) continue;
      const termWeight = weight * idf * (k1 + 1);
      const bitMask = bit < 0 ? 0 : 1 << bit;
      const fromContext = term.startsWith(CONTEXT_MARK);
      for (let i = 0; i < posting.length; i += 2) {
        const slot = posting[i] as number;
        if (admitted !== undefined && !isAdmittedSlot(admitted, slot)) continue;
        const tf = posting[i + 1] as number;
        const part = (termWeight * tf) / (tf + (saturation[slot] as number));
        if (fromContext) {
          context ??= new Map();
          context.set(slot, (context.get(slot) ?? 0) + part);
          continue;
        }
        if (masks[slot] === 0 && scores[slot] === 0) touched.push(slot);
        scores[slot] = (scores[slot] as number) + part;
        masks[slot] = (masks[slot] as number) | bitMask;
      }
    }
    if (context !== undefined) this.addContextOnly(context, touched);
    return touched;
  }

  /**
   * Context (a server's instructions, shared by all its tools) counts only for a tool no query word finds in its
   * own text, and below every tool that one does: scaled under `CONTEXT_ONLY_SHARE` of the lowest own score, so
   * text every tool of a server shares never lifts one of them over a better match elsewhere.
   */
  private addContextOnly(context: ReadonlyMap<number, number>, touched: number[]): void {
    const { scores } = this;
    let lowestOwn = Infinity;
    for (const slot of touched) lowestOwn = Math.min(lowestOwn, scores[slot] as number);
    let highest = 0;
    for (const [slot, part] of context) if ((scores[slot] as number) === 0) highest = Math.max(highest, part);
    if (highest === 0) return;
    const scale = lowestOwn === Infinity ? 1 : (CONTEXT_ONLY_SHARE * lowestOwn) / highest;
    for (const [slot, part] of context) {
      if ((scores[slot] as number) !== 0) continue;
      touched.push(slot);
      scores[slot] = part * scale;
    }
  }
}

/**
 * A tool found only through its server's context scores at most this share of the lowest score of a tool found
 * through its own text (the name and annotation factors, 0.8 to 1.65 × 1.1, cannot close the gap).
 */
const CONTEXT_ONLY_SHARE = 0.4;

/** Words a tool's name needs (besides its server's and generic verbs) before a query that has them all asks for it. */
const NAME_ASKED_MIN_WORDS = 2;

/** Words besides its values a query needs before `valuesOutOfCoverage` leaves the values out. */
const MIN_WORDS_BESIDE_VALUES = 2;

/**
 * The terms of a query's words that read as values it passes, not as what it asks (`valuesOutOfCoverage`): numbers
 * and words that start with a digit ("7:00", "2022-05-06", "16th", "2pm"), "am" and "pm", and capitalised words past
 * the first ("March", "Dr. Smith", "SQ"); with `quoted`, the words of quoted text (`QUOTED_TEXT`).
 */
function valueTerms(query: string, quoted: boolean): Set<string> {
  const values = new Set<string>();
  const clipped = clipQuery(query);
  const add = (word: string) => {
    const term = normalizeTerm(word);
    if (term !== undefined) values.add(term);
  };
  splitWords(clipped).forEach((word, index) => {
    if (/^\d/.test(word) || /^(?:am|pm)$/i.test(word) || (index > 0 && /^\p{Lu}/u.test(word))) add(word);
  });
  if (!quoted) return values;
  for (const match of clipped.matchAll(QUOTED_TEXT)) splitWords(match[2] as string).forEach(add);
  return values;
}

/**
 * Quoted text: a quote that opens after a space or an opening sign and closes before a space, a sign or the end (so
 * the apostrophes of "today's" or "I'm" open nothing).
 */
const QUOTED_TEXT = /(?<=^|[\s([{:,=])(["'`\u2018\u201c])([^"'`\u2018\u2019\u201c\u201d\n]{1,200})["'`\u2019\u201d](?=$|[\s.,;:!?)\]}])/gu;

/** How far above a deprecated tool its replacement is scored (past the answer's 3-decimal rounding). */
const REPLACEMENT_LEAD = 0.002;

/** Judged hits whose fields are kept (a search judges one to three). */
const EVIDENCE_FIELD_CACHE = 256;

/** How much a term counts toward a hit's evidence by the fields the hit has it in (`incidentalCredit`). */
interface EvidenceFields {
  credit(term: string): number;
  /** Whether the tool's name (or title) has the term, and its server's name does not. */
  inName(term: string): boolean;
  /** Whether query stems name the tool's server (as `NameEvidence` decides it). */
  ownerNamedBy(stems: ReadonlySet<string>): boolean;
  /** Whether query stems hold every word of the tool's name that says what it does (`QueryCoverage.nameAsked`). */
  nameAskedBy(stems: ReadonlySet<string>): boolean;
}

/** A query term as a person reads it: without the index's marks. */
function displayTerm(term: string): string {
  return term.replace(/^[=%+^]/, '');
}

/** The fields of a tool whose analysed text holds `term` (as a word, exact form or whole identifier). */
function fieldsWith(fields: Record<IndexedField, AnalyzedText>, term: string): IndexedField[] {
  const bare = displayTerm(term);
  return INDEXED_FIELDS.filter((field) => {
    const text = fields[field];
    return text.terms.includes(bare) || text.exact.includes(term) || text.joined.includes(bare);
  });
}
