// indexFields and analyzeQuery: the analysis. A tool's text per indexed field (its description split into lead
// and details, its schema's property names and texts), a query's words, and a tool's read-only or destructive facet.
import type { ToolDescriptor } from '../types.js';
import type { IndexedField } from './ranking-settings.js';
import { analyzeText, type AnalyzedText } from './tokenize-text.js';
import { impliedWords } from './implied-words.js';

/** Characters of a query that are analysed. */
const MAX_QUERY_CHARS = 4_000;

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
export function toolFacet(tool: ToolDescriptor): number {
  const readOnly = tool.annotations?.readOnlyHint === true;
  const destructive = tool.annotations?.destructiveHint === true && !readOnly;
  return readOnly ? 1 : destructive ? -1 : 0;
}


/**
 * Query text to its analysis; only the start of a very long query is read (bounded work whatever is sent). The
 * query also reads the words it implies (`impliedWords`: "file" after a file name, "issue pull request" after
 * "#42", "count" after "how many").
 */
export function analyzeQuery(query: string): AnalyzedText {
  return analyzeText(impliedWords(clipQuery(query)));
}

/** The terms of the query's own words, without the words it implies (what `explain` marks as implied). */
export function writtenQueryTerms(query: string): string[] {
  return analyzeText(clipQuery(query)).terms;
}

/** The part of a query that is read. */
export function clipQuery(query: string): string {
  return query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query;
}
