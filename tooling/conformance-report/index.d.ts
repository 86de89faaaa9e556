/** One scored scenario of a `--requirements` run. */
export interface RequirementsRow {
  mark: '✓' | '✗';
  scenario: string;
  verdict: string;
}
/** Scores the suite's output against the expected failures; throws when it reported no scenario. */
export declare function scoreRequirementsRun(
  output: string,
  expected: ReadonlyMap<string, string>,
): { rows: RequirementsRow[]; counts: { passed: number; failed: number; expected: number; stale: number; unscored: number } };
