// One policy per config content, for a host that builds its config per run.
import { canonicalizePolicyConfig, createPolicy } from '@tool-search/policy';

const policiesByContent = new Map();
function policyFor(configForThisRun) {
  const { config, key } = canonicalizePolicyConfig(configForThisRun);
  let policy = policiesByContent.get(key);
  if (!policy) policiesByContent.set(key, (policy = createPolicy(config))); // compile the copy, not the input
  return policy;
}
const first = policyFor({ deny: ['group:runtime'], requireApproval: ['mcp:*:delete_*'] });
const second = policyFor({ requireApproval: ['mcp:*:delete_*'], deny: ['group:runtime'], allow: undefined });
console.log(first === second, policiesByContent.size); // equal apart from key order and undefined fields: one policy
