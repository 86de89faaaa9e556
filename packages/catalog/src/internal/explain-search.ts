// Puts a search's explanation together: the answer `searchWithEvidence` gave (its hits, order, scores and
// verdict) with what the index says made each score. Pure: it reads only what it is given.
import type { SearchAnswer, SearchExplanation } from '../types.js';
import type { IndexExplanation } from './search-index.js';

export function explainSearch(input: {
  query: string;
  answer: SearchAnswer;
  /** Ids the query names exactly (its id or name). */
  exact: readonly string[];
  index: IndexExplanation;
  thresholds: { coverage: number; strength: number };
  /** The replacement a deprecated tool names, if any (the ranking places it just above the deprecated tool). */
  replacementNamedBy?: (id: string) => string | undefined;
}): SearchExplanation {
  const { answer, index } = input;
  const hits = answer.hits.map((hit, position) => {
    const found = index.hits[position];
    const lexical = found?.lexical ?? 0;
    const facet = found?.facet ?? 1;
    const naming = found?.naming ?? 1;
    const exactMatch = input.exact.includes(hit.id);
    const expected = lexical * facet * (found?.naming ?? 1);
    const next = answer.hits[position + 1];
    const replaces = next !== undefined && !exactMatch && input.replacementNamedBy?.(next.id) === hit.id && hit.score > next.score && hit.score - next.score < 0.01 ? next.id : undefined;
    return {
      id: hit.id,
      name: hit.name,
      owner: hit.owner,
      score: hit.score,
      exactMatch,
      lexical: round(lexical),
      facet,
      naming,
      diversification: exactMatch || expected === 0 ? 1 : round(Math.min(1, hit.score / expected)),
      matches: (found?.matches ?? []).map((match) => ({ term: match.term, path: match.path, fields: match.fields, share: lexical > 0 ? round(match.contribution / lexical) : 0 })),
      ...(replaces === undefined ? {} : { replaces }),
    };
  });
  const explanation: SearchExplanation = {
    query: input.query,
    words: index.words,
    evidence: answer.evidence,
    coverage: answer.coverage,
    strength: answer.strength,
    thresholds: input.thresholds,
    hits,
  };
  if (answer.evidence === 'weak') explanation.why = whyWeak(explanation);
  return explanation;
}

/** A weak search's reason, in a sentence. */
function whyWeak(explanation: SearchExplanation): string {
  const missing = explanation.words.filter((word) => !word.found).map((word) => word.term);
  if (explanation.words.length === 0) return 'The query has no words to search for (only stop words or punctuation).';
  if (explanation.hits.length === 0) return `No tool you may use has any word of the query (${missing.join(', ')}).`;
  const top = explanation.hits[0] as SearchExplanation['hits'][number];
  const matched = [...new Set(top.matches.map((match) => match.term))];
  const unknown = missing.length > 0 ? `; no tool you may use has ${missing.join(', ')}` : '';
  const { coverage, strength, thresholds } = explanation;
  // Above a threshold, the verdict came from where the words are: none of them in what the tool says it does.
  if (coverage >= thresholds.coverage || strength >= thresholds.strength) {
    return `The best hit has the query's words (${matched.join(', ') || 'expansions of the query'}) only in its parameters, the rest of its description or its server's context, or through related words, never in what it says it does${unknown}: it is a guess.`;
  }
  return `The best hit matches only ${matched.join(', ') || 'expansions of the query'} (coverage ${coverage} < ${thresholds.coverage}, strength ${strength} < ${thresholds.strength})${unknown}: it is a guess.`;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
