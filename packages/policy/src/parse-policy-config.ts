import type { PolicyConfig } from './types';
import { validatePolicyConfig } from './internal/validate-policy-config';

/** Options for `parsePolicyConfig`. */
export interface ParsePolicyConfigOptions {
  /** Host-defined groups the config may refer to (as passed to `createPolicy`). */
  groups?: Record<string, string[]> | undefined;
}

/**
 * Validates a policy config (strict shape, pattern syntax, known groups, no group cycles) and returns a
 * clean copy. Throws `PolicyError('invalid_config')` whose `path` names the first offending field.
 */
export function parsePolicyConfig(input: unknown, options: ParsePolicyConfigOptions = {}): PolicyConfig {
  return validatePolicyConfig(input, options.groups).config;
}
