// Retrieval metrics in percent, binary relevance (see ../shared/bench/README.md).

export interface Metrics {
  r5: number;
  r10: number;
  ndcg10: number;
  mrr10: number;
}

export function scoreRanking(ranked: readonly string[], relevant: readonly string[]): Metrics {
  const gold = new Set(relevant);
  const recallAt = (k: number) => ranked.slice(0, k).filter((id) => gold.has(id)).length / gold.size;
  let dcg = 0;
  let mrr = 0;
  ranked.slice(0, 10).forEach((id, i) => {
    if (!gold.has(id)) return;
    dcg += 1 / Math.log2(i + 2);
    if (mrr === 0) mrr = 1 / (i + 1);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(10, gold.size); i++) ideal += 1 / Math.log2(i + 2);
  return { r5: recallAt(5), r10: recallAt(10), ndcg10: ideal === 0 ? 0 : dcg / ideal, mrr10: mrr };
}

export function meanMetrics(all: readonly Metrics[]): Metrics {
  const n = Math.max(1, all.length);
  const sum = (pick: (m: Metrics) => number) => (100 * all.reduce((total, m) => total + pick(m), 0)) / n;
  return { r5: sum((m) => m.r5), r10: sum((m) => m.r10), ndcg10: sum((m) => m.ndcg10), mrr10: sum((m) => m.mrr10) };
}
