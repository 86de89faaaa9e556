import { describe, expect, expectTypeOf, it } from 'vitest';
import { renderAnthropicToolResult } from './render-anthropic-tool-result.js';
import { renderOpenAIChatToolResult, type RenderedOpenAIChatToolResult } from './render-openai-chat-tool-result.js';
import { renderOpenAIResponsesToolResult } from './render-openai-responses-tool-result.js';
import { toProviderToolResult } from './to-provider-tool-result.js';
import type { SurfaceFormat } from './types.js';

const result = { text: 'ok', parts: [{ type: 'image' as const, mimeType: 'image/png', data: Buffer.from('x').toString('base64') }] };

describe('toProviderToolResult', () => {
  it('dispatches on the format', () => {
    expect(toProviderToolResult(result, 'openai-responses', { callId: 'c' })).toEqual(renderOpenAIResponsesToolResult(result, { callId: 'c' }));
    expect(toProviderToolResult(result, 'anthropic', { callId: 'c' })).toEqual(renderAnthropicToolResult(result, { callId: 'c' }));
    expect(toProviderToolResult(result, 'openai-chat', { callId: 'c' })).toEqual(renderOpenAIChatToolResult(result, { callId: 'c' }));
  });

  it("returns the format's exact result type", () => {
    expectTypeOf(toProviderToolResult(result, 'openai-chat', { callId: 'c' })).toEqualTypeOf<RenderedOpenAIChatToolResult>();
    expectTypeOf(toProviderToolResult(result, 'anthropic', { callId: 'c' }).item.tool_use_id).toEqualTypeOf<string>();
  });

  it('rejects an unknown format', () => {
    expect(() => toProviderToolResult(result, 'gemini' as SurfaceFormat, { callId: 'c' })).toThrow(/unknown surface format "gemini"/);
  });
});
