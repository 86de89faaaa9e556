import type { ToolCallOutcome } from '@tool-search/gateway-adapter';
import { describe, expect, it } from 'vitest';
import { toAgentToolOutput } from './to-agent-tool-output.js';

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

describe('toAgentToolOutput', () => {
  it('renders a text-only result as its text', () => {
    expect(toAgentToolOutput(ok('done', [{ type: 'text', text: 'done' }]))).toBe('done');
  });

  it('renders images as data URLs and PDFs as files, and notes a part OpenAI Responses cannot carry', () => {
    const output = toAgentToolOutput(
      ok('see attachments', [
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'resource', uri: 'file:///a.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' },
        { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
      ]),
    );
    expect(output).toEqual([
      { type: 'text', text: 'see attachments' },
      { type: 'text', text: expect.stringContaining('[Content part 3 (audio, audio/wav, 4 B) was left out: OpenAI Responses cannot carry this audio') },
      { type: 'image', image: 'data:image/png;base64,iVBORw0KGgo=' },
      { type: 'file', file: { data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'tool-result-part-2.pdf' } },
    ]);
  });

  it('renders blocked and error outcomes as their text', () => {
    expect(toAgentToolOutput({ ...base, status: 'blocked', tool, by: 'policy', reason: 'denied', content: 'Blocked by policy: denied' })).toBe('Blocked by policy: denied');
    expect(toAgentToolOutput({ ...base, status: 'error', code: 'timeout', message: 'slow', content: 'Error (timeout): slow' })).toBe('Error (timeout): slow');
  });

  it('throws for a client outcome, which has no result to render', () => {
    expect(() => toAgentToolOutput({ ...base, status: 'client', tool, args: {}, content: 'Client tool x is executed by the caller.' })).toThrow(/client tool call/);
  });
});
