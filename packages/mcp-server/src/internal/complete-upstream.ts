// `completion/complete` for the upstream servers: a prompt's or a resource template's argument, completed by the
// server it belongs to (one answer shape for both protocol eras' fronts).
import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/server';
import { pickDefined } from '@tool-search/gateway-adapter';
import type { UpstreamPrompts } from './upstream-prompts.js';
import type { UpstreamResources } from './upstream-resources.js';

/** Most values one completion answers with (MCP's limit). */
const MAX_COMPLETION_VALUES = 100;

export async function completeUpstream(params: CompleteRequest['params'], prompts: UpstreamPrompts, resources: UpstreamResources): Promise<CompleteResult> {
  const { ref, argument, context } = params;
  const target =
    ref.type === 'ref/prompt'
      ? await prompts.resolve(ref.name).then((found) => found && { server: found.server, ref: { type: 'ref/prompt' as const, name: found.name } })
      : await resources.templateServer(ref.uri).then((found) => found && { server: found.server, ref: { type: 'ref/resource' as const, uri: found.uriTemplate } });
  if (!target) return { completion: { values: [] } };
  const completed = await target.server.complete(target.ref, argument, context?.arguments);
  if (!completed.ok) return { completion: { values: [] } };
  return { completion: { values: completed.values.slice(0, MAX_COMPLETION_VALUES), ...pickDefined(completed, ['total', 'hasMore']) } };
}
