// Turns names, descriptions and queries into index terms: identifier splitting, lower-casing, stop words,
// stemming. Indexing and querying share it, so both sides always agree.
import { stemEnglish } from './stem-english.js';
import { STOP_WORDS } from './stop-words.js';

/** A word's characters, as a character-class body (letters, marks, digits); for `u` regular expressions. */
export const WORD_CHARS = String.raw`\p{L}\p{M}\p{N}`;
// Runs of letters/marks/digits; everything else (spaces, punctuation, `_`, `-`, `.`, `/`, `__`) separates.
const WORD_RUN = new RegExp(`[${WORD_CHARS}]+`, 'gu');
const ASCII_WORD_RUN = /[A-Za-z0-9]+/g;
const NON_ASCII = /[^\t\n\r\u0020-\u007e]/;
// Scripts written without spaces: every character is its own term, so CJK text still matches.
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const UNSPACED_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;
// camelCase and PascalCase boundaries: "getUserID" -> get User ID, "XMLHttpRequest" -> XML Http Request.
const CAMEL_BOUNDARY = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
const ASCII_CAMEL_BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;
const HAS_INNER_UPPER = /.[A-Z]/;
const HAS_INNER_UPPER_ANY = /.\p{Lu}/u;
const ASCII_INNER_CASE_CHANGE = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;
const ONLY_DIGITS = /^\p{N}+$/u;
const LATIN_LOWER = /^[a-z]+$/;

/** Longest run of digits kept as a term: "v2", "404" and "2024" match, ids and coordinates do not. */
const MAX_NUMBER_DIGITS = 4;
/** Marks the unstemmed form of a word whose stem differs ("=files" next to "file"). */
export const EXACT_MARK = '=';

// Stemming dominates indexing time; words repeat a lot, so remember them (bounded).
const STEM_CACHE = new Map<string, string>();
const STEM_CACHE_LIMIT = 100_000;

function cachedStem(word: string): string {
  let stem = STEM_CACHE.get(word);
  if (stem === undefined) {
    stem = stemEnglish(word);
    if (STEM_CACHE.size >= STEM_CACHE_LIMIT) STEM_CACHE.clear();
    STEM_CACHE.set(word, stem);
  }
  return stem;
}

/** Splits text into raw words: runs of letters and digits, identifiers split at case changes. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  if (!NON_ASCII.test(text)) {
    for (const run of text.match(ASCII_WORD_RUN) ?? []) {
      if (HAS_INNER_UPPER.test(run)) words.push(...run.split(ASCII_CAMEL_BOUNDARY));
      else words.push(run);
    }
    return words;
  }
  for (const run of text.normalize('NFKC').match(WORD_RUN) ?? []) {
    if (UNSPACED_SCRIPT.test(run)) {
      for (const piece of run.match(UNSPACED_CHAR) ?? []) {
        if (UNSPACED_SCRIPT.test(piece)) words.push(piece);
        else words.push(...piece.split(CAMEL_BOUNDARY));
      }
      continue;
    }
    words.push(...run.split(CAMEL_BOUNDARY));
  }
  return words;
}

/** Normalises one raw word into an index term, or returns undefined when it carries no meaning. */
export function normalizeTerm(word: string): string | undefined {
  const lower = word.toLowerCase();
  if (STOP_WORDS.has(lower)) return undefined;
  if (LATIN_LOWER.test(lower)) return lower.length < 2 ? undefined : cachedStem(lower);
  if (ONLY_DIGITS.test(lower)) return lower.length <= MAX_NUMBER_DIGITS ? lower : undefined;
  return lower;
}

/** Text to index terms, in order, duplicates kept (term frequency matters when indexing). */
export function tokenizeText(text: string): string[] {
  return analyzeText(text).terms;
}

/** What `analyzeText` makes of a text. */
export interface AnalyzedText {
  /** Index terms in order (stemmed, stop words dropped), duplicates kept. */
  terms: string[];
  /** Unstemmed forms (marked with `=`) of words whose stem differs. */
  exact: string[];
  /** The stem of each `exact` entry, same order. */
  exactStems: string[];
  /**
   * Whole identifiers that case changes split into parts, as one term ("YouTube" -> `youtub` next to `tube`,
   * "GitHub" -> `github` next to `git`, `hub`), so the one-word spelling of a name matches too.
   */
  joined: string[];
  /** The lower-cased word each term came from, same order as `terms`. */
  words: string[];
}

/**
 * Like `tokenizeText`, and also returns the unstemmed forms (marked with `=`) of words whose stem differs,
 * so an exact word can outrank a word that only shares its stem, and the whole form of split identifiers.
 */
export function analyzeText(text: string): AnalyzedText {
  const terms: string[] = [];
  const exact: string[] = [];
  const exactStems: string[] = [];
  const words: string[] = [];
  for (const word of splitWords(text)) {
    const term = normalizeTerm(word);
    if (term === undefined) continue;
    terms.push(term);
    const lower = word.toLowerCase();
    words.push(lower);
    if (term !== lower) {
      exact.push(EXACT_MARK + lower);
      exactStems.push(term);
    }
  }
  return { terms, exact, exactStems, joined: joinedIdentifiers(text), words };
}

/** The whole, normalised form of every identifier that splits at a case change into two or more parts. */
function joinedIdentifiers(text: string): string[] {
  const joined: string[] = [];
  const ascii = !NON_ASCII.test(text);
  // Most text has no case change inside a word: skip the second pass.
  if (ascii && !ASCII_INNER_CASE_CHANGE.test(text)) return joined;
  for (const run of (ascii ? text : text.normalize('NFKC')).match(ascii ? ASCII_WORD_RUN : WORD_RUN) ?? []) {
    if (!(ascii ? HAS_INNER_UPPER : HAS_INNER_UPPER_ANY).test(run) || (!ascii && UNSPACED_SCRIPT.test(run))) continue;
    if (run.split(ascii ? ASCII_CAMEL_BOUNDARY : CAMEL_BOUNDARY).length < 2) continue;
    const term = normalizeTerm(run);
    if (term !== undefined) joined.push(term);
  }
  return joined;
}
