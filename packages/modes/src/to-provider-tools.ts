// Converters from model tools to the provider wire shapes (checked against the openai 6.x types and the
// Anthropic "define tools" docs):
//   OpenAI Chat Completions: { type: 'function', function: { name, description, parameters } }
//   OpenAI Responses:        { type: 'function', name, description, parameters, strict: false }
//   Anthropic Messages:      { name, description, input_schema }
// `renderSurface` already gives every tool a name that fits all three; a name that does not fit the
// target provider is a `ModesError` here rather than a 400 from the provider later.
import type { JsonSchema } from '@tool-search/catalog';
import { ModesError } from './errors.js';
import type { ModelTool, SurfaceFormat } from './types.js';

/** An OpenAI Chat Completions function tool. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

/** An OpenAI Responses function tool (`strict: false`: catalog schemas are not strict-mode schemas). */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: false;
}

/** An Anthropic Messages tool. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/** Any provider tool this package produces. */
export type ProviderTool = OpenAIChatTool | OpenAIResponsesTool | AnthropicTool;

/** Tool names OpenAI accepts. */
export const OPENAI_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** Tool names Anthropic accepts. */
export const ANTHROPIC_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;

function checkNames(tools: readonly ModelTool[], pattern: RegExp, provider: string): void {
  for (const tool of tools) {
    if (!pattern.test(tool.name)) {
      throw new ModesError(
        'invalid_tool_name',
        `tool name ${JSON.stringify(tool.name.slice(0, 140))} is not accepted by ${provider}; expected ${pattern.source}`,
        { toolIds: tool.id === undefined ? [] : [tool.id] },
      );
    }
  }
}

/** Converts to OpenAI Chat Completions `tools`. */
export function toOpenAIChatTools(tools: readonly ModelTool[]): OpenAIChatTool[] {
  checkNames(tools, OPENAI_TOOL_NAME_PATTERN, 'OpenAI');
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

/** Converts to OpenAI Responses `tools`. */
export function toOpenAIResponsesTools(tools: readonly ModelTool[]): OpenAIResponsesTool[] {
  checkNames(tools, OPENAI_TOOL_NAME_PATTERN, 'OpenAI');
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  }));
}

/** Converts to Anthropic Messages `tools`. */
export function toAnthropicTools(tools: readonly ModelTool[]): AnthropicTool[] {
  checkNames(tools, ANTHROPIC_TOOL_NAME_PATTERN, 'Anthropic');
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
}

/** Converts to the given provider format. */
export function toProviderTools(tools: readonly ModelTool[], format: 'openai-chat'): OpenAIChatTool[];
export function toProviderTools(tools: readonly ModelTool[], format: 'openai-responses'): OpenAIResponsesTool[];
export function toProviderTools(tools: readonly ModelTool[], format: 'anthropic'): AnthropicTool[];
export function toProviderTools(tools: readonly ModelTool[], format: SurfaceFormat): ProviderTool[];
export function toProviderTools(tools: readonly ModelTool[], format: SurfaceFormat): ProviderTool[] {
  switch (format) {
    case 'openai-chat':
      return toOpenAIChatTools(tools);
    case 'openai-responses':
      return toOpenAIResponsesTools(tools);
    case 'anthropic':
      return toAnthropicTools(tools);
    default:
      throw new ModesError('invalid_options', `unknown surface format ${JSON.stringify(format)}; expected openai-chat, openai-responses or anthropic`);
  }
}
