// diversifyRanking and insertTop: the last step of a ranking. Keep the best candidates in order, then re-order
// them so a query asking for several things gets a tool for each before near-duplicates of the first.

/** One scored candidate of a ranking. */
export interface Candidate {
  slot: number;
  score: number;
  id: string;
}

/** Keeps `top` sorted (score desc, id asc) and at most `size` long. */
export function insertTop(top: Candidate[], candidate: Candidate, size: number): void {
  if (top.length === size) {
    const last = top[size - 1] as Candidate;
    if (candidate.score < last.score || (candidate.score === last.score && candidate.id > last.id)) return;
  }
  let i = top.length;
  while (i > 0) {
    const before = top[i - 1] as Candidate;
    if (before.score > candidate.score || (before.score === candidate.score && before.id < candidate.id)) break;
    i--;
  }
  top.splice(i, 0, candidate);
  if (top.length > size) top.pop();
}

/**
 * Greedy re-ordering of the top candidates: each pick's score is scaled by the idf-weighted share of its
 * matched query terms (`masks`, one bit per term, `bitIdf`) not yet covered by earlier picks, a covered term
 * counting `coveredTermWeight`. Scores stay monotonic with rank.
 */
export function diversifyRanking(pool: readonly Candidate[], bitIdf: Map<number, number>, masks: Uint32Array, coveredTermWeight: number): Array<{ id: string; score: number }> {
  const remaining = [...pool];
  let covered = 0;
  const out: Array<{ id: string; score: number }> = [];
  let floor = Number.POSITIVE_INFINITY;
  while (remaining.length > 0) {
    let bestIndex = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    remaining.forEach((candidate, i) => {
      const mask = masks[candidate.slot] as number;
      let all = 0;
      let fresh = 0;
      for (const [bit, idf] of bitIdf) {
        if (!(mask & (1 << bit))) continue;
        all += idf;
        fresh += covered & (1 << bit) ? idf * coveredTermWeight : idf;
      }
      const adjusted = all > 0 ? (candidate.score * fresh) / all : candidate.score;
      if (adjusted > bestScore || (adjusted === bestScore && candidate.id < (remaining[bestIndex] as Candidate).id)) {
        bestScore = adjusted;
        bestIndex = i;
      }
    });
    const [picked] = remaining.splice(bestIndex, 1) as [Candidate];
    covered |= masks[picked.slot] as number;
    floor = Math.min(floor, bestScore);
    out.push({ id: picked.id, score: floor });
  }
  return out;
}
