// TEST-ONLY. Never exported from src/index.ts. A runner identical to `createRunner` (same spawn flags, OS layer,
// env, cwd, fds, channel, limits, timeout) except that the child runs the body in its main context as
// `async function (tools, console, process, require) { body }` with the real `process` and `require`: code that
// has "already escaped the realm". The adversarial suite uses it to prove the process and OS layers hold alone.
import type { Runner, RunnerOptions } from '../types.js';
import { createSandboxRunner } from './create-sandbox-runner.js';

/** Creates the escaped runner (tests only). */
export function createEscapedRunnerForTests(options: RunnerOptions = {}): Runner {
  return createSandboxRunner(options, { escapedForTests: true });
}
