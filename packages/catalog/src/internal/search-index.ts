// The ranking index: minisearch over pre-tokenised fields, plus the document frequencies we need to weight
// and bound query terms. `rank()` returns scores for every matching tool; the catalog adds exact matches,
// limits and hit rendering.
import MiniSearch from 'minisearch';
import type { ToolDescriptor } from '../types.js';
import { expandQueryTerms } from './intent-table.js';
import { tokenizeText } from './tokenize-text.js';

/** The indexed fields of one tool, each a space-joined list of index terms. */
interface IndexedFields {
  id: string;
  name: string;
  owner: string;
  tags: string;
  params: string;
  description: string;
  paramText: string;
  /** Every field in one, name and parameter names repeated: BM25F-style shared saturation and length. */
  all: string;
}

/** Ranking knobs; DESIGN.md explains the values. Exported for the benchmark script only. */
export interface RankingSettings {
  /** Per-field minisearch boosts; fields at 0 are not searched. */
  boost: { all: number; name: number; owner: number; tags: number; params: number; description: number; paramText: number };
  /** How often each field's terms are repeated in the combined `all` field (its term-frequency weight). */
  repeat: { name: number; owner: number; tags: number; params: number; description: number; paramText: number };
  bm25: { k: number; b: number; d: number };
  expansionWeight: number;
  /** Original query terms kept after de-duplication (the rarest win): bounds latency on long queries. */
  maxQueryTerms: number;
  /** Query terms found in more than this share of tools are dropped when the query has rarer ones. */
  maxDocumentShare: number;
  /** Queries with at most this many terms also match by prefix and small typos. */
  maxTermsForFuzzy: number;
  prefixWeight: number;
  fuzzyWeight: number;
  /** Exponent on the number of distinct query terms a tool matches (minisearch's own is 1). */
  coordinationExponent: number;
}

/** The settings the catalog ships with. */
export const DEFAULT_RANKING: RankingSettings = {
  boost: { all: 1, name: 0, owner: 0, tags: 0, params: 0, description: 0, paramText: 0 },
  repeat: { name: 3, owner: 1, tags: 2, params: 2, description: 1, paramText: 1 },
  bm25: { k: 1.2, b: 0.75, d: 0.5 },
  expansionWeight: 0.4,
  maxQueryTerms: 16,
  maxDocumentShare: 0.25,
  maxTermsForFuzzy: 3,
  prefixWeight: 0.375,
  fuzzyWeight: 0.45,
  coordinationExponent: 1,
};

const SOURCE_FIELDS = ['name', 'owner', 'tags', 'params', 'description', 'paramText'] as const;
const FIELDS = [...SOURCE_FIELDS, 'all'] as const;
const splitOnSpace = (text: string): string[] => (text === '' ? [] : text.split(' '));
const identity = (term: string): string => term;

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

/** Turns a descriptor into the index terms of each field. */
export function indexFields(tool: ToolDescriptor, repeat: RankingSettings['repeat']): IndexedFields {
  const names: string[] = [];
  const texts: string[] = [];
  collectSchemaText(tool.inputSchema, names, texts);
  const fields = {
    id: tool.id,
    name: tokenizeText(tool.name).join(' '),
    owner: tokenizeText(tool.owner).join(' '),
    tags: tokenizeText(tool.tags.join(' ')).join(' '),
    params: tokenizeText(names.join(' ')).join(' '),
    description: tokenizeText(tool.description).join(' '),
    paramText: tokenizeText(texts.join(' ')).join(' '),
  };
  const all: string[] = [];
  for (const field of SOURCE_FIELDS) {
    if (fields[field] === '') continue;
    for (let i = 0; i < repeat[field]; i++) all.push(fields[field]);
  }
  return { ...fields, all: all.join(' ') };
}

/** One scored tool from `rank`. */
export interface RankedId {
  id: string;
  score: number;
}

/** A minisearch index over tools with document frequencies and the ranking rules on top. */
export class SearchIndex {
  private readonly miniSearch: MiniSearch<IndexedFields>;
  private readonly documents = new Map<string, IndexedFields>();
  /** term -> number of tools containing it in any field. */
  private readonly documentFrequency = new Map<string, number>();
  private readonly settings: RankingSettings;
  private readonly searchedFields: string[];

  constructor(settings: RankingSettings = DEFAULT_RANKING) {
    this.settings = settings;
    this.searchedFields = FIELDS.filter((field) => settings.boost[field] > 0);
    this.miniSearch = new MiniSearch<IndexedFields>({
      fields: [...FIELDS],
      idField: 'id',
      tokenize: splitOnSpace,
      processTerm: identity,
      // Removal is exact (`remove` with the stored document), so no vacuuming is ever needed.
      autoVacuum: false,
    });
  }

  get size(): number {
    return this.documents.size;
  }

  add(tools: readonly ToolDescriptor[]): void {
    const fields = tools.map((tool) => indexFields(tool, this.settings.repeat));
    for (const doc of fields) {
      this.documents.set(doc.id, doc);
      for (const term of distinctTerms(doc)) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    }
    this.miniSearch.addAll(fields);
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      const doc = this.documents.get(id);
      if (!doc) continue;
      this.miniSearch.remove(doc);
      this.documents.delete(id);
      for (const term of distinctTerms(doc)) {
        const count = (this.documentFrequency.get(term) ?? 0) - 1;
        if (count <= 0) this.documentFrequency.delete(term);
        else this.documentFrequency.set(term, count);
      }
    }
  }

  /** Query text to the weighted terms that will be searched (empty when nothing meaningful is left). */
  queryTerms(query: string): Array<{ term: string; weight: number; origin: string }> {
    const unique = [...new Set(tokenizeText(query))];
    if (unique.length === 0) return [];
    const total = Math.max(1, this.documents.size);
    const known = unique.filter((term) => this.documentFrequency.has(term));
    // Very common terms add time and little signal; drop them when rarer terms remain.
    const rare = known.filter((term) => (this.documentFrequency.get(term) ?? 0) / total <= this.settings.maxDocumentShare);
    let kept = rare.length > 0 ? rare : known;
    // Unknown terms still matter for prefix/typo matching on short queries.
    if (unique.length <= this.settings.maxTermsForFuzzy) kept = unique;
    if (kept.length > this.settings.maxQueryTerms) {
      kept = [...kept]
        .sort((a, b) => (this.documentFrequency.get(a) ?? 0) - (this.documentFrequency.get(b) ?? 0) || (a < b ? -1 : 1))
        .slice(0, this.settings.maxQueryTerms);
    }
    return expandQueryTerms(kept, this.settings.expansionWeight);
  }

  /** Scores every tool matching `query`, best first, ties by id. */
  rank(query: string): RankedId[] {
    const weighted = this.queryTerms(query);
    if (weighted.length === 0 || this.documents.size === 0) return [];
    const settings = this.settings;
    const weightOf = new Map(weighted.map((entry) => [entry.term, entry.weight]));
    const originOf = new Map(weighted.map((entry) => [entry.term, entry.origin]));
    const originals = weighted.filter((entry) => entry.weight === 1).length;
    const typoTolerant = originals <= settings.maxTermsForFuzzy;
    const results = this.miniSearch.search(weighted.map((entry) => entry.term).join(' '), {
      fields: this.searchedFields,
      boost: settings.boost,
      bm25: settings.bm25,
      boostTerm: (term) => weightOf.get(term) ?? 1,
      prefix: (term) => typoTolerant && term.length >= 3 && weightOf.get(term) === 1,
      fuzzy: (term) => (typoTolerant && term.length >= 5 && weightOf.get(term) === 1 ? 1 : false),
      maxFuzzy: 1,
      weights: { prefix: settings.prefixWeight, fuzzy: settings.fuzzyWeight },
    });
    const ranked: RankedId[] = [];
    for (const result of results) {
      // minisearch multiplies by the number of matched terms; count distinct intents instead, so an
      // expansion never doubles a tool's score on its own.
      const matchedOrigins = new Set(result.terms.map((term) => originOf.get(term) ?? term)).size;
      const base = result.score / Math.max(1, result.terms.length);
      ranked.push({ id: result.id as string, score: base * Math.pow(matchedOrigins, settings.coordinationExponent) });
    }
    ranked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return ranked;
  }
}

function distinctTerms(doc: IndexedFields): Set<string> {
  const terms = new Set<string>();
  for (const term of splitOnSpace(doc.all)) terms.add(term);
  return terms;
}
