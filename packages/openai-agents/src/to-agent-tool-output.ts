// A session's outcome as an Agents SDK function tool output. The rendering is modes' OpenAI Responses tool result
// (the API the Agents SDK speaks): text, images as data URLs, PDFs as files, with the caps and the notes for parts
// left out; this file only maps its content items onto the SDK's tool output items.
import { renderOutcome, type ToolCallOutcome } from '@tool-search/gateway-adapter';
import type { OpenAIFunctionCallOutputContent } from '@tool-search/modes';
import type { ToolOutputFileContent, ToolOutputImage, ToolOutputText } from '@openai/agents';

/** What a function tool returns to the Agents SDK: text, or text and media items. */
export type AgentToolOutput = string | Array<ToolOutputText | ToolOutputImage | ToolOutputFileContent>;

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

const OUTPUT_ITEM: { [K in OpenAIFunctionCallOutputContent['type']]: (item: Extract<OpenAIFunctionCallOutputContent, { type: K }>) => ToolOutputText | ToolOutputImage | ToolOutputFileContent } = {
  input_text: (item) => ({ type: 'text', text: item.text }),
  input_image: (item) => ({ type: 'image', image: item.image_url }),
  input_file: (item) => {
    const [, mediaType = 'application/octet-stream', data = ''] = DATA_URL.exec(item.file_data) ?? [];
    return { type: 'file', file: { data, mediaType, filename: item.filename } };
  },
};

function outputItem(item: OpenAIFunctionCallOutputContent): ToolOutputText | ToolOutputImage | ToolOutputFileContent {
  return (OUTPUT_ITEM[item.type] as (item: OpenAIFunctionCallOutputContent) => ToolOutputText | ToolOutputImage | ToolOutputFileContent)(item);
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
