// A tool result as an OpenAI Responses `function_call_output` input item. Text only: `output` is the text.
// With media: `output` is a content array, the text first, then an `input_image` per image (a base64 data
// URL) and an `input_file` per PDF (openai 6.x `ResponseFunctionCallOutputItemList`). The format has no
// audio in function outputs and no error flag: audio is left out with a note, an error is said in `text`.
import { prepareToolResult } from './internal/prepare-tool-result.js';
import type { DroppedContentPart, MediaLimits, ToolResultParts } from './types.js';

/** One entry of a `function_call_output` content array. */
export type OpenAIFunctionCallOutputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string }
  | { type: 'input_file'; file_data: string; filename: string };

/** The OpenAI Responses input item that answers a `function_call`. */
export interface OpenAIFunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string | OpenAIFunctionCallOutputContent[];
}

/** Options of the tool result renderers. */
export interface RenderToolResultOptions {
  /** The call being answered: OpenAI Responses `call_id`, Anthropic `tool_use` id, OpenAI Chat `tool_call_id`. */
  callId: string;
  /** Caps on the binary parts (defaults: `DEFAULT_MEDIA_LIMITS`). */
  limits?: Partial<MediaLimits>;
}

/** A rendered tool result: the provider item and the parts left out (each also noted in the item's text). */
export interface RenderedProviderToolResult<Item> {
  item: Item;
  dropped: DroppedContentPart[];
}

/** Renders a tool result as an OpenAI Responses `function_call_output` item. Throws `ModesError` on a malformed result. */
export function renderOpenAIResponsesToolResult(
  result: ToolResultParts,
  options: RenderToolResultOptions,
): RenderedProviderToolResult<OpenAIFunctionCallOutputItem> {
  const prepared = prepareToolResult(result, 'openai-responses', options.limits);
  if (prepared.media.length === 0) {
    return { item: { type: 'function_call_output', call_id: options.callId, output: prepared.texts.join('\n') }, dropped: prepared.dropped };
  }
  const output: OpenAIFunctionCallOutputContent[] = prepared.texts.map((text) => ({ type: 'input_text', text }));
  for (const media of prepared.media) {
    const url = `data:${media.mimeType};base64,${media.data}`;
    output.push(media.kind === 'image' ? { type: 'input_image', image_url: url } : { type: 'input_file', file_data: url, filename: `tool-result-part-${media.index + 1}.pdf` });
  }
  return { item: { type: 'function_call_output', call_id: options.callId, output }, dropped: prepared.dropped };
}
