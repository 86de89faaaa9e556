// The session's search as the Agents SDK's client tool-search executor.
import type { ClientToolSearchExecutor, Tool } from '@openai/agents';
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { parseOpenAIToolSearchCall } from '@tool-search/modes';

/**
 * A `ClientToolSearchExecutor` for `toolSearchTool({ execution: 'client', execute })`: it reads the model's
 * `tool_search` arguments (`{ query, limit? }` or `{ queries }`, as native mode declares them), runs each query
 * through `session.search` (the session's policy view and limits; counted and logged with the call id) and returns
 * the agent's deferred tools the hits name (`deferredById`), best first, each once. Arguments it cannot read load
 * nothing.
 */
export function createSearchExecutor(session: ToolSearchSession, deferredById: ReadonlyMap<string, Tool>): ClientToolSearchExecutor {
  return ({ toolCall, availableTools }) => {
    const callId = toolCall.callId ?? toolCall.call_id ?? toolCall.id ?? '';
    const call = parseOpenAIToolSearchCall({ ...toolCall, call_id: callId });
    if (!call.ok) return [];
    const available = new Set(availableTools);
    const loaded = new Set<Tool>();
    for (const query of call.queries) {
      for (const hit of session.search(query.query, { limit: query.limit, toolCallId: callId })) {
        const tool = deferredById.get(hit.id);
        if (tool !== undefined && available.has(tool)) loaded.add(tool);
      }
    }
    return [...loaded];
  };
}
