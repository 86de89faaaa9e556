import { describe, expect, it } from 'vitest';
import { renderAnthropicToolResult } from './render-anthropic-tool-result.js';

const PNG = Buffer.from('png-bytes').toString('base64');
const PDF = Buffer.from('%PDF-1.4').toString('base64');

describe('renderAnthropicToolResult', () => {
  it('sends a text-only result as the content string', () => {
    expect(renderAnthropicToolResult({ text: 'Done.' }, { callId: 'toolu_1' }).item).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Done.' });
  });

  it('sends images as image blocks and PDFs as document blocks, after the text', () => {
    const { item } = renderAnthropicToolResult(
      {
        text: 'Here it is.',
        parts: [
          { type: 'image', mimeType: 'image/jpg', data: PNG },
          { type: 'resource', uri: 'file:///r.pdf', mimeType: 'application/pdf', blob: PDF },
        ],
      },
      { callId: 'toolu_2' },
    );
    expect(item.content).toEqual([
      { type: 'text', text: 'Here it is.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: PNG } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } },
    ]);
  });

  it('marks an error result with is_error, and only then', () => {
    expect(renderAnthropicToolResult({ text: 'Failed: no such file.', isError: true }, { callId: 't' }).item.is_error).toBe(true);
    expect('is_error' in renderAnthropicToolResult({ text: 'ok', isError: false }, { callId: 't' }).item).toBe(false);
  });

  it('appends structured content and notes to a text-only result', () => {
    const { item } = renderAnthropicToolResult({ text: 'ok', structured: { id: 3 }, parts: [{ type: 'audio', mimeType: 'audio/wav', data: PNG }] }, { callId: 't' });
    expect(item.content).toBe('ok\n{"id":3}\n[Content part 1 (audio, audio/wav, 9 B) was left out: Anthropic Messages cannot carry this audio in a tool result.]');
  });
});
