// A search explanation as a person reads it: the query's words as they were typed (the catalog explains in its
// index terms, Porter stems such as "rememb" and "alic"), the fields a word matched in plain words (not the index's
// field names such as `paramText`), and a query of any length shown at a readable length.
import type { SearchExplanation } from '@tool-search/catalog';
import type { ToolSearchSession } from '@tool-search/gateway-adapter';

/** The index's fields, as a person says them. */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  name: 'name',
  title: 'title',
  owner: 'server name',
  context: "server's description",
  tags: 'tags',
  params: 'parameter names',
  description: 'description',
  details: 'rest of the description',
  paramText: 'parameter descriptions',
};

/** Most characters of a query shown back; the rest is counted, not echoed. */
export const SHOWN_QUERY_CHARS = 200;
/** Most of the query's words looked up as typed (a longer query's later words keep their index terms). */
const MAX_WORDS_LOOKED_UP = 64;

/** The query at a readable length: `…(112,000 characters)` after the first 200 when it is longer. */
export function queryForDisplay(query: string): string {
  return query.length <= SHOWN_QUERY_CHARS ? query : `${query.slice(0, SHOWN_QUERY_CHARS)}… (${query.length.toLocaleString('en-US')} characters)`;
}

/** A field of the index in plain words. */
export function fieldInWords(field: string): string {
  return FIELD_WORDS[field] ?? field;
}

/**
 * Each index term of the query mapped to the word the person typed: each typed word is analysed alone (through the
 * session's own explain, so the analyser has one owner), and its terms point back to it.
 */
export function typedWordsOf(session: ToolSearchSession, query: string): Map<string, string> {
  const typed = new Map<string, string>();
  const words = [...new Set(query.slice(0, 4_000).split(/[^\p{L}\p{N}_#.-]+/u).filter((word) => word !== ''))].slice(0, MAX_WORDS_LOOKED_UP);
  for (const word of words) {
    for (const { term, implied } of session.explain(word, { limit: 1 }).words) {
      if (implied !== true && !typed.has(term)) typed.set(term, word.toLowerCase());
    }
  }
  return typed;
}

/** The explanation with its words as typed and its fields in plain words (what the console shows). */
export function explanationForPeople(explanation: SearchExplanation, typed: ReadonlyMap<string, string>): SearchExplanation {
  const asTyped = (term: string) => term.split(' ').map((part) => typed.get(part) ?? part).join(' ');
  return {
    ...explanation,
    query: queryForDisplay(explanation.query),
    ...(explanation.why === undefined ? {} : { why: withTypedWords(explanation.why, typed) }),
    words: explanation.words.map((word) => ({ ...word, term: asTyped(word.term) })),
    hits: explanation.hits.map((hit) => ({ ...hit, matches: hit.matches.map((match) => ({ ...match, term: asTyped(match.term), fields: match.fields.map(fieldInWords) })) })),
  };
}

/** A sentence of the catalog's (`why`) with each of the query's index terms written as typed. */
function withTypedWords(sentence: string, typed: ReadonlyMap<string, string>): string {
  let out = sentence;
  for (const [term, word] of typed) {
    if (term !== word) out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'gu'), word);
  }
  return out;
}
