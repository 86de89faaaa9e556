// A deterministic embedder for tests: a text's vector counts its words per concept (a word list per dimension),
// so a query can match a tool it shares no word with. It records every call.
import type { Embedder, EmbeddingKind } from '../types.js';

export interface ConceptEmbedder extends Embedder {
  /** Every `embed` call, in order. */
  readonly calls: Array<{ texts: string[]; kind: EmbeddingKind }>;
  /** Makes the next `embed` calls reject (until set back to undefined). */
  failWith: Error | undefined;
}

/** `concepts[i]` lists the words of dimension i; a text with none of them gets a small constant last dimension. */
export function createConceptEmbedder(concepts: readonly (readonly string[])[], options: { maxBatchSize?: number; id?: string } = {}): ConceptEmbedder {
  const calls: Array<{ texts: string[]; kind: EmbeddingKind }> = [];
  const embedder: ConceptEmbedder = {
    id: options.id ?? 'concepts-v1',
    maxBatchSize: options.maxBatchSize,
    calls,
    failWith: undefined,
    async embed(texts: string[], { kind }: { kind: EmbeddingKind }): Promise<number[][]> {
      calls.push({ texts: [...texts], kind });
      if (embedder.failWith) throw embedder.failWith;
      return texts.map((text) => {
        const words = text.toLowerCase().split(/[^a-z0-9]+/);
        const vector = concepts.map((concept) => words.filter((word) => concept.includes(word)).length);
        vector.push(0.01);
        return vector;
      });
    },
  };
  return embedder;
}
