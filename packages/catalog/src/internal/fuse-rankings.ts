// Fusion of the lexical ranking with the embedder's nearest tools: a linear mix of normalised scores. It reads
// only the two lists, so a view fuses exactly as a catalog of its tools alone. (Reciprocal-rank fusion was
// measured worse at every setting and is gone; bench/RESULTS.md has the figures.)

/** One scored id of either list, best first. */
export interface ScoredId {
  id: string;
  score: number;
}

/** How the two lists are fused; bench/RESULTS.md gives the measured values. */
export interface FusionSettings {
  /** Weight of the semantic list's normalised similarity. */
  semanticWeight: number;
  /**
   * The similarity range that counts as a full point (0 = the list's own range, top minus last). A
   * fixed range keeps the model's own confidence: when every tool is about as similar, the semantic part is small.
   */
  similarityRange: number;
}

/**
 * Fuses `lexical` (BM25F scores) with `semantic` (cosine similarities), best first, ties by id. Each
 * list's scores are divided by its best one (similarities after subtracting the list's last one, so the spread
 * of a model's cosines does not matter), then `lexical + semanticWeight × semantic`.
 */
export function fuseRankings(lexical: readonly ScoredId[], semantic: readonly ScoredId[], settings: FusionSettings): ScoredId[] {
  const fused = new Map<string, number>();
  const add = (id: string, value: number) => fused.set(id, (fused.get(id) ?? 0) + value);
  const best = lexical[0]?.score ?? 0;
  for (const entry of lexical) add(entry.id, best > 0 ? entry.score / best : 0);
  const top = semantic[0]?.score ?? 0;
  const floor = semantic.length > 1 ? (semantic[semantic.length - 1] as ScoredId).score : 0;
  const spread = settings.similarityRange > 0 ? settings.similarityRange : top - floor;
  for (const entry of semantic) add(entry.id, settings.semanticWeight * (spread > 0 ? Math.min(1, (entry.score - floor) / spread) : 1));
  return [...fused]
    .map(([id, score]) => ({ id, score: Math.round(score * 1e9) / 1e9 }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
