// toolSearchFor: the Agents SDK's own deferral (`deferLoading` and a client `tool_search`) with the session's search
// (its policy view of the catalog, its limits) as the ranking.
import { toolSearchTool, type Tool } from '@openai/agents';
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { buildNativeSearchTool, DEFAULT_CODE_TIMEOUT_MS } from '@tool-search/modes';
import { OpenAIAgentsError } from './errors.js';
import { sessionFunctionTools } from './internal/session-function-tools.js';
import { createSearchExecutor } from './internal/search-executor.js';
import type { AgentToolsOptions } from './tool-search-tools.js';

/**
 * Tools for `new Agent({ tools })` that defer every allowed catalog tool (`deferLoading: true`) behind a client
 * `tool_search` (`toolSearchTool({ execution: 'client' })`) whose executor runs `session.search`: the model first
 * sees the search, pinned and client tools; a search loads the best allowed matches. The search tool's arguments
 * and text are native mode's (`buildNativeSearchTool`). Needs a `direct` session (every allowed tool declared, e.g.
 * config `{ native: true }`): any other mode throws `OpenAIAgentsError('wrong_mode')`.
 */
export function toolSearchFor(session: ToolSearchSession, options: AgentToolsOptions = {}): Tool[] {
  const surface = options.surface ?? session.modelSurface();
  if (surface.mode !== 'direct') {
    throw new OpenAIAgentsError(
      'wrong_mode',
      `toolSearchFor needs a session in direct mode (every allowed tool declared, e.g. config { native: true }), received a ${surface.mode} mode session`,
    );
  }
  const search = buildNativeSearchTool({ ...session.searchLimits, codeTimeoutMs: DEFAULT_CODE_TIMEOUT_MS }, 'openai-client');
  const deferred = (tool: { kind: string }) => tool.kind === 'catalog';
  const functionTools = sessionFunctionTools(session, surface, { onClientCall: options.onClientCall, deferred });
  const deferredById = new Map(functionTools.flatMap(({ modelTool, functionTool }) => (deferred(modelTool) && modelTool.id !== undefined ? [[modelTool.id, functionTool] as const] : [])));
  return [
    toolSearchTool({ execution: 'client', description: search.description, parameters: search.inputSchema, execute: createSearchExecutor(session, deferredById) }),
    ...functionTools.map((entry) => entry.functionTool),
  ];
}
