// The upstream servers' resources and prompts as one tool-search session may use them: resources of a server
// whose `read_resource` tool the session has, prompts of a server whose `get_prompt` the policy admits. Both
// protocol eras' fronts answer through this.
import type { ToolSearchHost, ToolSearchSession } from '@tool-search/gateway-adapter';
import type { Policy, PolicyContext } from '@tool-search/policy';
import type { Logger } from 'pino';
import { createUpstreamPrompts, type UpstreamPrompts } from './upstream-prompts.js';
import { createUpstreamResources, type UpstreamResources } from './upstream-resources.js';

/** Which upstream servers' resources and prompts one session may use (what it may list), asked of its policy now. */
export interface UpstreamAdmission {
  resources: (server: string) => boolean;
  prompts: (server: string) => boolean;
}

/** The session's admission: resources by its `read_resource` tool in the policy view, prompts by the policy's verdict. */
export function upstreamAdmission(options: { session: Pick<ToolSearchSession, 'tool'>; policy: Policy | undefined; context: PolicyContext }): UpstreamAdmission {
  const { session, policy, context } = options;
  return {
    resources: (name) => session.tool(`mcp:${name}:read_resource`) !== undefined,
    // Prompts have no tool of their own: the policy decides on a read-only `get_prompt` of the server, as it
    // would on a tool of that name (`mcp:<server>:*` denies it, an allow list must name it).
    prompts: (name) =>
      policy === undefined || policy.check({ id: `mcp:${name}:get_prompt`, name: 'get_prompt', source: 'mcp', owner: name, ownerOnly: false, annotations: { readOnlyHint: true, openWorldHint: false } }, context).allowed,
  };
}

/** The upstream servers' resources and prompts as one session may use them. */
export interface SessionUpstream {
  readonly resources: UpstreamResources;
  readonly prompts: UpstreamPrompts;
}

export function createSessionUpstream(options: { host: ToolSearchHost; session: ToolSearchSession; policy: Policy | undefined; context: PolicyContext; log: Logger }): SessionUpstream & { admission: UpstreamAdmission } {
  const { host, log } = options;
  const servers = host.mcpServers.bind(host);
  const admission = upstreamAdmission(options);
  const resources = createUpstreamResources({ servers, allowed: admission.resources, log });
  return { resources, prompts: createUpstreamPrompts({ servers, allowed: admission.prompts, log }), admission };
}
