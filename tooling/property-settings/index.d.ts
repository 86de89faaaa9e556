/** The seed every property suite uses under `pnpm test`, so a red CI run replays as it failed. */
export declare const PROPERTY_SEED: number;
/** Seed and run counts for `fc.assert`, from TOOL_SEARCH_FUZZ (a run multiplier) and TOOL_SEARCH_FUZZ_SEED. */
export declare function propertySettings(): {
  seed: number;
  /** The run count for a property whose `pnpm test` count is `runs`. */
  runs: (runs: number) => number;
};
