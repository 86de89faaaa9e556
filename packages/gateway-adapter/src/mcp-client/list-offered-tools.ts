import type { McpToolDefinition, McpWithheldTool } from './mcp-server-connection.js';
import { admitListedTools } from './admit-listed-tools.js';
import type { McpConnectionCore } from './mcp-connection-core.js';

/** Pages the SDK follows at most for one list (a server that keeps handing out new cursors cannot loop us forever). */
export const MAX_LIST_PAGES = 200;

/** The tools a server lists, split into offered and withheld. */
export interface OfferedTools {
  offered: Map<string, McpToolDefinition>;
  withheld: McpWithheldTool[];
}

/** The parts of a connection a listing needs. */
export type ToolListingParts = Pick<McpConnectionCore, 'config' | 'options' | 'state' | 'client' | 'requestTimeoutMs' | 'filter' | 'features'>;

/**
 * Lists every page of `tools/list` (the SDK follows the cursors, up to the client's `listMaxPages`; the start's
 * listing can be aborted by `options.signal`) and admits what can be offered. `refresh` skips the SDK's response
 * cache (a `list_changed` says the cached list is stale); otherwise a 2026-07-28 server's `ttlMs` is honoured.
 */
export async function listOfferedTools(core: ToolListingParts, options: { refresh?: boolean } = {}): Promise<OfferedTools> {
  // A server that offers only resources or prompts has no tools to list.
  if (!core.features().tools) return { offered: new Map<string, McpToolDefinition>(), withheld: [] };
  const { config, state } = core;
  const startSignal = core.options.signal;
  const { tools } = await core.client.listTools(undefined, {
    timeout: core.requestTimeoutMs,
    ...(state.started || startSignal === undefined ? {} : { signal: startSignal }),
    ...(options.refresh === true ? { cacheMode: 'refresh' as const } : {}),
  });
  return admitListedTools(tools, { server: config.name, filter: core.filter, tasksSupported: core.features().toolTasks });
}
