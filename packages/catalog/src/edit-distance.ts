// Levenshtein edit distance, for "did you mean" suggestions (tool ids here, argument names in the gateway).

/**
 * The Levenshtein distance between `left` and `right` (insertions, deletions and substitutions of one UTF-16
 * unit each). With `limit`, returns `limit + 1` as soon as the distance is certain to exceed it, so a
 * suggestion search over many candidates does not pay the full quadratic cost for the far ones.
 */
export function editDistance(left: string, right: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(left.length - right.length) > limit) return limit + 1;
  let previous = Array.from({ length: right.length + 1 }, (_, j) => j);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[right.length] as number;
}
