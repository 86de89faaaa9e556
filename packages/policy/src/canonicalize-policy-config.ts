import { PolicyError } from './errors';
import { validatePolicyConfig } from './internal/validate-policy-config';
import type { ParsePolicyConfigOptions } from './parse-policy-config';
import type { PolicyConfig } from './types';

/** A validated policy config in canonical form, and the key that names its content. */
export interface CanonicalPolicyConfig {
  /** The validated config, deeply frozen: object keys sorted, fields set to `undefined` left out. */
  config: PolicyConfig;
  /**
   * Equal exactly when two configs (with equal `groups` options) are equal after sorting object keys and leaving
   * out `undefined` fields. Policies compiled from configs with equal keys give identical `check`, `filter` and
   * `approvalRequirement` answers. Not a hash: the full content, so two different configs never share a key.
   */
  key: string;
}

/**
 * Validates a policy config like `parsePolicyConfig` and returns its canonical copy and content key, so a host can
 * cache what it compiles by content rather than by object. Only what cannot change a verdict is normalised (the
 * order of object keys); pattern lists keep their order, since the first matching pattern names the rule.
 * Compile the returned `config` (with the same `groups`), not the input: the key describes that copy.
 */
export function canonicalizePolicyConfig(input: unknown, options: ParsePolicyConfigOptions = {}): CanonicalPolicyConfig {
  const validated = validatePolicyConfig(input, options.groups);
  const config = canonicalCopy(validated.config, 'config') as PolicyConfig;
  const groups = validated.hostGroups === undefined ? undefined : canonicalCopy(validated.hostGroups, 'options.groups');
  return { config, key: JSON.stringify(groups === undefined ? { config } : { config, groups }) };
}

/**
 * A deep, frozen copy of validated JSON data with object keys inserted in sorted order (so `JSON.stringify` of it is
 * canonical) and `undefined` fields left out. Anything but strings, arrays and plain objects is a broken contract.
 */
function canonicalCopy(value: unknown, path: string): unknown {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return Object.freeze(value.map((item, index) => canonicalCopy(item, `${path}[${index}]`)));
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const field = (value as Record<string, unknown>)[key];
      if (field === undefined) continue;
      // defineProperty: a layer keyed `__proto__` stays a field, it does not set the copy's prototype.
      Object.defineProperty(copy, key, { value: canonicalCopy(field, `${path}.${key}`), enumerable: true });
    }
    return Object.freeze(copy);
  }
  throw new PolicyError('invalid_config', `invalid policy config at ${path}: expected a string, an array or a plain object after validation`, { path });
}
