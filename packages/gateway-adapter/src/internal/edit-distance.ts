/** Levenshtein distance, for "did you mean" parameter suggestions (names are short). */
function editDistance(left: string, right: string): number {
  const previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i += 1) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= right.length; j += 1) {
      const above = previous[j]!;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (left[i - 1] === right[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[right.length]!;
}

/** The candidates close to `name` (normalised for case and separators), nearest first. */
export function nearNames(name: string, candidates: readonly string[], max = 3): string[] {
  const normalise = (value: string) => value.toLowerCase().replace(/[-_\s]/g, '');
  const target = normalise(name);
  return candidates
    .map((candidate) => {
      const normalised = normalise(candidate);
      const distance = editDistance(target, normalised);
      const contains = target.length >= 3 && (normalised.includes(target) || target.includes(normalised));
      return { candidate, score: contains ? Math.min(distance, 1) : distance };
    })
    .filter(({ candidate, score }) => {
      const length = Math.max(candidate.length, name.length);
      // Short names tolerate one edit; longer ones a transposition (two edits) or a third of their length.
      return score <= (length <= 3 ? 1 : Math.max(2, Math.floor(length / 3)));
    })
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map(({ candidate }) => candidate);
}
