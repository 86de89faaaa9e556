// Tells a compiled policy from a policy config: what every caller that takes either (a host's session, the MCP
// front) asks before it compiles a config or uses a policy as it is.
import type { Policy } from './types';

/** True for a compiled `Policy` (from `createPolicy`), false for a config or anything else. */
export function isPolicy(value: unknown): value is Policy {
  return typeof value === 'object' && value !== null && typeof (value as Policy).check === 'function' && typeof (value as Policy).authorizeCall === 'function';
}
