// Zod schemas for what crosses this package's boundary: the config, the context, timeouts and the
// answers of approval providers. Our own shapes are strict: a typo fails loudly instead of silently
// dropping a layer (which would widen access).
import { z } from 'zod';
import { GROUP_REFERENCE } from './internal/pattern-syntax';

const patternListSchema = z.array(z.string());

/** One layer: `allow`, `deny` and `requireApproval` pattern lists. */
export const policyLayerSchema = z.strictObject({
  allow: patternListSchema.optional(),
  deny: patternListSchema.optional(),
  requireApproval: patternListSchema.optional(),
});

const layerMapSchema = z.record(z.string().min(1, 'a layer key must not be empty'), policyLayerSchema);

/** A groups map: `group:<name>` to member patterns. */
export const policyGroupsSchema = z.record(
  z.string().regex(GROUP_REFERENCE, "a group key must look like 'group:<name>' (letters, digits, '_', '.', '-')"),
  patternListSchema,
);

/** The whole config. Pattern syntax and group references are checked after this by `parsePolicyConfig`. */
export const policyConfigSchema = z.strictObject({
  ...policyLayerSchema.shape,
  groups: policyGroupsSchema.optional(),
  agents: layerMapSchema.optional(),
  profiles: layerMapSchema.optional(),
  sandboxes: layerMapSchema.optional(),
  channels: layerMapSchema.optional(),
  runtimes: layerMapSchema.optional(),
  sessions: layerMapSchema.optional(),
});

const contextValue = z.string().min(1).optional();

/** The run context. Strict, so a misspelt `agentID` fails instead of silently skipping the agent layer. */
export const policyContextSchema = z.strictObject({
  agentId: contextValue,
  profile: contextValue,
  sandboxId: contextValue,
  channel: contextValue,
  runtime: contextValue,
  sessionId: contextValue,
  senderId: contextValue,
  isOwner: z.boolean().optional(),
});

const millisecondsSchema = z.number().int().min(1).max(2_147_483_647);

/** `timeoutMs`: one limit for each step, or separate limits per step kind. */
export const policyTimeoutsSchema = z.union([
  millisecondsSchema,
  z.strictObject({ hook: millisecondsSchema.optional(), approval: millisecondsSchema.optional() }),
]);

/** An approval provider's answer. Anything else is malformed (and a deny). */
export const approvalAnswerSchema = z.strictObject({
  decision: z.enum(['allow', 'deny']),
  reason: z.string().optional(),
});
