import { describe, expect, it } from 'vitest';
import { parseAnthropicToolSearchUse, parseOpenAIToolSearchCall } from './parse-native-search-call.js';

const call = (extra: Record<string, unknown>) => ({ type: 'tool_search_call', id: 'tsc_1', call_id: 'call_1', execution: 'client', status: 'completed', ...extra });

describe('parseOpenAIToolSearchCall', () => {
  it('reads the call id and a query with its limit', () => {
    expect(parseOpenAIToolSearchCall(call({ arguments: { query: 'create issue', limit: 3 } }))).toEqual({
      ok: true,
      callId: 'call_1',
      args: { query: 'create issue', limit: 3 },
      queries: [{ query: 'create issue', limit: 3 }],
    });
  });

  it('applies a top-level limit to every query that has none', () => {
    const parsed = parseOpenAIToolSearchCall(call({ arguments: { queries: ['a', { query: 'b', limit: 2 }], limit: 5 } }));
    expect(parsed.ok && parsed.queries).toEqual([
      { query: 'a', limit: 5 },
      { query: 'b', limit: 2 },
    ]);
  });

  it('accepts arguments passed on as JSON text', () => {
    expect(parseOpenAIToolSearchCall(call({ arguments: '{"query":"weather"}' }))).toMatchObject({ ok: true, queries: [{ query: 'weather' }] });
  });

  it('accepts an item without execution (client is the only kind answered)', () => {
    const { execution: _execution, ...item } = call({ arguments: { query: 'x' } });
    expect(parseOpenAIToolSearchCall(item).ok).toBe(true);
  });

  it('returns bad arguments as a value with the call id, so the call can still be answered', () => {
    expect(parseOpenAIToolSearchCall(call({ arguments: { paths: ['crm'] } }))).toEqual({
      ok: false,
      callId: 'call_1',
      message: 'invalid tool search arguments: (arguments): expected exactly one of query or queries',
    });
    expect(parseOpenAIToolSearchCall(call({ arguments: '{not json' }))).toEqual({
      ok: false,
      callId: 'call_1',
      message: 'tool search arguments are not valid JSON; expected { query } or { queries }',
    });
    expect(parseOpenAIToolSearchCall(call({ arguments: { query: 'x', limit: 0 } }))).toMatchObject({ ok: false, message: expect.stringContaining('limit') });
  });

  it('refuses a server-executed call', () => {
    expect(parseOpenAIToolSearchCall(call({ execution: 'server', arguments: { paths: ['crm'] } }))).toEqual({
      ok: false,
      callId: 'call_1',
      message: 'tool_search_call was executed by the server; only client-executed calls are answered',
    });
  });

  it('refuses another item, or one without a call id', () => {
    expect(parseOpenAIToolSearchCall({ type: 'function_call', call_id: 'c', name: 'x', arguments: '{}' })).toEqual({
      ok: false,
      callId: 'c',
      message: 'expected a tool_search_call item with a call_id, received type "function_call"',
    });
    expect(parseOpenAIToolSearchCall(call({ call_id: null, arguments: { query: 'x' } }))).toMatchObject({ ok: false, callId: undefined });
    expect(parseOpenAIToolSearchCall(null)).toEqual({ ok: false, callId: undefined, message: 'expected a tool_search_call item with a call_id, received null' });
    expect(parseOpenAIToolSearchCall('tool_search_call')).toMatchObject({ ok: false, message: expect.stringContaining('received string') });
  });
});

describe('parseAnthropicToolSearchUse', () => {
  it('reads the tool_use id and the input', () => {
    expect(parseAnthropicToolSearchUse({ type: 'tool_use', id: 'toolu_1', name: 'tool_search', input: { queries: ['a', 'b'] } })).toEqual({
      ok: true,
      callId: 'toolu_1',
      args: { queries: ['a', 'b'] },
      queries: [{ query: 'a' }, { query: 'b' }],
    });
  });

  it('refuses a tool_use of another tool, keeping its id', () => {
    expect(parseAnthropicToolSearchUse({ type: 'tool_use', id: 'toolu_2', name: 'get_forecast', input: {} })).toEqual({
      ok: false,
      callId: 'toolu_2',
      message: 'expected a tool_use of tool_search, received "get_forecast"',
    });
  });

  it('returns bad input as a value with the id', () => {
    expect(parseAnthropicToolSearchUse({ type: 'tool_use', id: 'toolu_3', name: 'tool_search', input: { query: '' } })).toMatchObject({
      ok: false,
      callId: 'toolu_3',
      message: expect.stringContaining('invalid tool search arguments'),
    });
  });

  it('refuses a block that is not a tool_use', () => {
    expect(parseAnthropicToolSearchUse({ type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: {} })).toEqual({
      ok: false,
      callId: 'srvtoolu_1',
      message: 'expected a tool_use block with an id, received type "server_tool_use"',
    });
  });
});
