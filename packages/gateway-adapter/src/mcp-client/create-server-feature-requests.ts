// The requests of a connection beyond tools: resources, prompts and completions, each refused as `unsupported`
// when the server did not declare the feature, lists followed across every page.
import type { RequestOptions } from '@modelcontextprotocol/client';
import type { McpListResult, McpServerConnection, McpServerFeatures } from './mcp-server-connection.js';
import type { McpConnectionCore } from './mcp-connection-core.js';
import { pickPrompt, pickResource, pickResourceTemplate } from './pick-listed-items.js';
import { runMcpRequest, type RequestParts } from './run-mcp-request.js';
import { toContentParts, toResourcePart } from './to-content-parts.js';

/** The methods of a connection this module answers. */
export type ServerFeatureRequests = Pick<McpServerConnection, 'listResources' | 'listResourceTemplates' | 'readResource' | 'listPrompts' | 'getPrompt' | 'complete'>;

/** The parts of a connection these requests need. */
export type FeatureRequestParts = RequestParts & Pick<McpConnectionCore, 'client' | 'features'>;

/** Creates the resources, prompts and completions methods of a connection. */
export function createServerFeatureRequests(core: FeatureRequestParts): ServerFeatureRequests {
  return {
    listResources: () =>
      listEvery(core, {
        feature: 'resources',
        what: 'resources/list',
        all: (requestOptions) => core.client.listResources(undefined, requestOptions).then((listed) => listed.resources),
        pick: pickResource,
      }),
    listResourceTemplates: () =>
      listEvery(core, {
        feature: 'resources',
        what: 'resources/templates/list',
        all: (requestOptions) => core.client.listResourceTemplates(undefined, requestOptions).then((listed) => listed.resourceTemplates),
        pick: pickResourceTemplate,
      }),
    async readResource(uri, readOptions = {}) {
      const missing = unsupported(core, 'resources');
      if (missing) return missing;
      const read = await runMcpRequest(core, `resources/read ${uri.slice(0, 200)}`, (requestOptions) => core.client.readResource({ uri }, requestOptions), readOptions);
      return read.ok ? { ok: true, parts: read.value.contents.map((content) => toResourcePart(content)) } : read;
    },
    listPrompts: () =>
      listEvery(core, {
        feature: 'prompts',
        what: 'prompts/list',
        all: (requestOptions) => core.client.listPrompts(undefined, requestOptions).then((listed) => listed.prompts),
        pick: pickPrompt,
      }),
    async getPrompt(name, args, promptOptions = {}) {
      const missing = unsupported(core, 'prompts');
      if (missing) return missing;
      const got = await runMcpRequest(core, `prompts/get ${name}`, (requestOptions) => core.client.getPrompt({ name, ...(args === undefined ? {} : { arguments: args }) }, requestOptions), promptOptions);
      if (!got.ok) return got;
      const messages = got.value.messages.map((message) => ({ role: message.role, part: toContentParts([message.content])[0]! }));
      return got.value.description === undefined ? { ok: true, messages } : { ok: true, description: got.value.description, messages };
    },
    async complete(ref, argument, context) {
      const missing = unsupported(core, 'completions');
      if (missing) return missing;
      const completed = await runMcpRequest(core, 'completion/complete', (requestOptions) =>
        core.client.complete({ ref, argument, ...(context === undefined ? {} : { context: { arguments: context } }) }, requestOptions), {});
      if (!completed.ok) return completed;
      const { values, total, hasMore } = completed.value.completion;
      return { ok: true, values, ...(total === undefined ? {} : { total }), ...(hasMore === undefined ? {} : { hasMore }) };
    },
  };
}

/** `unsupported` while the connected server does not declare `feature`; nothing otherwise (a request then fails as not connected). */
function unsupported(core: FeatureRequestParts, feature: keyof McpServerFeatures): { ok: false; code: 'unsupported'; message: string } | undefined {
  return core.state.status === 'connected' && !core.features()[feature]
    ? { ok: false, code: 'unsupported', message: `MCP server "${core.config.name}" does not offer ${feature}` }
    : undefined;
}

/**
 * One list request of a feature, each item picked. The SDK follows every page (up to the client's `listMaxPages`)
 * and, with a 2026-07-28 server, serves a list again from its cache while the server's `ttlMs` holds.
 */
async function listEvery<Item, Picked>(
  core: FeatureRequestParts,
  list: {
    feature: keyof McpServerFeatures;
    what: string;
    all: (requestOptions: RequestOptions) => Promise<Item[]>;
    pick: (item: Item) => Picked;
  },
): Promise<McpListResult<Picked>> {
  const missing = unsupported(core, list.feature);
  if (missing) return missing;
  const listed = await runMcpRequest(core, list.what, (requestOptions) => list.all(requestOptions), {});
  return listed.ok ? { ok: true, items: listed.value.map(list.pick) } : listed;
}
