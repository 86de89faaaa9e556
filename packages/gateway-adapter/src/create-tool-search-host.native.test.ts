import { renderWeakNote } from '@tool-search/modes';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';

const tool = (name: string, description: string, owner = 'core'): ExecutableTool => ({
  name,
  owner,
  description,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  execute: (args) => `${name} ran with ${JSON.stringify(args)}`,
});
const TOOLS = [
  tool('send_email', 'Send an email message to a recipient.', 'mail'),
  tool('list_inbox', 'List the messages in the inbox.', 'mail'),
  tool('create_event', 'Create a calendar event.', 'calendar'),
  tool('secret_payroll', 'Export the confidential payroll.', 'hr'),
];
const POLICY = { deny: ['*:hr:*'] };
let host: ToolSearchHost | undefined;
afterEach(async () => host?.close());

describe('native mode', () => {
  it('OpenAI Responses: deferred functions in namespaces, our client tool_search answered with the ranked definitions', async () => {
    host = await createToolSearchHost({ sources: { openclaw: TOOLS } });
    const session = await host.openSession({ config: { mode: 'native' }, policy: POLICY });
    const surface = session.surface('openai-responses');
    const text = JSON.stringify(surface.tools);
    expect(surface.tools[0]).toMatchObject({ type: 'tool_search', execution: 'client' });
    expect(text).toContain('"defer_loading":true');
    expect(text).not.toContain('secret_payroll');
    expect(session.telemetry().surface).toMatchObject({ schemasUpFront: 0, deferredTools: 3 });

    const call = { type: 'tool_search_call', call_id: 'ts_1', execution: 'client', arguments: { query: 'send an email' } };
    const answer = session.answerNativeSearch(call, 'openai-responses');
    expect(answer.item).toMatchObject({ type: 'tool_search_output', call_id: 'ts_1', execution: 'client' });
    expect(answer.loadedIds[0]).toBe('openclaw:mail:send_email');
    expect(JSON.stringify(answer.item)).not.toContain('secret_payroll');
    // Loaded once: the same search again loads nothing new.
    expect(session.answerNativeSearch({ ...call, call_id: 'ts_2' }, 'openai-responses').loadedIds).toEqual([]);
    // A loaded tool comes back as a plain function call by its declared name.
    expect(await session.execute({ name: 'send_email', args: { text: 'hi' }, toolCallId: 'f1' })).toMatchObject({ status: 'ok', tool: { id: 'openclaw:mail:send_email' } });
    expect(session.telemetry().calls).toEqual([expect.objectContaining({ toolId: 'openclaw:mail:send_email', via: 'native' })]);
    expect(session.telemetry().counts).toMatchObject({ searches: 2, nativeLoads: answer.loadedIds.length, calls: 1 });
  });

  it('never loads a denied tool, even asked for by its exact name', async () => {
    host = await createToolSearchHost({ sources: { openclaw: TOOLS } });
    const session = await host.openSession({ config: { mode: 'native' }, policy: POLICY });
    const answer = session.answerNativeSearch({ type: 'tool_search_call', call_id: 'x', arguments: { query: 'secret_payroll' } }, 'openai-responses');
    expect(answer.loadedIds).not.toContain('openclaw:hr:secret_payroll');
    expect(JSON.stringify(answer.item)).not.toContain('payroll');
    expect(await session.execute({ name: 'secret_payroll', args: {}, toolCallId: 'f2' })).toMatchObject({ status: 'error', code: 'unknown_tool' });
  });

  it('Anthropic: deferred tools and our tool_search, answered with tool_reference blocks', async () => {
    host = await createToolSearchHost({ sources: { openclaw: TOOLS } });
    const session = await host.openSession({ config: { mode: 'native' }, policy: POLICY });
    const surface = session.surface('anthropic');
    expect(JSON.stringify(surface.tools)).toContain('"defer_loading":true');
    const answer = session.answerNativeSearch({ type: 'tool_use', id: 'tu_1', name: 'tool_search', input: { query: 'calendar event' } }, 'anthropic');
    expect(answer.item).toMatchObject({ type: 'tool_result', tool_use_id: 'tu_1', content: [{ type: 'tool_reference', tool_name: 'create_event' }] });
  });

  it('Anthropic: a search nothing matches lists the servers of the view, never a denied one', async () => {
    host = await createToolSearchHost({ sources: { openclaw: TOOLS } });
    const session = await host.openSession({ config: { mode: 'native' }, policy: POLICY });
    const answer = session.answerNativeSearch({ type: 'tool_use', id: 'tu_3', name: 'tool_search', input: { query: 'zzqx vvyk' } }, 'anthropic');
    expect(answer.loadedIds).toEqual([]);
    const text = (answer.item as { content: string }).content;
    expect(text.startsWith(`${renderWeakNote('native')}\n`)).toBe(true);
    expect(text).toContain('create_event');
    expect(text).not.toContain('payroll');
  });

  it('OpenAI Responses: a search nothing matches sends the same server map, as a user message after the output', async () => {
    host = await createToolSearchHost({ sources: { openclaw: TOOLS } });
    const session = await host.openSession({ config: { mode: 'native' }, policy: POLICY });
    session.surface('openai-responses');
    session.surface('anthropic');
    const answer = session.answerNativeSearch({ type: 'tool_search_call', call_id: 'ts_9', execution: 'client', arguments: { query: 'zzqx vvyk' } }, 'openai-responses');
    expect(answer.item).toMatchObject({ type: 'tool_search_output', call_id: 'ts_9', tools: [] });
    expect(answer.followUp).toMatchObject({ type: 'message', role: 'user' });
    const text = answer.followUp?.content.map((part) => part.text).join('') ?? '';
    expect(text.startsWith(`${renderWeakNote('native')}\n`)).toBe(true);
    expect(text).toContain('create_event');
    expect(text).not.toContain('payroll');
    // The same words as the Anthropic answer to the same search.
    const anthropic = session.answerNativeSearch({ type: 'tool_use', id: 'tu_9', name: 'tool_search', input: { query: 'zzqx vvyk' } }, 'anthropic');
    expect(text).toBe((anthropic.item as { content: string }).content);
    // A search that loads something sends no map.
    expect(session.answerNativeSearch({ type: 'tool_search_call', call_id: 'ts_10', execution: 'client', arguments: { query: 'calendar event' } }, 'openai-responses').followUp).toBeUndefined();
  });

  it('answers a malformed search call, loading nothing, and says what was wrong', async () => {
    host = await createToolSearchHost({ sources: { openclaw: TOOLS } });
    const session = await host.openSession({ config: { mode: 'native' } });
    session.surface('anthropic');
    const answer = session.answerNativeSearch({ type: 'tool_use', id: 'tu_2', name: 'tool_search', input: { limit: 'many' } }, 'anthropic');
    expect(answer).toMatchObject({ loadedIds: [], error: expect.any(String), item: { type: 'tool_result', tool_use_id: 'tu_2' } });
    expect(() => session.answerNativeSearch({ nope: true }, 'anthropic')).toThrow(/Not a native tool search call/);
  });

  it('falls back to tools mode on OpenAI Chat (no deferral there), where tool_search runs as in tools mode', async () => {
    host = await createToolSearchHost({ sources: { openclaw: TOOLS } });
    const session = await host.openSession({ config: { mode: 'native' }, policy: POLICY });
    const chat = session.surface('openai-chat');
    expect(chat).toMatchObject({ mode: 'tools', requestedMode: 'native', fallbackReason: expect.stringContaining('Chat') });
    expect(session.telemetry().surface).toMatchObject({ format: 'openai-chat', renderedMode: 'tools', fallbackReason: chat.fallbackReason });
    const outcome = await session.execute({ name: 'tool_search', args: { query: 'inbox' }, toolCallId: 's1' });
    expect(outcome).toMatchObject({ status: 'ok', kind: 'search' });
    expect(() => session.answerNativeSearch({ type: 'tool_search_call', call_id: 'c', arguments: {} }, 'openai-chat' as never)).toThrow(/openai-responses or anthropic/);
  });
});
