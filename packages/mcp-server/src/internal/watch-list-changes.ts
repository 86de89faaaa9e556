// Which of its lists a client of one tool-search session sees change, after a change of the host's catalog. Both
// eras ask this one rule: the 2025 front sends the notifications on its session's stream, the 2026-07-28 front
// publishes them to its `subscriptions/listen` streams. It fails closed: the tool list is what the session's policy
// lets the client see, so a change that concerns only refused tools changes nothing here and is never told; likewise
// the resources and prompts follow only the servers whose resources and prompts the session may list, so a refused
// server's restart is told to nobody.
import type { ToolSearchHost, ToolSearchSession } from '@tool-search/gateway-adapter';
import type { UpstreamAdmission } from './create-session-upstream.js';
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/server';
import { toMcpTools } from './to-sdk-results.js';

/** A list an MCP client can be told has changed. */
export type ListKind = 'tools' | 'resources' | 'prompts';

/**
 * Names a list's new state the same on every replica that sees it (a digest of its entries, in any order), so a
 * change two replicas both saw is told once on a shared event bus. Computed only when asked.
 */
export type ListChangeId = () => string;

export interface ListChangeWatch {
  /** Compares the lists with what was last seen and reports each that changed; call on every catalog change. */
  check(): void;
  /** Notes the tool list a client was just given, so a later check compares with it. */
  listed(tools: readonly Tool[]): void;
}

/**
 * Watches `session` on `host`: `check` calls `changed` for the tools when the session's listed tools differ from the
 * last seen, and for resources (prompts) when the set of ready upstream servers whose resources (prompts) the
 * session may list differs (their lists can change only then). The first catalog check after the session's
 * start-up only takes the lists as they are then.
 */
export function watchListChanges(host: ToolSearchHost, session: ToolSearchSession, changed: (kind: ListKind, changeId: ListChangeId) => void, admission: UpstreamAdmission): ListChangeWatch {
  const tools = () => JSON.stringify(toMcpTools(session.modelSurface(), (id) => session.tool(id)));
  let listedTools = tools();
  const signatures = () => ({ resources: readySignature(host, admission.resources), prompts: readySignature(host, admission.prompts) });
  let seen = signatures();
  // A session opened early follows the catalog only from the end of the start-up: what came up before is the
  // starting point, as a client listing then would see it.
  void session.whenStarted().then(() => {
    seen = signatures();
  });
  return {
    check() {
      const now = tools();
      if (now !== listedTools) {
        listedTools = now;
        changed('tools', () => listChangeId('tools', (JSON.parse(now) as unknown[]).map((tool) => JSON.stringify(tool))));
      }
      const current = signatures();
      const was = seen;
      seen = current;
      if (current.resources !== was.resources) changed('resources', () => listChangeId('resources', current.resources.split('\n')));
      if (current.prompts !== was.prompts) changed('prompts', () => listChangeId('prompts', current.prompts.split('\n')));
    },
    listed(current) {
      listedTools = JSON.stringify(current);
    },
  };
}

/** A digest of `kind` and `entries` that does not depend on their order (replicas may list in different orders). */
function listChangeId(kind: ListKind, entries: readonly string[]): string {
  const hash = createHash('sha256').update(kind);
  for (const entry of [...entries].sort()) hash.update('\n').update(entry);
  return hash.digest('base64url');
}

/** Which upstream servers the session may list are ready: their resources (or prompts) can change only when this does. */
function readySignature(host: ToolSearchHost, admitted: (server: string) => boolean): string {
  return host
    .mcpServers()
    .filter((server) => server.state === 'ready' && admitted(server.name))
    .map((server) => server.name)
    .join('\n');
}
