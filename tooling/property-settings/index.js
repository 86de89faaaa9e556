// What the property suites share (a devDependency of the packages whose tests use it, never imported by shipped
// code): fast-check settings (a fixed seed and the default run counts under `pnpm test`, and longer runs with a
// fresh seed, printed, under `pnpm fuzz:isolation`, which sets TOOL_SEARCH_FUZZ), and the fail-closed suites'
// catalogs, refusals and leak scans (`seeded-catalog.js`, `owner-refusals.js`, `marked-catalog.js`).
import { randomInt } from 'node:crypto';

/** The seed every property suite uses under `pnpm test`, so a red CI run replays as it failed. */
export const PROPERTY_SEED = 20_261_203;

let announced = false;

/** Seed and run counts for `fc.assert`, from TOOL_SEARCH_FUZZ (a run multiplier) and TOOL_SEARCH_FUZZ_SEED. */
export function propertySettings() {
  const raw = process.env.TOOL_SEARCH_FUZZ;
  const scale = raw === undefined || raw === '' ? 1 : Number(raw);
  if (!Number.isFinite(scale) || scale < 1) {
    throw new Error(`TOOL_SEARCH_FUZZ must be a number >= 1 (a run multiplier), received "${raw}".`);
  }
  const seedText = process.env.TOOL_SEARCH_FUZZ_SEED;
  const seed = seedText !== undefined && seedText !== '' ? Number(seedText) : scale > 1 ? randomInt(2 ** 31 - 1) : PROPERTY_SEED;
  if (!Number.isSafeInteger(seed)) throw new Error(`TOOL_SEARCH_FUZZ_SEED must be an integer, received "${seedText}".`);
  if (scale > 1 && !announced) {
    announced = true;
    process.stderr.write(`property suites: seed ${seed}, runs x${scale} (replay with TOOL_SEARCH_FUZZ_SEED=${seed})\n`);
  }
  return {
    seed,
    /** The run count for a property whose `pnpm test` count is `runs`. */
    runs: (runs) => Math.max(1, Math.round(runs * scale)),
  };
}

export { ISOLATION_WORDS, seededPick, fnv1a, localTools, executableTool, fakeProbe, refuseLastOwners, shownRefusedTools } from './seeded-catalog.js';
export { ADAPTER_WORDS, ADAPTER_OWNERS, rawToolsArbitrary, denyPolicyArbitrary, markedTools, withoutEchoes } from './marked-catalog.js';
export { OWNER_REFUSALS, ownerRefusal, answersOnEach } from './owner-refusals.js';
export { TIMEOUT_SCALE_VARIABLE, MAX_TIMEOUT_SCALE, measureMachineLoad, timeoutScaleFor, timeoutScale, scaledTimeout } from './test-timeouts.js';
