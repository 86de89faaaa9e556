// Fills in the Node child's program (src/guest/child-bootstrap.cjs, passed inline with `-e`): the limits, the realm
// runtime and the helper functions it embeds as text.
import type { RunnerLimits } from '../types.js';
import { lowerThreadPriority, SANDBOX_NICE_INCREMENT } from './lower-thread-priority.js';
import { MAX_JSON_DEPTH, MAX_JSON_MEMBERS, measureJsonText } from './measure-json-text.js';
import { CHILD_BOOTSTRAP_TEMPLATE, REALM_RUNTIME_SOURCE } from './guest-sources.js';

/** The fd the child writes protocol lines to (stdin carries parent → child lines). */
export const CHANNEL_FD = 3;

/**
 * Where the bootstrap holds the list of inherited fds (> 3) it closes before anything else (see
 * list-inheritable-fds.ts): the child-process host fills it in at spawn time. Left unfilled, the bootstrap fails
 * at its first line, so nothing runs.
 */
export const CLOSE_FDS_MARKER = '__CLOSE_FDS__';


/** The numbers the realm runtime reads (see src/guest/realm-runtime.js): the same for both engines. */
export function realmLimits(limits: RunnerLimits): {
  logLineBytes: number;
  resultBytes: number;
  inFlightCalls: number;
  maxMembers: number;
  maxDepth: number;
} {
  return {
    logLineBytes: limits.logLineBytes,
    resultBytes: limits.resultBytes,
    inFlightCalls: limits.inFlightCalls,
    maxMembers: MAX_JSON_MEMBERS,
    maxDepth: MAX_JSON_DEPTH,
  };
}

/** Options of `buildChildBootstrap`. */
export interface ChildBootstrapOptions {
  limits: RunnerLimits;
  /** Test-only: run the body in the main context with the real `process` and `require` (see DESIGN.md). */
  escapedForTests?: boolean | undefined;
}

/** Returns the bootstrap program for `node -e`. */
export function buildChildBootstrap(options: ChildBootstrapOptions): string {
  const values: Record<string, string> = {
    __LIMITS__: JSON.stringify(options.limits),
    __ESCAPED__: options.escapedForTests === true ? 'true' : 'false',
    __RUNTIME_SOURCE__: JSON.stringify(REALM_RUNTIME_SOURCE),
    __CHANNEL_FD__: String(CHANNEL_FD),
    __REALM_LIMITS__: JSON.stringify(realmLimits(options.limits)),
    __MEASURE_JSON_TEXT__: String(measureJsonText),
    __LOWER_THREAD_PRIORITY__: String(lowerThreadPriority),
    __NICE_INCREMENT__: String(SANDBOX_NICE_INCREMENT),
  };
  return CHILD_BOOTSTRAP_TEMPLATE.replace(/__[A-Z_]+__/g, (name) => values[name] ?? name);
}
