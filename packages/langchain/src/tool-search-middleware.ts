// toolSearchMiddleware: a session's surface in front of a LangChain.js agent's model on every model call, and every
// tool call of the agent run through the session (policy, owner gate, hooks, approvals, validation, telemetry).
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import { declaredTools } from './internal/declared-tools.js';
import { runToolCall } from './internal/run-tool-call.js';
import { withToolReferences } from './internal/tool-references.js';

/** Options of `toolSearchMiddleware`. */
export interface ToolSearchMiddlewareOptions {
  /** The middleware's name in the agent's graph and traces. Default: `ToolSearch`. */
  name?: string;
}

/**
 * Agent middleware for `createAgent({ middleware })`. On each model call it declares the session's surface as it
 * stands (code mode: `tool_search_code`; tools and directory mode: `tool_search`, `tool_describe`, `tool_call`;
 * direct: every allowed tool; native: Anthropic `defer_loading` with the session's `tool_search`), appends the
 * surface's instructions to the system message, and keeps the agent's own tools the session declares as client
 * tools (`toClientTools`); every other tool of the agent is hidden. Every tool call goes through
 * `session.execute`: an allowed client tool runs as the agent's tool with the arguments the session authorised;
 * anything else is answered by the session (a denied or unknown tool exactly alike).
 */
export function toolSearchMiddleware(session: ToolSearchSession, options: ToolSearchMiddlewareOptions = {}): AgentMiddleware {
  const native = session.decision.mode === 'native';
  // The native search's name as the last model call declared it (a tool call always follows a model call).
  let nativeSearchName: string | undefined;
  return createMiddleware({
    name: options.name ?? 'ToolSearch',
    wrapModelCall: (request, handler) => {
      const declared = declaredTools(session, request.tools, request.model);
      nativeSearchName = declared.nativeSearchName;
      return handler({
        ...request,
        tools: declared.tools,
        systemMessage: declared.instructions === '' ? request.systemMessage : request.systemMessage.concat(declared.instructions),
        ...(native ? { messages: withToolReferences(request.messages) } : {}),
      });
    },
    wrapToolCall: (request, handler) => runToolCall(session, request, handler, nativeSearchName),
  });
}
