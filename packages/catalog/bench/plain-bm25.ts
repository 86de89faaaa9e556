// The baseline: plain Okapi BM25 (k1 1.2, b 0.75) over name + description + parameter names + parameter
// descriptions, lower-cased, identifiers split, a short stop-word list, no stemming and no expansion.
import type { BenchTool } from './load-bench-set.js';

const SHORT_STOP_WORDS = new Set(
  'a an and are as at be by for from has have how i in is it its me my of on or that the this to was what when where which who will with you your can do'.split(' '),
);

export function baselineTokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token !== '' && !SHORT_STOP_WORDS.has(token));
}

function parameterText(schema: unknown): string {
  if (!schema || typeof schema !== 'object') return '';
  const properties = (schema as { properties?: Record<string, { description?: unknown }> }).properties ?? {};
  return Object.entries(properties)
    .map(([name, property]) => `${name} ${typeof property?.description === 'string' ? property.description : ''}`)
    .join(' ');
}

export class PlainBm25 {
  private readonly postings = new Map<string, Array<[number, number]>>();
  private readonly lengths: number[] = [];
  private readonly ids: string[] = [];
  private readonly averageLength: number;

  constructor(tools: BenchTool[], private readonly k1 = 1.2, private readonly b = 0.75) {
    tools.forEach((tool, doc) => {
      const tokens = baselineTokens(`${tool.name} ${tool.description ?? ''} ${parameterText(tool.parameters)}`);
      this.ids.push(tool.id);
      this.lengths.push(tokens.length);
      const counts = new Map<string, number>();
      for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
      for (const [token, count] of counts) {
        const list = this.postings.get(token) ?? [];
        list.push([doc, count]);
        this.postings.set(token, list);
      }
    });
    this.averageLength = this.lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, this.lengths.length);
  }

  search(query: string, limit: number): string[] {
    const scores = new Map<number, number>();
    const total = this.ids.length;
    for (const token of new Set(baselineTokens(query))) {
      const list = this.postings.get(token);
      if (!list) continue;
      const idf = Math.log(1 + (total - list.length + 0.5) / (list.length + 0.5));
      for (const [doc, tf] of list) {
        const norm = tf + this.k1 * (1 - this.b + (this.b * (this.lengths[doc] as number)) / this.averageLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (this.k1 + 1)) / norm);
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([doc]) => this.ids[doc] as string);
  }
}
