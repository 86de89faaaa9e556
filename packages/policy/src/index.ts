// Public contract of @tool-search/policy. Adding an export here makes it public API.

export { createPolicy } from './create-policy';
export { isPolicy } from './is-policy';
export { authorizeCall, DEFAULT_APPROVAL_TIMEOUT_MS, DEFAULT_HOOK_TIMEOUT_MS } from './authorize-call';
export { parsePolicyConfig } from './parse-policy-config';
export type { ParsePolicyConfigOptions } from './parse-policy-config';
export { canonicalizePolicyConfig } from './canonicalize-policy-config';
export type { CanonicalPolicyConfig } from './canonicalize-policy-config';
export { BUILTIN_TOOL_GROUPS } from './builtin-tool-groups';
export { PolicyError, isPolicyError } from './errors';
export type { PolicyErrorCode, PolicyErrorIssue, PolicyErrorOptions } from './errors';
export type {
  ApprovalAnswer,
  ApprovalProvider,
  ApprovalRequest,
  ApprovalRequirement,
  AuthorizeCallOptions,
  AuthorizeCallRequest,
  BeforeToolCallEvent,
  BeforeToolCallHook,
  BeforeToolCallResult,
  CallDecision,
  Policy,
  PolicyConfig,
  PolicyContext,
  PolicyGroups,
  PolicyLayer,
  PolicyOptions,
  PolicySource,
  PolicyTimeouts,
  PolicyTool,
  PolicyVerdict,
} from './types';
