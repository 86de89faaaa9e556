/**
 * @tool-search/modes: the public contract. Adding an export here makes it public API.
 */

export {
  buildNativeSearchTool,
  CONTROL_TOOL_NAMES,
  isControlToolName,
  SERVERS_OFFSET_ARG,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
  TOOL_SEARCH_CODE,
} from './control-tools.js';
export type { ControlToolName } from './control-tools.js';
export { isModesError, ModesError } from './errors.js';
export type { ModesErrorCode } from './errors.js';
export { measureSurface } from './measure-surface.js';
export { MODES, SEARCH_MODES } from './modes.js';
export { parseAnthropicToolSearchUse, parseOpenAIToolSearchCall } from './parse-native-search-call.js';
export type { NativeSearchCall } from './parse-native-search-call.js';
export { renderAnthropicToolResult } from './render-anthropic-tool-result.js';
export type {
  AnthropicImageMediaType,
  AnthropicToolResultBlock,
  AnthropicToolResultContentBlock,
} from './render-anthropic-tool-result.js';
export { renderAnthropicToolSearchResult, renderChatToolSearchAnswer, renderOpenAIToolSearchOutput, withLoadedTools } from './render-native-search-answer.js';
export type {
  AnthropicToolReferenceBlock,
  AnthropicToolSearchResultBlock,
  NativeSearchAnswer,
  NativeSearchAnswerOptions,
  NativeSearchHit,
  OpenAIToolSearchAnswer,
  OpenAIToolSearchFollowUp,
  OpenAIToolSearchOutputItem,
} from './render-native-search-answer.js';
export {
  renderCodeRunAnswer,
  renderCodeSearchAnswer,
  renderNoServerMatchNote,
  renderSearchAnswer,
  renderServerSearchAnswer,
  renderWeakAnswer,
  renderWeakNote,
  SERVER_MAP_PAGE_BYTES,
  WEAK_ANSWER_BYTES,
  WEAK_GUESSES,
} from './render-search-answer.js';
export type {
  AnsweredSearch,
  AnswerRoute,
  CodeWeakSearchAnswer,
  ServerMapPage,
  ServerMapPager,
  ServerMapRequest,
  ServerSearchAnswer,
  WeakGuess,
  WeakSearchAnswer,
} from './render-search-answer.js';
export { renderArgsProblem, renderBlockedAnswer, renderErrorAnswer, renderErrorText, renderNativeSearchError } from './render-error-text.js';
export type { ArgsProblem, CodeBridgeCall, ErrorAnswer, ModelError } from './render-error-text.js';
export { renderContentPartsText, renderUntrustedResult } from './render-tool-result-text.js';
export type { UntrustedResult } from './render-tool-result-text.js';
export { renderOpenAIChatToolResult } from './render-openai-chat-tool-result.js';
export type {
  OpenAIChatToolMessage,
  OpenAIChatUserContentPart,
  OpenAIChatUserMessage,
  RenderedOpenAIChatToolResult,
} from './render-openai-chat-tool-result.js';
export { renderOpenAIResponsesToolResult } from './render-openai-responses-tool-result.js';
export type {
  OpenAIFunctionCallOutputContent,
  OpenAIFunctionCallOutputItem,
  RenderedProviderToolResult,
  RenderToolResultOptions,
} from './render-openai-responses-tool-result.js';
export { DEFAULT_CODE_TIMEOUT_MS, NATIVE_CHAT_FALLBACK_REASON, renderSurface } from './render-surface.js';
export {
  toolCallArgsSchema,
  toolDescribeArgsSchema,
  toolSearchArgsSchema,
  toolSearchCodeArgsSchema,
} from './schemas.js';
export type { NativeSearchArgs, ToolSearchArgs } from './schemas.js';
export { toProviderToolResult } from './to-provider-tool-result.js';
export type { ProviderToolResultByFormat, ProviderToolResultFor } from './to-provider-tool-result.js';
export {
  PROVIDER_MAX_TOOLS,
  toAnthropicTools,
  toOpenAIChatTools,
  toOpenAIResponsesTools,
  toProviderTools,
} from './to-provider-tools.js';
export type {
  AnthropicCustomTool,
  AnthropicTool,
  AnthropicToolSearchTool,
  OpenAIChatTool,
  OpenAIResponsesFunctionTool,
  OpenAIResponsesNamespaceTool,
  OpenAIResponsesTool,
  OpenAIResponsesToolSearchTool,
  ProviderToolsByFormat,
  ProviderToolsFor,
} from './to-provider-tools.js';
export type {
  AnthropicNativeSearch,
  ContentPart,
  DirectoryOptions,
  DroppedContentPart,
  MediaLimits,
  Mode,
  ModelTool,
  ModelToolKind,
  NativeOptions,
  NativeSearchTool,
  ObjectJsonSchema,
  RenderSurfaceOptions,
  Surface,
  SurfaceFormat,
  SurfaceLimits,
  SurfaceMeasure,
  ToolNamespace,
  ToolResultParts,
} from './types.js';
