// A tool result as an Anthropic `tool_result` block. Text only: `content` is the text. With media: a block
// array, the text first, then an `image` block per image and a `document` block per PDF, base64 sources
// (@anthropic-ai/sdk `ToolResultBlockParam`). `is_error` is set for an error result. Audio has no block
// type in a tool result: it is left out with a note.
import { prepareToolResult } from './internal/prepare-tool-result.js';
import type { RenderedProviderToolResult, RenderToolResultOptions } from './render-openai-responses-tool-result.js';
import type { ToolResultParts } from './types.js';

/** The image media types Anthropic accepts. */
export type AnthropicImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** One block of a `tool_result`'s content. */
export type AnthropicToolResultContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: AnthropicImageMediaType; data: string } }
  | { type: 'document'; source: { type: 'base64'; media_type: 'application/pdf'; data: string } };

/** The Anthropic block that answers a `tool_use` (goes in the next user message's content). */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | AnthropicToolResultContentBlock[];
  is_error?: true;
}

/** Renders a tool result as an Anthropic `tool_result` block. Throws `ModesError` on a malformed result. */
export function renderAnthropicToolResult(result: ToolResultParts, options: RenderToolResultOptions): RenderedProviderToolResult<AnthropicToolResultBlock> {
  const prepared = prepareToolResult(result, 'anthropic', options.limits);
  let content: AnthropicToolResultBlock['content'];
  if (prepared.media.length === 0) content = prepared.texts.join('\n');
  else {
    const blocks: AnthropicToolResultContentBlock[] = prepared.texts.map((text) => ({ type: 'text', text }));
    for (const media of prepared.media) {
      blocks.push(
        media.kind === 'image'
          ? { type: 'image', source: { type: 'base64', media_type: media.mimeType as AnthropicImageMediaType, data: media.data } }
          : { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: media.data } },
      );
    }
    content = blocks;
  }
  const item: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: options.callId, content };
  if (prepared.isError) item.is_error = true;
  return { item, dropped: prepared.dropped };
}
