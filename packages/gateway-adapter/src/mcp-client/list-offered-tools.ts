import type { McpToolDefinition, McpWithheldTool } from './mcp-server-connection.js';
import { admitListedTools } from './admit-listed-tools.js';
import { listAllPages } from './list-all-pages.js';
import type { McpConnectionCore } from './mcp-connection-core.js';

/** The tools a server lists, split into offered and withheld. */
export interface OfferedTools {
  offered: Map<string, McpToolDefinition>;
  withheld: McpWithheldTool[];
}

/** The parts of a connection a listing needs. */
export type ToolListingParts = Pick<McpConnectionCore, 'config' | 'options' | 'state' | 'client' | 'requestTimeoutMs' | 'filter' | 'features'>;

/** Lists every page of `tools/list` (the start's listing can be aborted by `options.signal`) and admits what can be offered. */
export async function listOfferedTools(core: ToolListingParts): Promise<OfferedTools> {
  // A server that offers only resources or prompts has no tools to list.
  if (!core.features().tools) return { offered: new Map<string, McpToolDefinition>(), withheld: [] };
  const { config, options, state } = core;
  const tools = await listAllPages(async (cursor) => {
    const page = await core.client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, {
      timeout: core.requestTimeoutMs,
      ...(state.started || options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { items: page.tools, nextCursor: page.nextCursor };
  });
  return admitListedTools(tools, { server: config.name, filter: core.filter, tasksSupported: core.features().toolTasks });
}
