// The one error class of this package. Expected outcomes (a denial, a blocked call) are values, not errors:
// a PolicyError means a broken contract (an invalid config, a malformed argument from the host).
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** Every code a `PolicyError` can carry. */
export type PolicyErrorCode =
  /** The policy config (or the `groups` option) failed validation; `path` names the offending field. */
  | 'invalid_config'
  /** A host-supplied argument (tool, context, args, hooks, approvals, timeouts) is malformed. */
  | 'invalid_argument';

/** One validation problem, with the dotted path of the field that caused it. */
export interface PolicyErrorIssue {
  path: string;
  message: string;
}

/** Options for constructing a `PolicyError`. */
export interface PolicyErrorOptions {
  /** Dotted path of the first offending field, e.g. `agents.main.deny[2]`. */
  path?: string;
  /** Every problem found, when validation found more than one. */
  issues?: PolicyErrorIssue[];
  cause?: unknown;
}

/** The error thrown by `@tool-search/policy` for broken contracts; check with `isPolicyError`. */
export class PolicyError extends ToolSearchErrorBase<PolicyErrorCode> {
  readonly issues: PolicyErrorIssue[];

  constructor(code: PolicyErrorCode, message: string, options: PolicyErrorOptions = {}) {
    super('PolicyError', code, message, options);
    this.issues = options.issues ?? (options.path === undefined ? [] : [{ path: options.path, message }]);
  }
}

/** True for a `PolicyError` from any copy of this package (checks a `Symbol.for` brand, not `instanceof`). */
export const isPolicyError = createErrorGuard<PolicyError>('PolicyError');
