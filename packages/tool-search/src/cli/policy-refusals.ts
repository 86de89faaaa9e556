// What the policy refuses, per server, in the policy's own words: for `doctor` (a rule that refuses every tool of a
// server is almost always a surprise, e.g. `hint:destructive` on a server that declares no annotations) and for
// `search --explain` (why the refused matches are refused, without naming them). Also which admitted tools a
// `requireApproval` rule puts before an approval, and why, for `doctor`.
import type { ToolDescriptor } from '@tool-search/catalog';
import type { ToolSearchHost } from '@tool-search/gateway-adapter';
import type { ApprovalRequirement, Policy, PolicyContext, PolicyTool } from '@tool-search/policy';
import type { LoadedConfig } from './load-config.js';

/** One server's tools and how many the policy refuses, with the distinct reasons (tool ids left out). */
export interface ServerRefusals {
  server: string;
  tools: number;
  refused: number;
  reasons: string[];
  /** Of the admitted tools, how many a `requireApproval` rule puts before an approval, and why (distinct). */
  needApproval: number;
  approvalReasons: string[];
}

/** Why a call needs approval, worded as a refusal's reason is: "requires approval by 'hint:destructive' in global (no annotations: …)". */
export function approvalReason(requirement: ApprovalRequirement): string {
  return `requires approval by '${requirement.rule}' in ${requirement.layer}${requirement.note === undefined ? '' : ` (${requirement.note})`}`;
}

/** A catalog tool as the policy checks it (the facts `check` and `approvalRequirement` read; never owner-only here). */
export function policyToolOf(tool: ToolDescriptor): PolicyTool {
  return { id: tool.id, name: tool.name, source: tool.source, owner: tool.owner, ownerOnly: false, trusted: tool.trusted, ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }) };
}

/** Why a call to `tool` needs approval (`approvalReason`), or undefined when the policy refuses it or no `requireApproval` rule matches it. */
export function approvalReasonOf(tool: ToolDescriptor, policy: Policy, context: PolicyContext): string | undefined {
  const policyTool = policyToolOf(tool);
  if (!policy.check(policyTool, context).allowed) return undefined;
  const requirement = policy.approvalRequirement(policyTool, context);
  return requirement === undefined ? undefined : approvalReason(requirement);
}

/** What becomes of a call that needs approval when the config names no approval provider (empty when it names one). */
export function unansweredApprovals(config: Pick<LoadedConfig, 'approvals'>): string {
  return config.approvals === undefined ? " (no approval provider: these calls are blocked; approvals: 'client' asks the MCP client)" : '';
}

/** A verdict's reason without the tool it names: "denied by 'hint:destructive' in global (no annotations: …)". */
export function reasonWithoutTool(reason: string): string {
  return reason.replace(/^tool '[^']*' (is )?/, '');
}

/** Checks every tool of the host's catalog against the config's policy, grouped by owner (the server's name). */
export async function policyRefusalsByServer(host: ToolSearchHost, config: LoadedConfig): Promise<ServerRefusals[]> {
  const everything = await host.openSession({ config: false, policy: {}, context: config.context, sessionId: 'cli-policy-refusals' });
  try {
    const byServer = new Map<string, ServerRefusals>();
    for (const surfaced of everything.modelSurface().tools) {
      const tool = surfaced.id === undefined ? undefined : everything.tool(surfaced.id);
      if (tool === undefined || tool.source !== 'mcp') continue;
      const entry = byServer.get(tool.owner) ?? { server: tool.owner, tools: 0, refused: 0, reasons: [], needApproval: 0, approvalReasons: [] };
      byServer.set(tool.owner, entry);
      entry.tools += 1;
      const policyTool = policyToolOf(tool);
      const verdict = config.policy.check(policyTool, config.context);
      if (verdict.allowed) {
        const requirement = config.policy.approvalRequirement(policyTool, config.context);
        if (requirement === undefined) continue;
        entry.needApproval += 1;
        const reason = approvalReason(requirement);
        if (!entry.approvalReasons.includes(reason)) entry.approvalReasons.push(reason);
        continue;
      }
      entry.refused += 1;
      const reason = reasonWithoutTool(verdict.reason);
      if (!entry.reasons.includes(reason)) entry.reasons.push(reason);
    }
    return [...byServer.values()];
  } finally {
    await everything.close();
  }
}
