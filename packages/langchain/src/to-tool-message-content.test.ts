import type { ToolCallOutcome } from '@tool-search/gateway-adapter';
import { describe, expect, it } from 'vitest';
import { toToolMessageContent } from './to-tool-message-content.js';

const tool = { id: 'mcp:everything:get-tiny-image', name: 'get-tiny-image', source: 'mcp', owner: 'everything' } as const;
const base = { toolCallId: 'c1', name: 'tool_call', durationMs: 1 };

describe('toToolMessageContent', () => {
  it('is the text of a text-only outcome', () => {
    const outcome = { ...base, status: 'error', code: 'unknown_tool', message: 'no such tool', content: 'No tool "x" is available to you.' } as unknown as ToolCallOutcome;
    expect(toToolMessageContent(outcome)).toBe('No tool "x" is available to you.');
  });

  it('maps images and PDFs onto standard image and file blocks after the text', () => {
    const outcome = {
      ...base,
      status: 'ok',
      kind: 'call',
      tool,
      result: 'two parts',
      untrusted: false,
      truncated: false,
      content: 'two parts',
      parts: [
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'resource', uri: 'file:///a.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' },
      ],
    } as unknown as ToolCallOutcome;
    expect(toToolMessageContent(outcome)).toEqual([
      { type: 'text', text: 'two parts' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'file', mimeType: 'application/pdf', data: 'JVBERi0=' },
    ]);
  });
});
