// toProviderToolResult: the tool result renderer of a format, chosen by table, with the exact result type
// of that format (`ProviderToolResultFor<F>`), as `toProviderTools` does for the tools.
import { ModesError } from './errors.js';
import { renderAnthropicToolResult, type AnthropicToolResultBlock } from './render-anthropic-tool-result.js';
import { renderOpenAIChatToolResult, type RenderedOpenAIChatToolResult } from './render-openai-chat-tool-result.js';
import {
  renderOpenAIResponsesToolResult,
  type OpenAIFunctionCallOutputItem,
  type RenderedProviderToolResult,
  type RenderToolResultOptions,
} from './render-openai-responses-tool-result.js';
import type { SurfaceFormat, ToolResultParts } from './types.js';

/** The rendered result of each format. */
export interface ProviderToolResultByFormat {
  'openai-chat': RenderedOpenAIChatToolResult;
  'openai-responses': RenderedProviderToolResult<OpenAIFunctionCallOutputItem>;
  anthropic: RenderedProviderToolResult<AnthropicToolResultBlock>;
}

/** What `toProviderToolResult(result, format)` returns for `format`. */
export type ProviderToolResultFor<F extends SurfaceFormat> = ProviderToolResultByFormat[F];

const RENDERERS: { [F in SurfaceFormat]: (result: ToolResultParts, options: RenderToolResultOptions) => ProviderToolResultFor<F> } = {
  'openai-chat': renderOpenAIChatToolResult,
  'openai-responses': renderOpenAIResponsesToolResult,
  anthropic: renderAnthropicToolResult,
};

/** Renders a tool result for `format` (see the three format renderers). Throws `ModesError` on a malformed result or format. */
export function toProviderToolResult<F extends SurfaceFormat>(result: ToolResultParts, format: F, options: RenderToolResultOptions): ProviderToolResultFor<F> {
  const render = Object.hasOwn(RENDERERS, format) ? RENDERERS[format] : undefined;
  if (render === undefined) {
    throw new ModesError('invalid_options', `unknown surface format ${JSON.stringify(format)}; expected openai-chat, openai-responses or anthropic`);
  }
  return render(result, options);
}
