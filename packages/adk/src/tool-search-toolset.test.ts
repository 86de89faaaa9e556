import { InMemorySessionService } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { APPROVAL_ID, approvalsAsked, DENIED_ID, executed, useFixtureSessions } from '@tool-search/adapter-fixtures';
import { isAdkError } from './errors.js';
import { declaredNames, finalText, functionResponses, runConversation, ScriptedLlm } from './internal/fixtures.js';
import { DEFAULT_LOADED_STATE_KEY, ToolSearchToolset } from './tool-search-toolset.js';

const open = useFixtureSessions();
const SHOW_TOAST = { name: 'show_toast', description: 'Show a toast in the UI.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };

describe('ToolSearchToolset', () => {
  it('declares the tools-mode control tools and runs a search and a tool_call through the session in ADK\'s loop', async () => {
    const session = await open({ mode: 'tools' });
    const model = new ScriptedLlm([
      { calls: [{ name: 'tool_search', args: { query: 'weather forecast' } }] },
      { calls: [{ name: 'tool_call', args: { id: 'openclaw:core:get_weather', args: { city: 'Paris' } } }] },
      { text: 'Rain in Paris.' },
    ]);
    const { events } = await runConversation(new ToolSearchToolset(session), model, ['Will it rain in Paris?']);
    expect(finalText(events)).toBe('Rain in Paris.');
    expect(model.requests.map(declaredNames)).toEqual(Array(3).fill(['tool_call', 'tool_describe', 'tool_search']));
    expect(model.requests[0]?.instruction).toContain('tool_search');
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    const responses = functionResponses(model.requests[2]);
    expect(responses.map((response) => response.name)).toEqual(['tool_search', 'tool_call']);
    expect(String(responses[0]?.response['result'])).toContain('openclaw:core:get_weather');
    expect(responses[1]?.response).toEqual({ result: 'Rain tomorrow in Paris.' });
    expect(session.telemetry().calls.map((call) => call.toolId)).toEqual(['openclaw:core:get_weather']);
  });

  it('declares tool_search_code in code mode and runs the code\'s calls through the session', async () => {
    const session = await open({ mode: 'code' });
    const code = "const hits = await tools.search('weather'); return await tools.call(hits[0].id, { city: 'Oslo' });";
    const model = new ScriptedLlm([{ calls: [{ name: 'tool_search_code', args: { code } }] }, { text: 'done' }]);
    await runConversation(new ToolSearchToolset(session), model, ['Weather in Oslo?']);
    expect(declaredNames(model.requests[0])).toEqual(['tool_search_code']);
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Oslo' } }]);
    expect(String(functionResponses(model.requests[1])[0]?.response['result'])).toContain('Rain tomorrow in Oslo.');
  });

  it('reaches a tool a directory session lists through tool_call with its listed name', async () => {
    const session = await open({ mode: 'directory' });
    const toolset = new ToolSearchToolset(session);
    expect(toolset.instruction()).toContain('get_weather');
    const model = new ScriptedLlm([{ calls: [{ name: 'tool_call', args: { id: 'get_weather', args: { city: 'Rome' } } }] }, { text: 'done' }]);
    await runConversation(toolset, model, ['Weather in Rome?']);
    expect(declaredNames(model.requests[0])).toEqual(['tool_call', 'tool_describe', 'tool_search']);
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Rome' } }]);
  });

  it('defers a direct session: tool_search loads its hits into the session state, declared from the next call on', async () => {
    const session = await open({ native: true });
    const model = new ScriptedLlm([
      { calls: [{ name: 'tool_search', args: { query: 'weather forecast' } }] },
      { calls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
      { text: 'Rain in Paris.' },
    ]);
    const toolset = new ToolSearchToolset(session);
    const { sessionService, sessionId } = await runConversation(toolset, model, ['Will it rain in Paris?']);
    expect(declaredNames(model.requests[0])).toEqual(['tool_search']);
    expect(declaredNames(model.requests[1])).toContain('get_weather');
    expect(declaredNames(model.requests[1])).not.toContain('exec_shell');
    expect(functionResponses(model.requests[1])[0]?.response).toMatchObject({ result: expect.stringContaining('Loaded') as unknown, tools: expect.arrayContaining([expect.objectContaining({ name: 'get_weather' })]) as unknown });
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(toolset.instruction()).toMatch(/^3 more tools are available/);
    const stored = await sessionService.getSession({ appName: 'tool-search-test', userId: 'user', sessionId });
    expect(stored?.state[DEFAULT_LOADED_STATE_KEY]).toContain('openclaw:core:get_weather');
    expect(stored?.state[DEFAULT_LOADED_STATE_KEY]).not.toContain(DENIED_ID);
    expect(session.telemetry().counts.searches).toBe(1);
  });

  it('keeps every load of searches the model made in parallel in one turn', async () => {
    const session = await open({ native: true });
    const model = new ScriptedLlm([
      { calls: [{ name: 'tool_search', args: { query: 'weather forecast', limit: 1 } }, { name: 'tool_search', args: { query: 'calendar event', limit: 1 } }] },
      { text: 'both loaded' },
    ]);
    const toolset = new ToolSearchToolset(session);
    const { sessionService, sessionId } = await runConversation(toolset, model, ['Weather and calendar']);
    expect(declaredNames(model.requests[1])).toEqual(['create_event', 'get_weather', 'tool_search']);
    const stored = await sessionService.getSession({ appName: 'tool-search-test', userId: 'user', sessionId });
    expect((stored?.state[DEFAULT_LOADED_STATE_KEY] as string[]).sort()).toEqual(['openclaw:core:create_event', 'openclaw:core:get_weather']);
  });

  it('keeps the loaded tools for a later turn served by a new runner and toolset on the same session service', async () => {
    const sessionService = new InMemorySessionService();
    const first = new ScriptedLlm([{ calls: [{ name: 'tool_search', args: { query: 'calendar event' } }] }, { text: 'found it' }]);
    const { sessionId } = await runConversation(new ToolSearchToolset(await open({ native: true })), first, ['Find a calendar tool'], { sessionService });
    // Another process: a new session of the host, a new toolset and runner; only the ADK session is shared.
    const second = new ScriptedLlm([{ calls: [{ name: 'create_event', args: { title: 'Dentist', date: '2026-12-04' } }] }, { text: 'created' }]);
    await runConversation(new ToolSearchToolset(await open({ native: true })), second, ['Book the dentist tomorrow'], { sessionService, sessionId });
    expect(declaredNames(second.requests[0])).toEqual(['create_event', 'tool_search']);
    expect(executed).toEqual([{ name: 'create_event', args: { title: 'Dentist', date: '2026-12-04' } }]);
    // Another ADK session of the same service has loaded nothing.
    const third = new ScriptedLlm([{ text: 'what tools?' }]);
    await runConversation(new ToolSearchToolset(await open({ native: true })), third, ['Book the dentist'], { sessionService });
    expect(declaredNames(third.requests[0])).toEqual(['tool_search']);
  });

  it('never declares, finds or runs a denied tool, in any mode', async () => {
    for (const config of [{ mode: 'tools' }, { mode: 'directory' }, { native: true }]) {
      const session = await open(config);
      const model = new ScriptedLlm([
        { calls: [{ name: 'tool_search', args: { query: 'run a shell command' } }] },
        { calls: [{ name: 'tool_search', args: { queries: ['shell', 'terminal'] } }] },
        { text: 'none' },
      ]);
      await runConversation(new ToolSearchToolset(session), model, ['Run ls']);
      // What the adapter hands the model (the model's own calls name the tool, of course).
      const handed = model.requests.map((request) => [request.declared, request.instruction, functionResponses(request)]);
      expect(JSON.stringify(handed)).not.toMatch(/exec_shell|shell command/);
      expect(functionResponses(model.requests[2]).map((response) => response.response['tools'] ?? response.response['result'])).toHaveLength(2);
    }
    const session = await open({ mode: 'tools' });
    const model = new ScriptedLlm([
      { calls: [{ name: 'tool_describe', args: { id: DENIED_ID } }] },
      { calls: [{ name: 'tool_call', args: { id: DENIED_ID, args: { command: 'ls' } } }] },
      { text: 'none' },
    ]);
    await runConversation(new ToolSearchToolset(session), model, ['Run ls']);
    const [described, called] = functionResponses(model.requests[2]);
    expect(described?.response['error']).toMatch(/unknown|not found/i);
    expect(called?.response['error']).toMatch(/unknown|not found/i);
    expect(JSON.stringify(functionResponses(model.requests[2]))).not.toContain('shell command');
    expect(executed).toEqual([]);
  });

  it('leaves a call of a denied tool by name to ADK, which has no such function and runs nothing', async () => {
    const session = await open({ native: true });
    const model = new ScriptedLlm([{ calls: [{ name: 'exec_shell', args: { command: 'ls' } }] }, { text: 'cannot' }]);
    const { events } = await runConversation(new ToolSearchToolset(session), model, ['Run ls']);
    expect(events.map((event) => event.errorMessage).filter(Boolean)).toEqual(['Function exec_shell is not found in the toolsDict.']);
    expect(declaredNames(model.requests[1])).toEqual(['tool_search']);
    expect(executed).toEqual([]);
  });

  it('blocks a call the approval provider refuses: nothing runs and the model reads why', async () => {
    for (const [config, call] of [
      [{ mode: 'tools' }, { name: 'tool_call', args: { id: APPROVAL_ID, args: { path: 'notes.txt' } } }],
      [{ native: true }, { name: 'tool_search', args: { query: 'delete a file' } }],
    ] as const) {
      const session = await open(config);
      const steps = config === undefined || !('native' in config) ? [{ calls: [call] }] : [{ calls: [call] }, { calls: [{ name: 'delete_file', args: { path: 'notes.txt' } }] }];
      const model = new ScriptedLlm([...steps, { text: 'could not' }]);
      await runConversation(new ToolSearchToolset(session), model, ['Delete notes.txt']);
      const responses = functionResponses(model.requests.at(-1));
      expect(responses.at(-1)?.response['error']).toContain('the user said no');
    }
    expect(approvalsAsked).toEqual([APPROVAL_ID, APPROVAL_ID]);
    expect(executed).toEqual([]);
  });

  it('hands a client tool call the session authorised to onClientCall, whose value is the function response', async () => {
    const session = await open({ mode: 'tools' }, { client: [SHOW_TOAST] });
    const seen: unknown[] = [];
    const toolset = new ToolSearchToolset(session, {
      onClientCall: (call, toolContext) => {
        seen.push([call.tool.name, call.args, typeof toolContext.functionCallId]);
        return { shown: true };
      },
    });
    const model = new ScriptedLlm([{ calls: [{ name: 'show_toast', args: { text: 'hi' } }] }, { text: 'done' }]);
    await runConversation(toolset, model, ['Say hi']);
    expect(declaredNames(model.requests[0])).toEqual(['show_toast', 'tool_call', 'tool_describe', 'tool_search']);
    expect(seen).toEqual([['show_toast', { text: 'hi' }, 'string']]);
    expect(functionResponses(model.requests[1])[0]?.response).toEqual({ shown: true });
  });

  it('throws missing_client_handler for a session with client tools and no onClientCall, and invalid_options for an empty stateKey', async () => {
    const session = await open({ mode: 'tools' }, { client: [SHOW_TOAST] });
    const missing = (() => {
      try {
        return new ToolSearchToolset(session);
      } catch (error) {
        return error;
      }
    })();
    expect(isAdkError(missing) && missing.code).toBe('missing_client_handler');
    expect(() => new ToolSearchToolset(session, { onClientCall: () => 'ok', stateKey: ' ' })).toThrow(expect.objectContaining({ code: 'invalid_options', path: 'stateKey' }));
  });

  it('declares each tool with its JSON Schema as written', async () => {
    const session = await open({ native: true });
    const model = new ScriptedLlm([{ calls: [{ name: 'tool_search', args: { query: 'weather' } }] }, { text: 'ok' }]);
    await runConversation(new ToolSearchToolset(session), model, ['weather?']);
    const weather = model.requests[1]?.declared.find((declaration) => declaration.name === 'get_weather');
    expect(weather?.parametersJsonSchema).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
  });
});
