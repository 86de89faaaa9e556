// A tool result for OpenAI Chat Completions. A `tool` message carries text only (openai 6.x
// `ChatCompletionToolMessageParam`: a string or text parts), so media reach the model in a follow-up `user`
// message: a short text naming the call, then an `image_url` part per image (a base64 data URL), an
// `input_audio` part per WAV or MP3 clip and a `file` part per PDF. The tool message says how many follow.
// Chat requires the `tool` messages of one assistant turn to come right after it, so send every follow-up
// after all of that turn's tool messages.
import { prepareToolResult } from './internal/prepare-tool-result.js';
import type { RenderedProviderToolResult, RenderToolResultOptions } from './render-openai-responses-tool-result.js';
import type { ToolResultParts } from './types.js';

/** The Chat Completions message that answers a tool call. */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** One part of the follow-up user message that carries a result's media. */
export type OpenAIChatUserContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { file_data: string; filename: string } };

/** The follow-up user message with a result's media. */
export interface OpenAIChatUserMessage {
  role: 'user';
  content: OpenAIChatUserContentPart[];
}

/** A Chat tool result: the tool message, and the media message to send after the turn's tool messages. */
export interface RenderedOpenAIChatToolResult extends RenderedProviderToolResult<OpenAIChatToolMessage> {
  /** Present when the result has media the format can carry. */
  followUp?: OpenAIChatUserMessage;
}

const AUDIO_FORMATS: Record<string, 'wav' | 'mp3'> = { 'audio/wav': 'wav', 'audio/mpeg': 'mp3' };

/** Renders a tool result for OpenAI Chat Completions. Throws `ModesError` on a malformed result. */
export function renderOpenAIChatToolResult(result: ToolResultParts, options: RenderToolResultOptions): RenderedOpenAIChatToolResult {
  const prepared = prepareToolResult(result, 'openai-chat', options.limits);
  const count = prepared.media.length;
  const texts = count === 0 ? prepared.texts : [...prepared.texts, `[${count === 1 ? '1 attachment' : `${count} attachments`} of this result follow in the next user message.]`];
  const item: OpenAIChatToolMessage = { role: 'tool', tool_call_id: options.callId, content: texts.join('\n') };
  if (count === 0) return { item, dropped: prepared.dropped };
  const content: OpenAIChatUserContentPart[] = [{ type: 'text', text: `Attachments returned by tool call ${options.callId}:` }];
  for (const media of prepared.media) {
    const url = `data:${media.mimeType};base64,${media.data}`;
    if (media.kind === 'image') content.push({ type: 'image_url', image_url: { url } });
    else if (media.kind === 'audio') content.push({ type: 'input_audio', input_audio: { data: media.data, format: AUDIO_FORMATS[media.mimeType] as 'wav' | 'mp3' } });
    else content.push({ type: 'file', file: { file_data: url, filename: `tool-result-part-${media.index + 1}.pdf` } });
  }
  return { item, followUp: { role: 'user', content }, dropped: prepared.dropped };
}
