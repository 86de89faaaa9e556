// The ranking's knobs and the fields it indexes: what a benchmark may vary, in one place.
import type { FusionSettings } from './fuse-rankings.js';

/**
 * The indexed fields, in posting order. `context` is the owner's context text (an MCP server's name and
 * `instructions`), shared by all its tools; `details` is the description past its lead (see `leadWords`).
 */
export const INDEXED_FIELDS = ['name', 'title', 'owner', 'context', 'tags', 'params', 'description', 'details', 'paramText'] as const;

/** One indexed field. */
export type IndexedField = (typeof INDEXED_FIELDS)[number];

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
   * How much a query word counts toward a hit's evidence (`QueryCoverage`) when the hit has it only in text that
   * does not say what the tool does: its parameters' names and texts, the description past its lead, its server's
   * context (1 in its name, title, tags, description lead or server's name). A pagination parameter's "page" is no
   * evidence that a tool makes pages.
   */
  incidentalCredit: number;
  /**
   * A number no tool has ("7:00", "2022-05-06", "16th") is left out of the query's words a hit's coverage is measured
   * against: it is a value the request passes, not a word of what it asks.
   */
  valuesOutOfCoverage: boolean;
  /**
   * With `valuesOutOfCoverage`, the words of text the request quotes ("translate 'Ahoj' to Czech", `is "Was it a car
   * or a cat I saw" a palindrome`) that no tool has are left out too: quoted text is an argument the request passes.
   * For the answer's verdict only: the thesaurus trigger (`readsThesaurus`) measures coverage without it, so no
   * ranking moves.
   */
  quotedOutOfCoverage: boolean;
  /** Weak whenever no query word itself is in what the best hit says it does (`QueryCoverage.direct`). */
  weakWithoutDirectMatch: boolean;
  /** Strong whenever the query names the best hit's server and a word of its name (`QueryCoverage.serverAndName`). */
  strongWhenServerAndName: boolean;
  /**
   * Strong when the query has every word of the best hit's name that says what it does (`QueryCoverage.nameAsked`:
   * two or more, not its server's, not a generic verb) and the hit covers at least this share of the query; 0 = off.
   * A long request that mentions a tool's name in passing stays judged by its coverage.
   */
  strongWhenNameAskedCoverage: number;
  /**
   * A tool's name as evidence: its score is multiplied by 1 + `nameWeight` × the share of its name's words (those
   * not also in its owner's name) that the query has, so "read file" prefers `read_file` to `read_multiple_files`.
   */
  nameWeight: number;
  /**
   * A query that names a server (every word of an owner's name, or its name written as one word) multiplies the
   * scores of that server's tools by 1 + `ownerNamedWeight`: "notion list users" is about Notion's users.
   */
  ownerNamedWeight: number;
  /**
   * `ownerNamedWeight` lifts a server's tools only when the query writes the server's name as a server's: first in
   * the query, before a colon or "server", after "in", "on", "via", "using", ..., or capitalised inside a sentence
   * ("forget everything about bob" does not name the server "everything").
   */
  ownerOnlyAsServer: boolean;
  /**
   * A tool whose name asks the opposite of what the query asks ("start" and `force_terminate`, "add" and
   * `remove_label`; `OPPOSITE_INTENTS`) is multiplied by 1 - `oppositeNameWeight`.
   */
  oppositeNameWeight: number;
  /**
   * Among one server's tools whose names share a query word, a tool whose name leads with a query word is multiplied
   * by 1 + `actionVerbWeight` and one whose name leads with an action verb the query does not ask by 1 -
   * `actionVerbWeight` ("firecrawl start crawl": `firecrawl_crawl` over `firecrawl_check_crawl_status`); 0 = off.
   */
  actionVerbWeight: number;
  /** `actionVerbWeight` only among the tools of a server the query names (as `ownerNamedWeight` decides it). */
  actionVerbOnlyWhenServerNamed: boolean;
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
  weakCoverage: 0.4,
  weakStrength: 1.2,
  incidentalCredit: 0.5,
  valuesOutOfCoverage: true,
  quotedOutOfCoverage: true,
  weakWithoutDirectMatch: true,
  strongWhenServerAndName: true,
  strongWhenNameAskedCoverage: 0.15,
  nameWeight: 0.1,
  ownerNamedWeight: 0.5,
  ownerOnlyAsServer: true,
  oppositeNameWeight: 0.2,
  actionVerbWeight: 0.1,
  actionVerbOnlyWhenServerNamed: true,
  thesaurusWeight: 0.3,
  thesaurusMaxFrequency: 0,
  thesaurusMaxRelated: 4,
  thesaurusPhrasal: true,
};

/** The weak-evidence rule (`weakCoverage`, `weakStrength`) for a hit's `QueryCoverage`: its one owner. */
export function isWeakEvidence(settings: RankingSettings, coverage: { share: number; strength: number; direct?: boolean; serverAndName?: boolean; nameAsked?: boolean }): boolean {
  if (settings.strongWhenServerAndName && coverage.serverAndName === true) return false;
  if (settings.weakWithoutDirectMatch && coverage.direct === false) return true;
  if (settings.strongWhenNameAskedCoverage > 0 && coverage.nameAsked === true && coverage.share >= settings.strongWhenNameAskedCoverage) return false;
  return coverage.share < settings.weakCoverage && coverage.strength < settings.weakStrength;
}
