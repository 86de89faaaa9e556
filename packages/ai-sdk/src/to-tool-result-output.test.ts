import type { ToolCallOutcome } from '@tool-search/gateway-adapter';
import { describe, expect, it } from 'vitest';
import { toToolResultOutput } from './to-tool-result-output.js';

const base = { kind: 'call', toolCallId: 'c1', name: 'x', durationMs: 1 } as const;
const tool = { id: 'mcp:s:x', name: 'x', source: 'mcp', owner: 's' } as const;
const ok = (content: string, parts?: Extract<ToolCallOutcome, { status: 'ok' }>['parts']): ToolCallOutcome => ({
  ...base,
  status: 'ok',
  tool,
  result: null,
  untrusted: true,
  truncated: false,
  content,
  ...(parts === undefined ? {} : { parts }),
});

describe('toToolResultOutput', () => {
  it('renders a text-only result as text', () => {
    expect(toToolResultOutput(ok('done', [{ type: 'text', text: 'done' }]))).toEqual({ type: 'text', value: 'done' });
  });

  it('adds images, audio and binary resources as file parts after the text, and nothing for text-bearing parts', () => {
    const output = toToolResultOutput(
      ok('see attachments', [
        { type: 'text', text: 'see attachments' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
        { type: 'resource', uri: 'file:///a.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' },
        { type: 'resource', uri: 'file:///b.bin', blob: 'AAAA' },
        { type: 'resource', uri: 'file:///c.txt', text: 'inline' },
        { type: 'resource_link', uri: 'file:///d.txt' },
      ]),
    );
    expect(output).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'see attachments' },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBORw0KGgo=' } },
        { type: 'file', mediaType: 'audio/wav', data: { type: 'data', data: 'UklGRg==' } },
        { type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: 'JVBERi0=' } },
        { type: 'file', mediaType: 'application/octet-stream', data: { type: 'data', data: 'AAAA' } },
      ],
    });
  });

  it('renders blocked and error outcomes as error text', () => {
    expect(toToolResultOutput({ ...base, status: 'blocked', tool, by: 'policy', reason: 'denied', content: 'Blocked by policy: denied' })).toEqual({
      type: 'error-text',
      value: 'Blocked by policy: denied',
    });
    expect(toToolResultOutput({ ...base, status: 'error', code: 'timeout', message: 'slow', content: 'Error (timeout): slow' })).toEqual({
      type: 'error-text',
      value: 'Error (timeout): slow',
    });
  });

  it('renders a client outcome reached through a control tool as its text', () => {
    expect(toToolResultOutput({ ...base, status: 'client', tool, args: {}, content: 'Client tool x is executed by the caller.' })).toEqual({
      type: 'text',
      value: 'Client tool x is executed by the caller.',
    });
  });
});
