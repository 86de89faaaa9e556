import { describe, expect, it } from 'vitest';
import { renderOpenAIResponsesToolResult } from './render-openai-responses-tool-result.js';

const PNG = Buffer.from('png-bytes').toString('base64');
const PDF = Buffer.from('%PDF-1.4').toString('base64');

describe('renderOpenAIResponsesToolResult', () => {
  it('sends a text-only result as the output string', () => {
    expect(renderOpenAIResponsesToolResult({ text: 'Created issue #12.' }, { callId: 'call_1' })).toEqual({
      item: { type: 'function_call_output', call_id: 'call_1', output: 'Created issue #12.' },
      dropped: [],
    });
  });

  it('sends images as input_image data URLs and PDFs as input_file, after the text', () => {
    const { item } = renderOpenAIResponsesToolResult(
      {
        text: 'Here it is.',
        parts: [
          { type: 'image', mimeType: 'image/png', data: PNG },
          { type: 'resource', uri: 'file:///r.pdf', mimeType: 'application/pdf', blob: PDF },
        ],
      },
      { callId: 'call_2' },
    );
    expect(item.output).toEqual([
      { type: 'input_text', text: 'Here it is.' },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
      { type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'tool-result-part-2.pdf' },
    ]);
  });

  it('notes audio it cannot carry and stays a string when nothing else is media', () => {
    const rendered = renderOpenAIResponsesToolResult({ text: 'Recorded.', parts: [{ type: 'audio', mimeType: 'audio/mpeg', data: PNG }] }, { callId: 'c' });
    expect(rendered.item.output).toBe(
      'Recorded.\n[Content part 1 (audio, audio/mpeg, 9 B) was left out: OpenAI Responses cannot carry this audio in a tool result.]',
    );
    expect(rendered.dropped).toEqual([{ index: 0, type: 'audio', mimeType: 'audio/mpeg', bytes: 9, reason: 'unsupported_media' }]);
  });

  it('puts the notes as text entries before the media', () => {
    const { item } = renderOpenAIResponsesToolResult(
      { text: 'Two shots.', parts: [{ type: 'image', mimeType: 'image/png', data: PNG }, { type: 'image', mimeType: 'image/png', data: Buffer.alloc(64).toString('base64') }] },
      { callId: 'c', limits: { maxPartBytes: 32 } },
    );
    expect(Array.isArray(item.output) && item.output.map((entry) => entry.type)).toEqual(['input_text', 'input_text', 'input_image']);
  });
});
