import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { APPROVAL_ID, approvalsAsked, executed, useFixtureSessions } from '@tool-search/adapter-fixtures';
import { isMastraProcessorError } from './errors.js';
import { agentWith, declaredNames, scriptedModel, systemText, toolResults } from './internal/fixtures.js';
import { ToolSearchSessionProcessor } from './tool-search-session-processor.js';

const open = useFixtureSessions();
const SHOW_TOAST = { name: 'show_toast', description: 'Show a toast in the UI.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };

/** Every part of what Mastra sent the model that the processor made: the declared tools, the system text, the tool results. */
function handed(model: ReturnType<typeof scriptedModel>): string {
  return JSON.stringify(model.doGenerateCalls.map((call) => [call.tools, systemText(call), toolResults(call)]));
}

describe('ToolSearchSessionProcessor', () => {
  it('gives a tools-mode session\'s control tools and runs a search and a tool_call through the session in Mastra\'s loop', async () => {
    const session = await open({ mode: 'tools' });
    const model = scriptedModel([
      { calls: [{ name: 'tool_search', input: { query: 'weather forecast' } }] },
      { calls: [{ name: 'tool_call', input: { id: 'openclaw:core:get_weather', args: { city: 'Paris' } } }] },
      { text: 'Rain in Paris.' },
    ]);
    const result = await agentWith(new ToolSearchSessionProcessor(session), model).generate('Will it rain in Paris?', { maxSteps: 5 });
    expect(result.text).toBe('Rain in Paris.');
    expect(model.doGenerateCalls.map(declaredNames)).toEqual(Array(3).fill(['tool_call', 'tool_describe', 'tool_search']));
    // The model sent the query alone (not every nullable argument as null): Mastra's validation lets it through,
    // and the search's hits reach the model.
    const searched = JSON.stringify(toolResults(model.doGenerateCalls[1]));
    expect(searched).toContain('openclaw:core:get_weather');
    expect(searched).not.toContain('validation failed');
    // The instructions are in every step's system text, once.
    for (const call of model.doGenerateCalls) expect(systemText(call).split(session.modelSurface().instructions)).toHaveLength(2);
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(JSON.stringify(toolResults(model.doGenerateCalls[2]))).toContain('Rain tomorrow in Paris.');
    expect(session.telemetry().calls.map((call) => call.toolId)).toEqual(['openclaw:core:get_weather']);
  });

  it('gives tool_search_code in code mode and runs the code\'s calls through the session', async () => {
    const session = await open({ mode: 'code' });
    const code = "const hits = await tools.search('weather'); return await tools.call(hits[0].id, { city: 'Oslo' });";
    const model = scriptedModel([{ calls: [{ name: 'tool_search_code', input: { code } }] }, { text: 'done' }]);
    await agentWith(new ToolSearchSessionProcessor(session), model).generate('Weather in Oslo?', { maxSteps: 5 });
    expect(declaredNames(model.doGenerateCalls[0])).toEqual(['tool_search_code']);
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Oslo' } }]);
    expect(JSON.stringify(toolResults(model.doGenerateCalls[1]))).toContain('Rain tomorrow in Oslo.');
  });

  it('reaches a tool a directory session lists through tool_call with its listed name', async () => {
    const session = await open({ mode: 'directory' });
    const model = scriptedModel([{ calls: [{ name: 'tool_call', input: { id: 'get_weather', args: { city: 'Rome' } } }] }, { text: 'done' }]);
    await agentWith(new ToolSearchSessionProcessor(session), model).generate('Weather in Rome?', { maxSteps: 5 });
    expect(systemText(model.doGenerateCalls[0])).toContain('get_weather');
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Rome' } }]);
  });

  it('defers a direct session: search_tools ranks by the session, load_tool loads, the loaded tool is declared on the next step', async () => {
    const session = await open({ native: true });
    const model = scriptedModel([
      { calls: [{ name: 'search_tools', input: { query: 'weather forecast' } }] },
      { calls: [{ name: 'load_tool', input: { toolName: 'get_weather' } }] },
      { calls: [{ name: 'get_weather', input: { city: 'Paris' } }] },
      { text: 'Rain in Paris.' },
    ]);
    const result = await agentWith(new ToolSearchSessionProcessor(session), model).generate('Will it rain in Paris?', { maxSteps: 6 });
    expect(result.text).toBe('Rain in Paris.');
    expect(declaredNames(model.doGenerateCalls[0])).toEqual(['load_tool', 'search_tools']);
    expect(declaredNames(model.doGenerateCalls[1])).toEqual(['load_tool', 'search_tools']);
    expect(declaredNames(model.doGenerateCalls[2])).toEqual(['get_weather', 'load_tool', 'search_tools']);
    expect(systemText(model.doGenerateCalls[0])).toContain('3 more tools are available');
    const searched = toolResults(model.doGenerateCalls[1])[0];
    expect(JSON.stringify(searched)).toContain('get_weather');
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(session.telemetry().counts.searches).toBe(1);
  });

  it('loads a search\'s hits itself with search.autoLoad, and has no load_tool', async () => {
    const session = await open({ native: true });
    const model = scriptedModel([
      { calls: [{ name: 'search_tools', input: { query: 'calendar event' } }] },
      { calls: [{ name: 'create_event', input: { title: 'Dentist', date: '2026-12-04' } }] },
      { text: 'booked' },
    ]);
    await agentWith(new ToolSearchSessionProcessor(session, { search: { autoLoad: true, topK: 1 } }), model).generate('Book the dentist', { maxSteps: 5 });
    expect(declaredNames(model.doGenerateCalls[0])).toEqual(['search_tools']);
    expect(declaredNames(model.doGenerateCalls[1])).toEqual(['create_event', 'search_tools']);
    expect(executed).toEqual([{ name: 'create_event', args: { title: 'Dentist', date: '2026-12-04' } }]);
  });

  it('keeps the loaded set in the conversation: a new processor, session and agent given the messages declare the same tools', async () => {
    const first = scriptedModel([{ calls: [{ name: 'load_tool', input: { toolNames: ['create_event', 'get_weather'] } }] }, { text: 'loaded' }]);
    const earlier = await agentWith(new ToolSearchSessionProcessor(await open({ native: true })), first).generate('Load the calendar and weather tools', { maxSteps: 5 });
    // Another process: nothing shared but the conversation's messages.
    const second = scriptedModel([{ calls: [{ name: 'create_event', input: { title: 'Dentist', date: '2026-12-04' } }] }, { text: 'booked' }]);
    const messages = [{ role: 'user' as const, content: 'Load the calendar and weather tools' }, ...(earlier.response.messages ?? []), { role: 'user' as const, content: 'Book the dentist' }];
    await agentWith(new ToolSearchSessionProcessor(await open({ native: true })), second).generate(messages, { maxSteps: 5 });
    expect(declaredNames(second.doGenerateCalls[0])).toEqual(['create_event', 'get_weather', 'load_tool', 'search_tools']);
    expect(executed).toEqual([{ name: 'create_event', args: { title: 'Dentist', date: '2026-12-04' } }]);
    // Without the load_tool result in the messages, nothing is loaded.
    const third = scriptedModel([{ text: 'what tools?' }]);
    await agentWith(new ToolSearchSessionProcessor(await open({ native: true })), third).generate('Book the dentist', { maxSteps: 5 });
    expect(declaredNames(third.doGenerateCalls[0])).toEqual(['load_tool', 'search_tools']);
  });

  it('never declares, finds, loads or runs a denied tool, in any mode', async () => {
    for (const config of [{ mode: 'tools' }, { mode: 'directory' }]) {
      const session = await open(config);
      const model = scriptedModel([
        { calls: [{ name: 'tool_search', input: { query: 'run a shell command' } }, { name: 'tool_call', input: { id: 'openclaw:core:exec_shell', args: { command: 'ls' } } }] },
        { text: 'none' },
      ]);
      await agentWith(new ToolSearchSessionProcessor(session), model).generate('Run ls', { maxSteps: 5 });
      // The model's own argument comes back in the unknown-tool error; nothing else of the tool does.
      expect(handed(model).split('openclaw:core:exec_shell').join('')).not.toMatch(/exec_shell|shell command/);
    }
    const session = await open({ native: true });
    const model = scriptedModel([
      { calls: [{ name: 'search_tools', input: { query: 'shell' } }, { name: 'load_tool', input: { toolName: 'exec_shell' } }] },
      { calls: [{ name: 'exec_shell', input: { command: 'ls' } }] },
      { text: 'none' },
    ]);
    await agentWith(new ToolSearchSessionProcessor(session), model).generate('Run ls', { maxSteps: 5 });
    expect(model.doGenerateCalls.map(declaredNames)).toEqual(Array(3).fill(['load_tool', 'search_tools']));
    const [searched, loaded] = toolResults(model.doGenerateCalls[1]);
    expect(JSON.stringify(searched)).not.toMatch(/exec_shell|shell command/);
    expect(JSON.stringify(loaded)).toContain('Not found: exec_shell');
    expect(executed).toEqual([]);
  });

  it('blocks a call the approval provider refuses: nothing runs and the model reads why', async () => {
    const tools = await open({ mode: 'tools' });
    const viaToolCall = scriptedModel([{ calls: [{ name: 'tool_call', input: { id: APPROVAL_ID, args: { path: 'notes.txt' } } }] }, { text: 'could not' }]);
    await agentWith(new ToolSearchSessionProcessor(tools), viaToolCall).generate('Delete notes.txt', { maxSteps: 5 });
    expect(JSON.stringify(toolResults(viaToolCall.doGenerateCalls[1]))).toContain('the user said no');
    const direct = await open({ native: true });
    const loaded = scriptedModel([
      { calls: [{ name: 'load_tool', input: { toolName: 'delete_file' } }] },
      { calls: [{ name: 'delete_file', input: { path: 'notes.txt' } }] },
      { text: 'could not' },
    ]);
    await agentWith(new ToolSearchSessionProcessor(direct), loaded).generate('Delete notes.txt', { maxSteps: 5 });
    expect(JSON.stringify(toolResults(loaded.doGenerateCalls[2]).at(-1))).toContain('the user said no');
    expect(approvalsAsked).toEqual([APPROVAL_ID, APPROVAL_ID]);
    expect(executed).toEqual([]);
  });

  it('keeps the agent\'s own tools and hands a client tool call the session authorised to onClientCall', async () => {
    const session = await open({ mode: 'tools' }, { client: [SHOW_TOAST] });
    const seen: unknown[] = [];
    const processor = new ToolSearchSessionProcessor(session, {
      onClientCall: (call) => {
        seen.push([call.tool.name, call.args]);
        return 'shown';
      },
    });
    const getTime = createTool({ id: 'get_time', description: 'The time now.', execute: async () => '09:00' });
    const model = scriptedModel([{ calls: [{ name: 'show_toast', input: { text: 'hi' } }] }, { text: 'done' }]);
    await agentWith(processor, model, { get_time: getTime }).generate('Say hi', { maxSteps: 5 });
    expect(declaredNames(model.doGenerateCalls[0])).toEqual(['get_time', 'show_toast', 'tool_call', 'tool_describe', 'tool_search']);
    expect(seen).toEqual([['show_toast', { text: 'hi' }]]);
    expect(JSON.stringify(toolResults(model.doGenerateCalls[1]))).toContain('shown');
  });

  it('throws missing_client_handler without onClientCall for client tools, and invalid_options for a bad topK', async () => {
    const session = await open({ mode: 'tools' }, { client: [SHOW_TOAST] });
    const missing = (() => {
      try {
        return new ToolSearchSessionProcessor(session);
      } catch (error) {
        return error;
      }
    })();
    expect(isMastraProcessorError(missing) && missing.code).toBe('missing_client_handler');
    expect(() => new ToolSearchSessionProcessor(session, { onClientCall: () => 'ok', search: { topK: 0 } })).toThrow(expect.objectContaining({ code: 'invalid_options', path: 'search.topK' }));
  });
});
