// Turns names, descriptions and queries into index terms: identifier splitting, lower-casing, stop words,
// stemming. Indexing and querying share it, so both sides always agree.
import { stemEnglish } from './stem-english.js';
import { STOP_WORDS } from './stop-words.js';

// Runs of letters/marks/digits; everything else (spaces, punctuation, `_`, `-`, `.`, `/`, `__`) separates.
const WORD_RUN = /[\p{L}\p{M}\p{N}]+/gu;
// Scripts written without spaces: every character is its own term, so CJK text still matches.
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const UNSPACED_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;
// camelCase and PascalCase boundaries: "getUserID" -> get User ID, "XMLHttpRequest" -> XML Http Request.
const CAMEL_BOUNDARY = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
const ONLY_DIGITS = /^\p{N}+$/u;
const LATIN_LOWER = /^[a-z]+$/;

/** Longest run of digits kept as a term: "v2", "404" and "2024" match, ids and coordinates do not. */
const MAX_NUMBER_DIGITS = 4;

/** Splits text into raw words: runs of letters and digits, identifiers split at case changes. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
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
  if (ONLY_DIGITS.test(lower)) return lower.length <= MAX_NUMBER_DIGITS ? lower : undefined;
  if (LATIN_LOWER.test(lower)) return lower.length < 2 ? undefined : process.env.NOSTEM ? lower : stemEnglish(lower);
  return lower;
}

/** Text to index terms, in order, duplicates kept (term frequency matters when indexing). */
export function tokenizeText(text: string): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    const term = normalizeTerm(word);
    if (term !== undefined) terms.push(term);
  }
  return terms;
}
