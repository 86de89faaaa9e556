// The statistics every `pnpm bench:*` script prints, with one definition: the nearest-rank percentile.

/**
 * The `p`th percentile (0–100) of `values` by nearest rank: the value at index floor(p/100 × n) of the sorted
 * values (the largest for p = 100); NaN when there are none. `values` is not changed.
 * @param {readonly number[]} values
 * @param {number} p
 * @returns {number}
 */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * The median (the 50th percentile by nearest rank).
 * @param {readonly number[]} values
 * @returns {number}
 */
export function median(values) {
  return percentile(values, 50);
}

export { benchFile, readBenchText, readJsonLines } from './read-bench-data.js';
