// The one error class of this package. Expected outcomes (a denial, a blocked call) are values, not errors:
// a PolicyError means a broken contract (an invalid config, a malformed argument from the host).

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package, its value the class
 * name. A guard reads it instead of `instanceof`, so an error from another copy of the package is recognised.
 */
const TOOL_SEARCH_ERROR = Symbol.for('tool-search.error');

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
export class PolicyError extends Error {
  readonly code: PolicyErrorCode;
  readonly path: string | undefined;
  readonly issues: PolicyErrorIssue[];

  constructor(code: PolicyErrorCode, message: string, options: PolicyErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PolicyError';
    this.code = code;
    this.path = options.path;
    this.issues = options.issues ?? (options.path === undefined ? [] : [{ path: options.path, message }]);
    Object.defineProperty(this, TOOL_SEARCH_ERROR, { value: 'PolicyError' });
  }
}

/** True for a `PolicyError` from any copy of this package (checks a `Symbol.for` brand, not `instanceof`). */
export function isPolicyError(value: unknown): value is PolicyError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR] === 'PolicyError';
}
