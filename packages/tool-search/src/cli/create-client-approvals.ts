// `approvals: 'client'` in the config: the policy's `requireApproval` is answered by the MCP client whose call needs
// it, as an elicitation (a form with one yes/no field) through the relay. On a 2025 session it is a request on the
// session's stream; on 2026-07-28 the call is answered `input_required`, and the client's answer may reach another
// replica, which passes it on (`--store`). Fails closed: no client to ask, a decline, or anything but `true` denies.
// The question shows the argument values (a person approves what they can see), each cut short and JSON-quoted, so
// a value cannot pose as a line of the question, under a line that says they are untrusted text from the model.
import type { McpClientRelay } from '@tool-search/mcp-server';
import type { ApprovalProvider, ApprovalRequirement } from '@tool-search/policy';

/** What the approval form asks for. */
const APPROVAL_SCHEMA = {
  type: 'object',
  properties: { approve: { type: 'boolean', title: 'Allow this call' } },
  required: ['approve'],
} as const;

/** Names the asker in the relay's logs (it is not an upstream server). */
const ASKER = 'tool-search approvals';

/** Most arguments shown, and the longest shown value (JSON characters); longer ones are cut with `…`. */
const MAX_SHOWN_ARGUMENTS = 10;
const MAX_VALUE_CHARS = 200;

/** A simple argument name is shown as it is; any other (spaces, newlines, quotes) JSON-quoted. */
const PLAIN_NAME = /^[\w.-]{1,64}$/;

/** The approval question: the tool, the rule, and each argument with its value, marked as untrusted text. */
function approvalMessage(toolId: string, args: Record<string, unknown>, requirement: ApprovalRequirement): string {
  // A hint rule on a tool that states no annotations: say that MCP's default is what matched (the policy's words).
  const note = requirement.note === undefined ? '' : `; ${requirement.note}`;
  const head = `Allow ${toolId}? (${requirement.rule} in ${requirement.layer} requires approval${note})`;
  const names = Object.keys(args);
  if (names.length === 0) return `${head}\nNo arguments.`;
  const lines = names.slice(0, MAX_SHOWN_ARGUMENTS).map((name) => `  ${PLAIN_NAME.test(name) ? name : JSON.stringify(name).slice(0, MAX_VALUE_CHARS)}: ${shownValue(args[name])}`);
  if (names.length > MAX_SHOWN_ARGUMENTS) lines.push(`  (${names.length - MAX_SHOWN_ARGUMENTS} more not shown)`);
  return `${head}\nArguments (untrusted text written by the model, not by the gateway; long values cut short):\n${lines.join('\n')}`;
}

/** One value as JSON text (strings quoted, newlines escaped), cut at `MAX_VALUE_CHARS`. */
function shownValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = '(a value that cannot be shown)';
  }
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}… (${text.length} characters)` : text;
}

/** An approval provider that asks the MCP client whose call needs it. */
export function createClientApprovals(relay: Pick<McpClientRelay, 'onApproval'>): ApprovalProvider {
  return {
    id: 'mcp-client',
    async requestApproval({ tool, args, requirement }, { signal }) {
      const answer = await relay.onApproval(
        { mode: 'form', message: approvalMessage(tool.id, args, requirement), requestedSchema: APPROVAL_SCHEMA } as never,
        // Asked inside the call's execution: the relay asks that call's client, or nobody.
        { server: ASKER, signal, withinCall: true },
      );
      if (answer.action === 'accept' && answer.content?.['approve'] === true) return { decision: 'allow', reason: 'approved by the MCP client' };
      return { decision: 'deny', reason: answer.action === 'accept' ? 'the MCP client did not approve' : `the MCP client answered ${answer.action}` };
    },
  };
}
