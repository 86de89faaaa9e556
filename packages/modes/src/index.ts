/**
 * @tool-search/modes: the public contract. Adding an export here makes it public API.
 */
export {
  CONTROL_TOOL_NAMES,
  MAX_SEARCH_QUERIES,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
  TOOL_SEARCH_CODE,
} from './control-tools.js';
export { isModesError, ModesError } from './errors.js';
export type { ModesErrorCode } from './errors.js';
export { measureSurface } from './measure-surface.js';
export { DEFAULT_CODE_TIMEOUT_MS, renderSurface } from './render-surface.js';
export {
  renderSurfaceOptionsSchema,
  toolCallArgsSchema,
  toolDescribeArgsSchema,
  toolSearchArgsSchema,
  toolSearchCodeArgsSchema,
} from './schemas.js';
export type { ToolCallArgs, ToolDescribeArgs, ToolSearchArgs, ToolSearchCodeArgs } from './schemas.js';
export {
  ANTHROPIC_TOOL_NAME_PATTERN,
  OPENAI_TOOL_NAME_PATTERN,
  toAnthropicTools,
  toOpenAIChatTools,
  toOpenAIResponsesTools,
  toProviderTools,
} from './to-provider-tools.js';
export type { AnthropicTool, OpenAIChatTool, OpenAIResponsesTool, ProviderTool } from './to-provider-tools.js';
export type {
  DirectoryOptions,
  Mode,
  ModelTool,
  RenderSurfaceOptions,
  Surface,
  SurfaceFormat,
  SurfaceLimits,
  SurfaceMeasure,
} from './types.js';
