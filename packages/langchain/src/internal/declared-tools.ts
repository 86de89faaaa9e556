// What the model is offered on one model call: the session's surface as it stands, plus the agent's own tools the
// session declares as client tools. Every other tool of the agent is left out.
import type { ModelSurface, ToolSearchSession } from '@tool-search/gateway-adapter';
import type { ModelRequest } from 'langchain';
import { LangChainAdapterError } from '../errors.js';

/** A tool of a LangChain model request (the agent's runnable tools, provider server tools, tool definitions). */
export type RequestTool = ModelRequest['tools'][number];

/** A tool definition in the OpenAI function shape, which every LangChain provider package binds. */
export interface FunctionToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The tools and instructions to hand the model. */
export interface DeclaredTools {
  tools: RequestTool[];
  instructions: string;
  /** Native mode with our search: the name of the `tool_search` the model calls (answered by the session). */
  nativeSearchName?: string;
}

/** The name of a runnable tool of the agent (one the agent's ToolNode runs), if `tool` is one. */
export function agentToolName(tool: RequestTool): string | undefined {
  const candidate = tool as { name?: unknown; invoke?: unknown };
  return typeof candidate.invoke === 'function' && typeof candidate.name === 'string' ? candidate.name : undefined;
}

function modelName(model: unknown): string {
  const getName = (model as { getName?: unknown } | undefined)?.getName;
  return typeof getName === 'function' ? String((getName as () => unknown).call(model)) : typeof model;
}

/** A ChatAnthropic, or a configurable model (`initChatModel`) whose provider is Anthropic. */
function isAnthropicModel(model: unknown): boolean {
  const name = modelName(model);
  if (name === 'ChatAnthropic') return true;
  return name === 'ConfigurableModel' && (model as { _defaultConfig?: { modelProvider?: unknown } })._defaultConfig?.modelProvider === 'anthropic';
}

/**
 * The request's tools for this model call. Throws `missing_client_tool` when the session declares a client tool no
 * agent tool runs, `unsupported_format` in native mode with a model that is not Anthropic's, and `name_collision` when an agent tool has the name of a session tool that is not a client tool.
 */
export function declaredTools(session: ToolSearchSession, requestTools: readonly RequestTool[], model: unknown): DeclaredTools {
  const surface: ModelSurface = session.modelSurface();
  if (surface.mode === 'native' && !isAnthropicModel(model)) {
    throw new LangChainAdapterError(
      'unsupported_format',
      `Native mode needs an Anthropic chat model (ChatAnthropic of @langchain/anthropic), received ${modelName(model)}; open the session in code, tools, directory or direct mode for other models`,
    );
  }
  const agentTools = new Map<string, RequestTool>();
  const serverTools: RequestTool[] = [];
  for (const tool of requestTools) {
    const name = agentToolName(tool);
    if (name === undefined) serverTools.push(tool);
    else agentTools.set(name, tool);
  }
  for (const tool of surface.tools) {
    const agentTool = agentTools.get(tool.name);
    if (tool.kind === 'client' && agentTool === undefined) {
      throw new LangChainAdapterError(
        'missing_client_tool',
        `The session declares the client tool "${tool.name}" and the agent has no tool of that name to run it; pass it to createAgent({ tools })`,
      );
    }
    if (tool.kind !== 'client' && agentTool !== undefined) {
      throw new LangChainAdapterError(
        'name_collision',
        `The agent's tool "${tool.name}" has the name of the session's ${tool.kind} tool "${tool.name}"; declare it to the session as a client tool (toClientTools) or rename it`,
      );
    }
  }
  const isClient = new Set(surface.tools.filter((tool) => tool.kind === 'client').map((tool) => tool.name));
  if (surface.mode === 'native') {
    // Native mode: the Anthropic shapes as they are (`defer_loading`, a server search tool); @langchain/anthropic
    // binds an Anthropic tool object unchanged.
    const rendered = session.surface('anthropic');
    const tools = rendered.tools.map((tool) => (isClient.has(tool.name) ? (agentTools.get(tool.name) as RequestTool) : (tool as unknown as RequestTool)));
    // Our search is a custom tool of the surface's search name; Anthropic's own (bm25, regex) is a typed server tool.
    const search = surface.tools.find((tool) => tool.kind === 'control' && tool.nativeSearch !== undefined);
    const ours = search === undefined ? undefined : rendered.tools.find((tool) => tool.name === search.name && !('type' in tool));
    return { tools: [...tools, ...serverTools], instructions: rendered.instructions, ...(ours === undefined ? {} : { nativeSearchName: ours.name }) };
  }
  const tools = surface.tools.map((tool): RequestTool => {
    if (isClient.has(tool.name)) return agentTools.get(tool.name) as RequestTool;
    const definition: FunctionToolDefinition = {
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema as unknown as Record<string, unknown> },
    };
    return definition as unknown as RequestTool;
  });
  return { tools: [...tools, ...serverTools], instructions: surface.instructions };
}
