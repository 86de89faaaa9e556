// A session's outcome as the content of a LangChain ToolMessage. The rendering (caps, notes for parts left out) is
// modes' Anthropic tool result; this file maps its blocks onto LangChain's standard content blocks, which every
// provider package converts (`text`, `image` and `file` with base64 `data` and a `mimeType`).
import { renderOutcome, type ToolCallOutcome } from '@tool-search/gateway-adapter';

/** A standard LangChain content block of a tool message. */
export type ToolMessageContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'file'; mimeType: string; data: string };

/** What a ToolMessage carries: the text, or (an MCP result with images or PDFs) text and media blocks. */
export type ToolMessageContent = string | ToolMessageContentBlock[];

/**
 * Renders an outcome as a ToolMessage's content: `content` as a string, or text then an `image` block per image
 * and a `file` block per PDF (within modes' media caps; audio is left out with a note in the text). A `blocked` or
 * `error` outcome is its text. Throws `GatewayAdapterError('invalid_options')` for a `client` outcome (the
 * agent's own tool runs that call).
 */
export function toToolMessageContent(outcome: ToolCallOutcome): ToolMessageContent {
  const { item } = renderOutcome(outcome, 'anthropic', { callId: outcome.toolCallId });
  if (typeof item.content === 'string') return item.content;
  return item.content.map((block): ToolMessageContentBlock => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'image':
        return { type: 'image', mimeType: block.source.media_type, data: block.source.data };
      case 'document':
        return { type: 'file', mimeType: block.source.media_type, data: block.source.data };
    }
  });
}
