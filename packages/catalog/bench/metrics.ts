// Retrieval metrics in percent, binary relevance (see data/README.md).

export interface Metrics {
  r1: number;
  r5: number;
  r10: number;
  ndcg10: number;
  mrr10: number;
}

/**
 * How a query's `relevant` list is read: `all` (every listed tool is wanted: R@k is the share found) or `any`
 * (the list holds alternatives: R@k is 1 when any listed tool is in the top k, nDCG counts the first one only).
 */
export type RelevanceMode = 'all' | 'any';

export function scoreRanking(ranked: readonly string[], relevant: readonly string[], mode: RelevanceMode = 'all'): Metrics {
  const gold = new Set(relevant);
  const firstHit = ranked.slice(0, 10).findIndex((id) => gold.has(id));
  if (mode === 'any') {
    const hitAt = (k: number) => (firstHit >= 0 && firstHit < k ? 1 : 0);
    return { r1: hitAt(1), r5: hitAt(5), r10: hitAt(10), ndcg10: firstHit < 0 ? 0 : 1 / Math.log2(firstHit + 2), mrr10: firstHit < 0 ? 0 : 1 / (firstHit + 1) };
  }
  const recallAt = (k: number) => ranked.slice(0, k).filter((id) => gold.has(id)).length / gold.size;
  let dcg = 0;
  ranked.slice(0, 10).forEach((id, i) => {
    if (gold.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(10, gold.size); i++) ideal += 1 / Math.log2(i + 2);
  return { r1: recallAt(1), r5: recallAt(5), r10: recallAt(10), ndcg10: ideal === 0 ? 0 : dcg / ideal, mrr10: firstHit < 0 ? 0 : 1 / (firstHit + 1) };
}

export function meanMetrics(all: readonly Metrics[]): Metrics {
  const n = Math.max(1, all.length);
  const sum = (pick: (m: Metrics) => number) => (100 * all.reduce((total, m) => total + pick(m), 0)) / n;
  return { r1: sum((m) => m.r1), r5: sum((m) => m.r5), r10: sum((m) => m.r10), ndcg10: sum((m) => m.ndcg10), mrr10: sum((m) => m.mrr10) };
}
