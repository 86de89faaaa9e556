// The public factory. Everything it does is in internal/create-sandbox-runner.ts, shared with the test-only
// escaped runner so that the two differ in the child's bootstrap and nothing else.
import { createSandboxRunner } from './internal/create-sandbox-runner.js';
import type { Runner, RunnerOptions } from './types.js';

/**
 * Creates a runner: each `run()` executes model-written code in a fresh single-use Node child behind every
 * layer (realm, permission model, namespaces/rlimits, channel, timeout). Throws `invalid_options` on bad options.
 */
export function createRunner(options: RunnerOptions = {}): Runner {
  return createSandboxRunner(options, { escapedForTests: false });
}
