// A session's outcome as what the AI SDK hands the model for a tool call (`toModelOutput`).
import type { McpContentPart, ToolCallOutcome } from '@tool-search/gateway-adapter';
import type { Tool } from 'ai';

/** The AI SDK's tool result for the model (its `ToolResultOutput`). */
export type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

type ContentValue = Extract<ToolResultOutput, { type: 'content' }>['value'];
type FilePart = Extract<ContentValue[number], { type: 'file' }>;

const file = (mediaType: string, data: string): FilePart => ({ type: 'file', mediaType, data: { type: 'data', data } });

// Which parts travel as media: the binary ones. Text parts, resource links and text resources are already in the
// outcome's `content` (with a note for each binary part), so only the bytes are added.
function mediaOf(part: McpContentPart): FilePart[] {
  switch (part.type) {
    case 'text':
    case 'resource_link':
      return [];
    case 'image':
    case 'audio':
      return [file(part.mimeType, part.data)];
    case 'resource':
      return part.blob === undefined ? [] : [file(part.mimeType ?? 'application/octet-stream', part.blob)];
  }
}

/**
 * Renders an outcome for the model: `content` as text; an `ok` outcome whose tool gave images, audio or binary
 * resources also carries them as `file` content parts (base64, with their media type), which the AI SDK provider
 * sends as its own media blocks; `blocked` and `error` are `error-text`. A `client` outcome (a client tool reached
 * through `tool_call` or code) is its text.
 */
export function toToolResultOutput(outcome: ToolCallOutcome): ToolResultOutput {
  switch (outcome.status) {
    case 'ok': {
      const media = (outcome.parts ?? []).flatMap(mediaOf);
      if (media.length === 0) return { type: 'text', value: outcome.content };
      return { type: 'content', value: [{ type: 'text', text: outcome.content }, ...media] };
    }
    case 'blocked':
    case 'error':
      return { type: 'error-text', value: outcome.content };
    case 'client':
      return { type: 'text', value: outcome.content };
  }
}
