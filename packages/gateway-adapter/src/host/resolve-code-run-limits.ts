// The host's code-run limits, checked where they enter.
import { GatewayAdapterError } from '../errors.js';
import { defaultMaxConcurrentRuns, type CodeRunLimits } from '../shared/index.js';

/** The code-run limits every session shares: host-wide, per session, and how many may wait. */
export interface ResolvedCodeRunLimits {
  maxConcurrent: number;
  maxConcurrentPerSession: number;
  maxQueued: number;
}

/** The code-run limits with their defaults, each a positive integer (else `invalid_options`). */
export function resolveCodeRunLimits(limits: CodeRunLimits | undefined): ResolvedCodeRunLimits {
  for (const [name, value] of Object.entries(limits ?? {})) {
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < 1)) {
      throw new GatewayAdapterError('invalid_options', `codeRuns.${name} must be a positive integer, got ${JSON.stringify(value)}`, { path: `codeRuns.${name}` });
    }
  }
  const maxConcurrent = limits?.maxConcurrent ?? defaultMaxConcurrentRuns();
  return {
    maxConcurrent,
    maxConcurrentPerSession: Math.min(maxConcurrent, limits?.maxConcurrentPerSession ?? Math.ceil(maxConcurrent / 2)),
    maxQueued: limits?.maxQueued ?? maxConcurrent * 4,
  };
}
