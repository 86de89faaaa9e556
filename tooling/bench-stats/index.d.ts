/** The `p`th percentile (0–100) of `values` by nearest rank; NaN when there are none. `values` is not changed. */
export declare function percentile(values: readonly number[], p: number): number;
/** The median (the 50th percentile by nearest rank). */
export declare function median(values: readonly number[]): number;
export { benchFile, readBenchText, readJsonLines } from './read-bench-data.js';
