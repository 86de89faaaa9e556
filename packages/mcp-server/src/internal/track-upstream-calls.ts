// Which upstream servers one MCP tool call is talking to, for the relay: the session tells each call to an upstream
// server (its `onUpstreamCall`, code-mode runs' calls included) from its start to its end, and whether the session's
// policy admits the server is asked of the session's own policy view (`session.tool`), at the moment of the question.
import { parseToolId } from '@tool-search/catalog';
import type { ExecuteOptions, ToolSearchSession } from '@tool-search/gateway-adapter';
import type { RelayCall } from '../create-mcp-client-relay.js';

export interface UpstreamCalls extends Pick<RelayCall, 'talksTo' | 'admits'> {
  /** Pass as `session.execute`'s `onUpstreamCall`. */
  readonly onUpstreamCall: NonNullable<ExecuteOptions['onUpstreamCall']>;
}

/**
 * Tracks the upstream calls of one tool call of `session`; `onAbandoned` hears of each the gateway stopped waiting for
 * (cancelled, timed out) while the server may still be working on it (the relay's `abandoned`).
 */
export function trackUpstreamCalls(session: Pick<ToolSearchSession, 'tool'>, options: { onAbandoned?: ((server: string) => void) | undefined } = {}): UpstreamCalls {
  /** Tool ids being called now, by server (a tool called twice at once is listed twice). */
  const calling = new Map<string, string[]>();
  return {
    onUpstreamCall({ server, toolId }) {
      const ids = calling.get(server) ?? [];
      calling.set(server, [...ids, toolId]);
      let ended = false;
      return (end) => {
        if (ended) return;
        ended = true;
        if (end.abandoned) options.onAbandoned?.(server);
        const left = [...(calling.get(server) ?? [])];
        left.splice(left.indexOf(toolId), 1);
        if (left.length === 0) calling.delete(server);
        else calling.set(server, left);
      };
    },
    talksTo: (server) => calling.has(server),
    // The policy view holds (now) a tool of the server that this call is calling: a tool refused, withdrawn or gone
    // since the call began does not count, and a server none of whose tools the view holds is never admitted.
    admits: (server) => (calling.get(server) ?? []).some((id) => parseToolId(id)?.owner === server && session.tool(id) !== undefined),
  };
}
