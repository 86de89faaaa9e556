// Which of its lists a client of one tool-search session sees change, after a change of the host's catalog. Both
// eras ask this one rule: the 2025 front sends the notifications on its session's stream, the 2026-07-28 front
// publishes them to its `subscriptions/listen` streams. It fails closed: the tool list is what the session's policy
// lets the client see, so a change that concerns only refused tools changes nothing here and is never told.
import type { ToolSearchHost, ToolSearchSession } from '@tool-search/gateway-adapter';
import { toMcpTools, type McpListedTool } from './to-mcp-tools.js';

/** A list an MCP client can be told has changed. */
export type ListKind = 'tools' | 'resources' | 'prompts';

export interface ListChangeWatch {
  /** Compares the lists with what was last seen and reports each that changed; call on every catalog change. */
  check(): void;
  /** Notes the tool list a client was just given, so a later check compares with it. */
  listed(tools: readonly McpListedTool[]): void;
}

/**
 * Watches `session` on `host`: `check` calls `changed` for the tools when the session's listed tools differ from the
 * last seen, and for resources and prompts when the set of ready upstream servers differs (their lists can change
 * only then). The first catalog check after the session's start-up only takes the lists as they are then.
 */
export function watchListChanges(host: ToolSearchHost, session: ToolSearchSession, changed: (kind: ListKind) => void): ListChangeWatch {
  const tools = () => JSON.stringify(toMcpTools(session.modelSurface(), (id) => session.tool(id)));
  let listedTools = tools();
  let readyServers = readySignature(host);
  // A session opened early follows the catalog only from the end of the start-up: what came up before is the
  // starting point, as a client listing then would see it.
  void session.whenStarted().then(() => {
    readyServers = readySignature(host);
  });
  return {
    check() {
      const now = tools();
      if (now !== listedTools) {
        listedTools = now;
        changed('tools');
      }
      const ready = readySignature(host);
      if (ready !== readyServers) {
        readyServers = ready;
        changed('resources');
        changed('prompts');
      }
    },
    listed(current) {
      listedTools = JSON.stringify(current);
    },
  };
}

/** Which upstream servers are ready: resources and prompts can change only when this does. */
function readySignature(host: ToolSearchHost): string {
  return host
    .mcpServers()
    .filter((server) => server.state === 'ready')
    .map((server) => server.name)
    .join('\n');
}
