// The upstream servers' resources and prompts as one tool-search session may use them: resources of a server
// whose `read_resource` tool the session has, prompts of a server whose `get_prompt` the policy admits. Both
// protocol eras' fronts answer through this.
import type { ToolSearchHost, ToolSearchSession } from '@tool-search/gateway-adapter';
import type { Policy, PolicyContext } from '@tool-search/policy';
import type { Logger } from 'pino';
import { createUpstreamPrompts, type UpstreamPrompts } from './upstream-prompts.js';
import { createUpstreamResources, type UpstreamResources } from './upstream-resources.js';

export function createSessionUpstream(options: { host: ToolSearchHost; session: ToolSearchSession; policy: Policy | undefined; context: PolicyContext; log: Logger }): { resources: UpstreamResources; prompts: UpstreamPrompts } {
  const { host, session, policy, context, log } = options;
  const servers = host.mcpServers.bind(host);
  const resources = createUpstreamResources({ servers, allowed: (name) => session.tool(`mcp:${name}:read_resource`) !== undefined, log });
  // Prompts have no tool of their own: the policy decides on a read-only `get_prompt` of the server, as it
  // would on a tool of that name (`mcp:<server>:*` denies it, an allow list must name it).
  const promptsAllowed = (name: string) =>
    policy === undefined || policy.check({ id: `mcp:${name}:get_prompt`, name: 'get_prompt', source: 'mcp', owner: name, ownerOnly: false, annotations: { readOnlyHint: true, openWorldHint: false } }, context).allowed;
  return { resources, prompts: createUpstreamPrompts({ servers, allowed: promptsAllowed, log }) };
}
