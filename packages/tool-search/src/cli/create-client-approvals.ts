// `approvals: 'client'` in the config: the policy's `requireApproval` is answered by the MCP client whose call needs
// it, as an elicitation (a form with one yes/no field) through the relay. On a 2025 session it is a request on the
// session's stream; on 2026-07-28 the call is answered `input_required`, and the client's answer may reach another
// replica, which passes it on (`--store`). Fails closed: no client to ask, a decline, or anything but `true` denies.
import type { McpClientRelay } from '@tool-search/mcp-server';
import type { ApprovalProvider } from '@tool-search/policy';

/** What the approval form asks for. */
const APPROVAL_SCHEMA = {
  type: 'object',
  properties: { approve: { type: 'boolean', title: 'Allow this call' } },
  required: ['approve'],
} as const;

/** Names the asker in the relay's logs (it is not an upstream server). */
const ASKER = 'tool-search approvals';

/** An approval provider that asks the MCP client whose call needs it. */
export function createClientApprovals(relay: Pick<McpClientRelay, 'onElicitation'>): ApprovalProvider {
  return {
    id: 'mcp-client',
    async requestApproval({ tool, args, requirement }, { signal }) {
      const names = Object.keys(args).slice(0, 10).join(', ');
      const answer = await relay.onElicitation(
        {
          mode: 'form',
          message: `Allow ${tool.id}${names === '' ? '' : ` with ${names}`}? (${requirement.rule} in ${requirement.layer} requires approval)`,
          requestedSchema: APPROVAL_SCHEMA,
        } as never,
        // Asked inside the call's execution: the relay tells whose call it is from that context.
        { server: ASKER, signal, withinCall: true },
      );
      if (answer.action === 'accept' && answer.content?.['approve'] === true) return { decision: 'allow', reason: 'approved by the MCP client' };
      return { decision: 'deny', reason: answer.action === 'accept' ? 'the MCP client did not approve' : `the MCP client answered ${answer.action}` };
    },
  };
}
