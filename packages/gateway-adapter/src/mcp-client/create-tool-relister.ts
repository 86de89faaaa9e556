import { diffToolLists } from './diff-tool-lists.js';
import { listOfferedTools, type ToolListingParts } from './list-offered-tools.js';
import type { McpConnectionCore } from './mcp-connection-core.js';
import { errorText } from './read-mcp-error.js';

/** The parts of a connection a re-list needs. */
export type RelistParts = ToolListingParts & Pick<McpConnectionCore, 'log' | 'redact'>;

/**
 * The re-list of one connection after `notifications/tools/list_changed`. Re-lists are serialised: a burst of
 * notifications yields one consistent diff each.
 */
export function createToolRelister(core: RelistParts): () => Promise<void> {
  let refreshing: Promise<void> = Promise.resolve();
  return () => {
    refreshing = refreshing.then(() => relistOnce(core));
    return refreshing;
  };
}

async function relistOnce(core: RelistParts): Promise<void> {
  const { state } = core;
  // Before the first full list, that list is what counts; after a close there is nothing to update.
  if (!state.started || state.status !== 'connected') return;
  try {
    const next = await listOfferedTools(core, { refresh: true });
    const { added, removed } = diffToolLists(state.tools, next.offered);
    if (state.status !== 'connected') return;
    state.tools = next.offered;
    state.withheld = next.withheld;
    core.log.info({ added: added.length, removed: removed.length }, 'mcp tool list changed');
    if (added.length > 0 || removed.length > 0) core.options.onToolsChanged?.({ added, removed });
  } catch (error) {
    core.log.warn({ err: core.redact(errorText(error)) }, 'mcp re-list failed');
  }
}
