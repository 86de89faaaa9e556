import { describe, expect, it } from 'vitest';
import { renderOpenAIChatToolResult } from './render-openai-chat-tool-result.js';

const PNG = Buffer.from('png-bytes').toString('base64');
const PDF = Buffer.from('%PDF-1.4').toString('base64');
const MP3 = Buffer.from('ID3').toString('base64');

describe('renderOpenAIChatToolResult', () => {
  it('sends a text-only result as the tool message, with no follow-up', () => {
    expect(renderOpenAIChatToolResult({ text: 'Done.' }, { callId: 'call_1' })).toEqual({
      item: { role: 'tool', tool_call_id: 'call_1', content: 'Done.' },
      dropped: [],
    });
  });

  it('carries media in a follow-up user message and says so in the tool message', () => {
    const rendered = renderOpenAIChatToolResult(
      {
        text: 'Three attachments.',
        parts: [
          { type: 'image', mimeType: 'image/webp', data: PNG },
          { type: 'audio', mimeType: 'audio/mpeg', data: MP3 },
          { type: 'resource', uri: 'file:///r.pdf', mimeType: 'application/pdf', blob: PDF },
        ],
      },
      { callId: 'call_2' },
    );
    expect(rendered.item).toEqual({
      role: 'tool',
      tool_call_id: 'call_2',
      content: 'Three attachments.\n[3 attachments of this result follow in the next user message.]',
    });
    expect(rendered.followUp).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Attachments returned by tool call call_2:' },
        { type: 'image_url', image_url: { url: `data:image/webp;base64,${PNG}` } },
        { type: 'input_audio', input_audio: { data: MP3, format: 'mp3' } },
        { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'tool-result-part-3.pdf' } },
      ],
    });
  });

  it('leaves out audio Chat cannot take (not WAV or MP3) with a note', () => {
    const rendered = renderOpenAIChatToolResult({ text: 'ok', parts: [{ type: 'audio', mimeType: 'audio/ogg', data: MP3 }] }, { callId: 'c' });
    expect(rendered.followUp).toBeUndefined();
    expect(rendered.item.content).toContain('OpenAI Chat Completions cannot carry this audio in a tool result');
  });
});
