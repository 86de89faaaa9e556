// A session's outcome as an Agents SDK function tool output. The rendering is modes' OpenAI Responses tool result
// (the API the Agents SDK speaks): text, images as data URLs, PDFs as files, with the caps and the notes for parts
// left out; this file only maps its content items onto the SDK's tool output items.
import { renderOutcome, type ToolCallOutcome } from '@tool-search/gateway-adapter';
import type { OpenAIFunctionCallOutputContent } from '@tool-search/modes';
import type { ToolOutputFileContent, ToolOutputImage, ToolOutputText } from '@openai/agents';

/** What a function tool returns to the Agents SDK: text, or text and media items. */
export type AgentToolOutput = string | Array<ToolOutputText | ToolOutputImage | ToolOutputFileContent>;

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function outputItem(item: OpenAIFunctionCallOutputContent): ToolOutputText | ToolOutputImage | ToolOutputFileContent {
  switch (item.type) {
    case 'input_text':
      return { type: 'text', text: item.text };
    case 'input_image':
      return { type: 'image', image: item.image_url };
    case 'input_file': {
      // modes writes a file as a base64 data URL; the SDK's file item wants the data and its media type apart.
      const [, mediaType = 'application/octet-stream', data = ''] = DATA_URL.exec(item.file_data) ?? [];
      return { type: 'file', file: { data, mediaType, filename: item.filename } };
    }
  }
}

/**
 * Renders an outcome as a function tool's output: `content` as a string, or (an MCP result with images or PDFs)
 * text and media items, which the SDK sends as `input_text`/`input_image`/`input_file`. A `blocked` or `error`
 * outcome is its text. Throws `GatewayAdapterError('invalid_options')` for a `client` outcome (the caller runs
 * that tool: see `onClientCall`).
 */
export function toAgentToolOutput(outcome: ToolCallOutcome): AgentToolOutput {
  const { item } = renderOutcome(outcome, 'openai-responses', { callId: outcome.toolCallId });
  return typeof item.output === 'string' ? item.output : item.output.map(outputItem);
}
