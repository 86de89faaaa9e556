import type { ToolDescriptor } from '@tool-search/catalog';
import type { ModelSurface, ToolCallOutcome } from '@tool-search/gateway-adapter';
import { describe, expect, it } from 'vitest';
import { outcomeToCallResult, toMcpContentBlock, toMcpTools } from './to-sdk-results.js';

const BASE = { kind: 'call' as const, toolCallId: 'mcp-1', name: 'tool_call', durationMs: 3 };
const TOOL = { id: 'mcp:up:read', name: 'read', source: 'mcp' as const, owner: 'up' };

describe('outcomeToCallResult', () => {
  it("passes an upstream tool's parts whole, with its structured content", () => {
    const outcome: ToolCallOutcome = {
      ...BASE,
      status: 'ok',
      tool: TOOL,
      content: 'a picture and a link',
      result: undefined,
      untrusted: true,
      truncated: false,
      parts: [
        { type: 'image', data: 'aGk=', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'note://up/one' },
        { type: 'resource', uri: 'note://up/two', blob: 'aGk=' },
      ],
      structured: { count: 2 },
    };
    expect(outcomeToCallResult(outcome)).toEqual({
      content: [
        { type: 'image', data: 'aGk=', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'note://up/one', name: 'note://up/one' },
        { type: 'resource', resource: { uri: 'note://up/two', blob: 'aGk=' } },
      ],
      structuredContent: { count: 2 },
    });
  });

  it('answers an outcome without parts with its text, and one where nothing ran as an error', () => {
    expect(outcomeToCallResult({ ...BASE, status: 'ok', content: '[]', result: [], untrusted: false, truncated: false })).toEqual({ content: [{ type: 'text', text: '[]' }] });
    expect(outcomeToCallResult({ ...BASE, status: 'error', code: 'timeout', message: 'timed out', content: 'Error: timed out' })).toEqual({ content: [{ type: 'text', text: 'Error: timed out' }], isError: true });
    expect(outcomeToCallResult({ ...BASE, status: 'blocked', tool: TOOL, by: 'policy', reason: 'denied', content: 'Blocked: denied' })).toEqual({ content: [{ type: 'text', text: 'Blocked: denied' }], isError: true });
    expect(outcomeToCallResult({ ...BASE, status: 'client', tool: TOOL, args: {}, content: '' })).toEqual({ content: [{ type: 'text', text: 'Tool tool_call is a client tool: this server cannot run it' }], isError: true });
  });
});

describe('toMcpContentBlock', () => {
  it('reads an embedded resource without text or blob as empty text', () => {
    expect(toMcpContentBlock({ type: 'resource', uri: 'note://up/empty', mimeType: 'text/plain' })).toEqual({ type: 'resource', resource: { uri: 'note://up/empty', mimeType: 'text/plain', text: '' } });
  });
});

describe('toMcpTools', () => {
  const descriptor = (fields: Partial<ToolDescriptor>): ToolDescriptor => ({ ...TOOL, description: 'Read a note.', inputSchema: { type: 'object' }, trusted: false, tags: [], ...fields });
  const surface = (inputSchema: ModelSurface['tools'][number]['inputSchema']): ModelSurface => ({
    mode: 'tools',
    instructions: '',
    tools: [{ name: 'read', description: 'Read a note.', kind: 'pinned', id: TOOL.id, inputSchema }],
  });

  it("lists a catalog tool with its entry's title, annotations and object output schema, its input schema checked and not copied", () => {
    const properties = { text: { type: 'string', enum: ['a', 'b'] } };
    const entry = descriptor({ title: 'Read', annotations: { readOnlyHint: true }, outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    const [listed] = toMcpTools(surface({ type: 'object', properties, required: ['text'] }), () => entry);
    expect(listed).toEqual({
      name: 'read',
      title: 'Read',
      description: 'Read a note.',
      inputSchema: { type: 'object', properties, required: ['text'] },
      outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      annotations: { readOnlyHint: true },
    });
    expect(listed?.inputSchema.properties).toBe(properties);
  });

  it('declares no output schema whose top is not an object (MCP requires one)', () => {
    const [listed] = toMcpTools(surface({ type: 'object' }), () => descriptor({ outputSchema: { type: 'array' } }));
    expect(listed).not.toHaveProperty('outputSchema');
  });

  it('carries a schema holding what JSON cannot as the wire would (undefined dropped, a date as its string)', () => {
    const [listed] = toMcpTools(surface({ type: 'object', properties: { at: { type: 'string', default: new Date(0), description: undefined } } }), () => undefined);
    expect(listed?.inputSchema).toEqual({ type: 'object', properties: { at: { type: 'string', default: '1970-01-01T00:00:00.000Z' } } });
    expect(JSON.stringify(listed?.inputSchema)).toBe('{"type":"object","properties":{"at":{"type":"string","default":"1970-01-01T00:00:00.000Z"}}}');
  });
});
