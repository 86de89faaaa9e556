import { describe, expect, it } from 'vitest';
import { resolveScriptReply, type DeclaredTool, type ProviderRequestView, type ScriptRule } from './resolve-script-reply.js';

function view(overrides: Partial<ProviderRequestView> = {}): ProviderRequestView {
  return {
    api: 'responses',
    model: 'm',
    stream: false,
    instructions: '',
    userText: 'hello',
    tools: [],
    deferredTools: [],
    declaresToolSearch: false,
    toolResults: [],
    ...overrides,
  };
}

function tool(name: string, flags: Partial<DeclaredTool> = {}): DeclaredTool {
  return { name, description: '', parameters: {}, deferred: false, loaded: false, ...flags };
}

describe('resolveScriptReply', () => {
  it('answers with the first rule whose matcher holds', () => {
    const rules: ScriptRule[] = [
      { id: 'never', when: { toolResults: 1 }, reply: { text: 'a' } },
      { id: 'first', when: { toolResults: 0 }, reply: { text: 'b' } },
      { id: 'second', when: {}, reply: { text: 'c' } },
    ];
    expect(resolveScriptReply(rules, view())).toEqual({ ruleId: 'first', toolCalls: [], text: 'b', toolSearch: undefined });
  });

  it('fills templates from named groups of the latest tool result, in nested arguments', () => {
    const rules: ScriptRule[] = [
      {
        id: 'call',
        when: { lastToolName: /^tool_search$/, lastToolResult: /"id":"(?<id>plugin:[^"]+)"/ },
        reply: { toolCalls: [{ name: 'tool_call', arguments: { id: '{{id}}', args: { list: ['{{id}}', 3] } } }] },
      },
    ];
    const reply = resolveScriptReply(
      rules,
      view({ toolResults: [{ callId: 'c1', toolName: 'tool_search', output: '[{"id":"plugin:p:x"}]' }] }),
    );
    expect(reply?.toolCalls).toEqual([{ name: 'tool_call', arguments: '{"id":"plugin:p:x","args":{"list":["plugin:p:x",3]}}' }]);
  });

  it('names the matching declared tool as {{declaredTool}} and honours lacksTool', () => {
    const rules: ScriptRule[] = [
      { id: 'no', when: { declaresTool: /^fake_/, lacksTool: /^tool_search$/ }, reply: { text: 'no' } },
      { id: 'yes', when: { declaresTool: /^fake_(?<verb>[a-z]+)_/ }, reply: { text: '{{declaredTool}} {{verb}}' } },
    ];
    const tools = [tool('tool_search'), tool('fake_audit_lease_aurora')];
    expect(resolveScriptReply(rules, view({ tools }))).toMatchObject({ ruleId: 'yes', toolCalls: [], text: 'fake_audit_lease_aurora audit' });
  });

  it('quotes the latest tool result as {{lastOutput}}, cut at 400 characters', () => {
    const rules: ScriptRule[] = [{ id: 'report', when: { minToolResults: 2 }, reply: { text: 'R {{lastOutput}}' } }];
    const results = [
      { callId: 'a', toolName: 'x', output: 'first' },
      { callId: 'b', toolName: 'y', output: 'z'.repeat(500) },
    ];
    expect(resolveScriptReply(rules, view({ toolResults: results.slice(0, 1) }))).toBeUndefined();
    expect(resolveScriptReply(rules, view({ toolResults: results }))?.text).toBe(`R ${'z'.repeat(400)}`);
  });

  it('matches instructions and user text, and leaves unknown templates as they are', () => {
    const rules: ScriptRule[] = [
      { id: 'dir', when: { instructions: /directory/, userText: /run (?<name>\w+)/ }, reply: { text: '{{name}} {{missing}}' } },
    ];
    expect(resolveScriptReply(rules, view({ instructions: 'Tool directory ...', userText: 'please run fake_x' }))?.text).toBe(
      'fake_x {{missing}}',
    );
    expect(resolveScriptReply(rules, view({ userText: 'please run fake_x' }))).toBeUndefined();
  });

  it('sees only the tools the model can call: a deferred tool counts once it is loaded', () => {
    const rules: ScriptRule[] = [
      { id: 'call', when: { declaresTool: /^fake_x$/ }, reply: { text: 'call' } },
      { id: 'search', when: { defersTools: true }, reply: { text: 'search' } },
      { id: 'nothing', when: { defersTools: false }, reply: { text: 'nothing' } },
    ];
    expect(resolveScriptReply(rules, view({ deferredTools: [tool('fake_x', { deferred: true })] }))?.ruleId).toBe('search');
    expect(resolveScriptReply(rules, view({ tools: [tool('fake_x', { deferred: true, loaded: true })] }))?.ruleId).toBe('call');
    expect(resolveScriptReply(rules, view())?.ruleId).toBe('nothing');
  });

  it('names the tool the latest result loaded as {{loadedTool}}, and matches the wire format', () => {
    const rules: ScriptRule[] = [
      { id: 'chat', when: { api: 'chat' }, reply: { text: 'chat' } },
      { id: 'loaded', when: { lastToolName: /^tool_search$/, loadedTool: /^fake_(?<verb>[a-z]+)_/ }, reply: { toolCalls: [{ name: '{{loadedTool}}', arguments: { v: '{{verb}}' } }] } },
    ];
    const toolResults = [{ callId: 'c1', toolName: 'tool_search', output: '', loadedTools: ['other', 'fake_audit_lease_aurora'] }];
    expect(resolveScriptReply(rules, view({ api: 'anthropic', toolResults }))?.toolCalls).toEqual([{ name: 'fake_audit_lease_aurora', arguments: '{"v":"audit"}' }]);
    expect(resolveScriptReply(rules, view({ api: 'chat', toolResults }))?.ruleId).toBe('chat');
    expect(resolveScriptReply(rules, view({ toolResults: [{ ...toolResults[0]!, loadedTools: ['other'] }] }))).toBeUndefined();
  });

  it('answers a provider tool search with its filled arguments where the request declares one', () => {
    const rules: ScriptRule[] = [{ id: 'native', when: { declaresToolSearch: true, userText: /find (?<what>\w+)/ }, reply: { toolSearch: { query: 'find {{what}}', limit: 3 } } }];
    expect(resolveScriptReply(rules, view({ declaresToolSearch: true, userText: 'please find invoices' }))).toEqual({
      ruleId: 'native',
      toolCalls: [],
      text: undefined,
      toolSearch: { query: 'find invoices', limit: 3 },
    });
    expect(resolveScriptReply(rules, view({ userText: 'please find invoices' }))).toBeUndefined();
  });
});
