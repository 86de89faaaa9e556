// "Did you mean" for argument names. The distance is the catalog's `editDistance` (one implementation for
// both suggestion lists); what counts as near, after normalising case and separators, is decided here.
import { editDistance } from '@tool-search/catalog';

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
