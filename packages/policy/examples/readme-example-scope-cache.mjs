// One allowed set per scope key, not per session.
import { createPolicy } from '@tool-search/policy';

const catalog = [{ id: 'openclaw:core:exec', source: 'openclaw', owner: 'core', name: 'exec' }, { id: 'mcp:zendesk:get_ticket', source: 'mcp', owner: 'zendesk', name: 'get_ticket' }];
const policy = createPolicy({ deny: ['group:runtime'] });

const allowedByScope = new Map(); // one per policy object
function allowedFor(context) {
  const key = policy.scopeKey(context);
  let allowed = allowedByScope.get(key);
  if (!allowed) allowedByScope.set(key, (allowed = new Set(policy.filter(catalog, context).map((tool) => tool.id))));
  return allowed;
}
allowedFor({ agentId: 'support', senderId: 'alice' });
console.log([...allowedFor({ agentId: 'support', senderId: 'bob' })], allowedByScope.size); // a sender selects no layer: one set
