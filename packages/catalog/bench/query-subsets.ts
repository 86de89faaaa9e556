// Subsets of a benchmark's queries that the retrieval bench reports apart: paraphrases (no word in common with
// any listed tool) and two fixed halves (tune on one, check on the other).
import type { BenchQuery, BenchTool } from './load-bench-set.js';
import { baselineTokens } from './plain-bm25.js';

/** Property names and descriptions of a JSON Schema's top-level properties. */
function parameterText(schema: BenchTool['parameters']): string {
  const properties = (schema?.properties ?? {}) as Record<string, { description?: unknown }>;
  return Object.entries(properties)
    .map(([name, property]) => `${name} ${typeof property?.description === 'string' ? property.description : ''}`)
    .join(' ');
}

/**
 * True when no word of the query (the plain baseline's tokens: lower-cased, identifiers split, a short stop-word
 * list, no stemming) is in the name, description or parameter text of any relevant tool (`nameOnly`: its name).
 * The tokeniser is the baseline's, not the ranker's, so the subset does not move when the ranker changes.
 */
export function sharesNoWord(query: BenchQuery, toolsById: ReadonlyMap<string, BenchTool>, nameOnly = false): boolean {
  const words = baselineTokens(query.query);
  return query.relevant.every((id) => {
    const tool = toolsById.get(id);
    if (tool === undefined) return true;
    const text = nameOnly ? tool.name : `${tool.name} ${tool.description ?? ''} ${parameterText(tool.parameters)}`;
    const toolWords = new Set(baselineTokens(text));
    return !words.some((word) => toolWords.has(word));
  });
}

/** A fixed half of the queries, by a hash of the query id: 'A' or 'B'. */
export function queryHalf(query: BenchQuery): 'A' | 'B' {
  let hash = 2166136261;
  for (let i = 0; i < query.qid.length; i++) hash = Math.imul(hash ^ query.qid.charCodeAt(i), 16777619);
  return (hash >>> 0) % 2 === 0 ? 'A' : 'B';
}
