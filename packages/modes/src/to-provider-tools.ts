// Converters from model tools to the provider wire shapes. The shapes are our own structural types (this
// package has no runtime dependency on a provider SDK); type-level tests check every one of them against
// the SDKs' request types (openai 6.x, @anthropic-ai/sdk 1.x):
//   OpenAI Chat Completions: { type: 'function', function: { name, description, parameters } }
//   OpenAI Responses:        { type: 'function', name, description, parameters, strict: false, defer_loading? },
//                            { type: 'namespace', name, description, tools } and { type: 'tool_search', execution: 'client', ... }
//   Anthropic Messages:      { name, description, input_schema, defer_loading? } and the server search tools
// `renderSurface` already gives every tool a name that fits all three; a name that does not fit the
// target provider is a `ModesError` here rather than a 400 from the provider later. So is a native-mode
// tool handed to a format it was not rendered for.
import { ANTHROPIC_SERVER_SEARCH_TOOL_NAMES } from './control-tools.js';
import { ModesError } from './errors.js';
import type { ModelTool, NativeSearchTool, ObjectJsonSchema, SurfaceFormat, ToolNamespace } from './types.js';

/** An OpenAI Chat Completions function tool. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: ObjectJsonSchema };
}

/** An OpenAI Responses function tool (`strict: false`: catalog schemas are not strict-mode schemas). */
export interface OpenAIResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: ObjectJsonSchema;
  strict: false;
  /** Native mode: loaded only through tool search. */
  defer_loading?: true;
}

/** An OpenAI Responses namespace: the deferred tools of one owner, shown to the model by name and description. */
export interface OpenAIResponsesNamespaceTool {
  type: 'namespace';
  name: string;
  description: string;
  tools: OpenAIResponsesFunctionTool[];
}

/** OpenAI Responses' tool search, executed by the client: the model's `tool_search_call` items come back to the adapter. */
export interface OpenAIResponsesToolSearchTool {
  type: 'tool_search';
  execution: 'client';
  description: string;
  parameters: ObjectJsonSchema;
}

/** Any OpenAI Responses tool this package produces. */
export type OpenAIResponsesTool = OpenAIResponsesFunctionTool | OpenAIResponsesNamespaceTool | OpenAIResponsesToolSearchTool;

/** An Anthropic Messages custom (client) tool. */
export interface AnthropicCustomTool {
  name: string;
  description: string;
  input_schema: ObjectJsonSchema;
  /** Native mode: loaded only when a search returns a `tool_reference` to it. */
  defer_loading?: true;
}

/** Anthropic's server-side tool search tools (native mode with `anthropicSearch: 'bm25' | 'regex'`). */
export type AnthropicToolSearchTool =
  | { type: 'tool_search_tool_bm25_20251119'; name: 'tool_search_tool_bm25' }
  | { type: 'tool_search_tool_regex_20251119'; name: 'tool_search_tool_regex' };

/** Any Anthropic Messages tool this package produces. */
export type AnthropicTool = AnthropicCustomTool | AnthropicToolSearchTool;

/** Any provider tool this package produces. */
export type ProviderTool = OpenAIChatTool | OpenAIResponsesTool | AnthropicTool;

/** The exact tools array of each format. */
export interface ProviderToolsByFormat {
  'openai-chat': OpenAIChatTool[];
  'openai-responses': OpenAIResponsesTool[];
  anthropic: AnthropicTool[];
}

/** The tools array `toProviderTools(tools, format)` returns for `format` (a union of arrays for a union of formats). */
export type ProviderToolsFor<F extends SurfaceFormat> = ProviderToolsByFormat[F];

/**
 * The most tools a provider documents for one request, where it documents one: OpenAI's API reference (and the
 * `openai` SDK's types) say "a max of 128 functions are supported"; Anthropic documents no count.
 */
export const PROVIDER_MAX_TOOLS: Readonly<Record<SurfaceFormat, number | undefined>> = Object.freeze({
  'openai-chat': 128,
  'openai-responses': 128,
  anthropic: undefined,
});

/** Tool names OpenAI accepts. */
export const OPENAI_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** Tool names Anthropic accepts. */
export const ANTHROPIC_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;

/** The one format each native search tool exists in. */
const NATIVE_SEARCH_FORMATS: Record<NativeSearchTool, SurfaceFormat> = {
  'openai-client': 'openai-responses',
  'anthropic-client': 'anthropic',
  'anthropic-bm25': 'anthropic',
  'anthropic-regex': 'anthropic',
  'chat-client': 'openai-chat',
};

const ANTHROPIC_SERVER_SEARCH_TOOLS = {
  'anthropic-bm25': { type: 'tool_search_tool_bm25_20251119', name: ANTHROPIC_SERVER_SEARCH_TOOL_NAMES['anthropic-bm25'] },
  'anthropic-regex': { type: 'tool_search_tool_regex_20251119', name: ANTHROPIC_SERVER_SEARCH_TOOL_NAMES['anthropic-regex'] },
} as const satisfies Record<string, AnthropicToolSearchTool>;

function checkName(name: string, pattern: RegExp, provider: string, toolIds: readonly string[]): void {
  if (!pattern.test(name)) {
    throw new ModesError('invalid_tool_name', `tool name ${JSON.stringify(name.slice(0, 140))} is not accepted by ${provider}; expected ${pattern.source}`, {
      toolIds,
    });
  }
}

function checkTools(tools: readonly ModelTool[], format: SurfaceFormat, pattern: RegExp, provider: string): void {
  for (const tool of tools) {
    const toolIds = tool.id === undefined ? [] : [tool.id];
    const onlyFormat = tool.nativeSearch === undefined ? undefined : NATIVE_SEARCH_FORMATS[tool.nativeSearch];
    if (onlyFormat !== undefined && onlyFormat !== format) {
      throw new ModesError('format_mismatch', `tool ${JSON.stringify(tool.name)} is the ${onlyFormat} native search tool; render the native surface for ${format} instead`, {
        toolIds,
      });
    }
    if (tool.deferred === true && format === 'openai-chat') {
      throw new ModesError('format_mismatch', `tool ${JSON.stringify(tool.name)} is deferred (native mode), which openai-chat cannot declare; render the surface for openai-chat instead (with chatLoading, declare withLoadedTools(surface, loadedIds))`, {
        toolIds,
      });
    }
    checkName(tool.name, pattern, provider, toolIds);
    if (tool.namespace !== undefined && format === 'openai-responses') checkName(tool.namespace.name, pattern, provider, toolIds);
  }
}

/** Converts to OpenAI Chat Completions `tools`. */
export function toOpenAIChatTools(tools: readonly ModelTool[]): OpenAIChatTool[] {
  checkTools(tools, 'openai-chat', OPENAI_TOOL_NAME_PATTERN, 'OpenAI');
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

/** One model tool as an OpenAI Responses function (also what a tool search output loads). */
export function toOpenAIResponsesFunctionTool(tool: ModelTool): OpenAIResponsesFunctionTool {
  const base: OpenAIResponsesFunctionTool = { type: 'function', name: tool.name, description: tool.description, parameters: tool.inputSchema, strict: false };
  return tool.deferred === true ? { ...base, defer_loading: true } : base;
}

/**
 * Groups functions into their namespaces, each namespace at the place of its first member, members in
 * order. Used for the request's `tools` and for a tool search output, so both declare a tool the same way.
 */
export function groupIntoNamespaces(tools: readonly ModelTool[]): Array<OpenAIResponsesFunctionTool | OpenAIResponsesNamespaceTool> {
  const grouped: Array<OpenAIResponsesFunctionTool | OpenAIResponsesNamespaceTool> = [];
  const namespaces = new Map<string, OpenAIResponsesNamespaceTool>();
  for (const tool of tools) {
    const definition = toOpenAIResponsesFunctionTool(tool);
    const namespace: ToolNamespace | undefined = tool.namespace;
    if (namespace === undefined) {
      grouped.push(definition);
      continue;
    }
    let group = namespaces.get(namespace.name);
    if (group === undefined) {
      group = { type: 'namespace', name: namespace.name, description: namespace.description, tools: [] };
      namespaces.set(namespace.name, group);
      grouped.push(group);
    }
    group.tools.push(definition);
  }
  return grouped;
}

/** Converts to OpenAI Responses `tools` (native mode: namespaces of deferred functions and a client-executed `tool_search`). */
export function toOpenAIResponsesTools(tools: readonly ModelTool[]): OpenAIResponsesTool[] {
  checkTools(tools, 'openai-responses', OPENAI_TOOL_NAME_PATTERN, 'OpenAI');
  const searchTools: OpenAIResponsesToolSearchTool[] = tools
    .filter((tool) => tool.nativeSearch === 'openai-client')
    .map((tool) => ({ type: 'tool_search', execution: 'client', description: tool.description, parameters: tool.inputSchema }));
  // The search tool is rendered where it stands (first); the rest keep their order, grouped by namespace.
  const rest = groupIntoNamespaces(tools.filter((tool) => tool.nativeSearch !== 'openai-client'));
  return [...searchTools, ...rest];
}

/** One model tool as an Anthropic custom tool. */
function toAnthropicCustomTool(tool: ModelTool): AnthropicCustomTool {
  const base: AnthropicCustomTool = { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
  return tool.deferred === true ? { ...base, defer_loading: true } : base;
}

/** Converts to Anthropic Messages `tools` (native mode: deferred tools and a search tool, ours or Anthropic's). */
export function toAnthropicTools(tools: readonly ModelTool[]): AnthropicTool[] {
  checkTools(tools, 'anthropic', ANTHROPIC_TOOL_NAME_PATTERN, 'Anthropic');
  return tools.map((tool): AnthropicTool =>
    tool.nativeSearch === 'anthropic-bm25' || tool.nativeSearch === 'anthropic-regex'
      ? { ...ANTHROPIC_SERVER_SEARCH_TOOLS[tool.nativeSearch] }
      : toAnthropicCustomTool(tool),
  );
}

const CONVERTERS: { [F in SurfaceFormat]: (tools: readonly ModelTool[]) => ProviderToolsFor<F> } = {
  'openai-chat': toOpenAIChatTools,
  'openai-responses': toOpenAIResponsesTools,
  anthropic: toAnthropicTools,
};

/** Converts to the given provider format; the result has that format's exact type (`ProviderToolsFor<F>`). */
export function toProviderTools<F extends SurfaceFormat>(tools: readonly ModelTool[], format: F): ProviderToolsFor<F> {
  const convert = Object.hasOwn(CONVERTERS, format) ? CONVERTERS[format] : undefined;
  if (convert === undefined) {
    throw new ModesError('invalid_options', `unknown surface format ${JSON.stringify(format)}; expected openai-chat, openai-responses or anthropic`);
  }
  return convert(tools);
}
