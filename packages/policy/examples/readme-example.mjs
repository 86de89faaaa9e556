// npm install @tool-search/policy   (Node >= 20), then: node readme-example.mjs
import { createPolicy } from '@tool-search/policy';

const tool = (source, owner, name) => ({ id: `${source}:${owner}:${name}`, source, owner, name });
const tools = [tool('openclaw', 'core', 'exec'), tool('openclaw', 'core', 'message'), tool('mcp', 'zendesk', 'delete_ticket'), tool('mcp', 'github', 'create_issue')];
// Your approval UI: here a rule that says yes to ticket deletions.
const askHuman = async (id, args) => ({ decision: id.endsWith('delete_ticket') ? 'allow' : 'deny', reason: `asked about ${args.ticket}` });

const policy = createPolicy(
  { deny: ['group:runtime'], agents: { support: { allow: ['group:messaging', 'mcp:zendesk:*'] } }, requireApproval: ['mcp:*:delete_*'] },
  { approvals: { requestApproval: async ({ tool, args }) => askHuman(tool.id, args) } },
);

const visible = policy.filter(tools, { agentId: 'support', isOwner: false }); // the effective catalog
console.log(visible.map((tool) => tool.id));
const decision = await policy.authorizeCall({ tool: tools[2], args: { ticket: 42 }, context: { agentId: 'support' } });
console.log(decision.status, decision.args); // decision.args: after hooks
console.log(policy.check(tools[0], { agentId: 'support' }).reason);
