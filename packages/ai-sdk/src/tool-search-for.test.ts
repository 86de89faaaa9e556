import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { isToolSearchError, type ToolSearchSession } from '@tool-search/gateway-adapter';
import { describe, expect, it } from 'vitest';
import { isAiSdkError } from './errors.js';
import { callStep, declaredNames, DENIED_ID, executed, IMAGE_TOOL, textStep, toolResults, useFixtureSessions, type ScriptedStep } from './internal/fixtures.js';
import { toolSearchFor } from './tool-search-for.js';
import { scaledTimeout } from '@tool-search/property-settings';

const openSession = useFixtureSessions();
const open = (config: unknown = { native: true }) => openSession(config);

async function drive(session: ToolSearchSession, steps: ScriptedStep[], options: { maxResults?: number } = {}) {
  const model = new MockLanguageModelV3({ doGenerate: steps });
  const result = await generateText({ model, tools: toolSearchFor(session, options), stopWhen: stepCountIs(8), prompt: 'Will it rain in Paris?' });
  return { model, result };
}

describe('toolSearchFor', () => {
  it('declares only the search and client tools first, loads the best allowed match, and the loaded tool runs', async () => {
    const session = await open();
    const { model, result } = await drive(session, [
      callStep(['c1', 'tool_search', { query: 'weather forecast for a city' }]),
      callStep(['c2', 'get_weather', { city: 'Paris' }]),
      textStep('It will rain.'),
    ], { maxResults: 1 });
    expect(result.text).toBe('It will rain.');
    expect(declaredNames(model.doGenerateCalls[0])).toEqual(['show_toast', 'tool_search']);
    expect(toolResults(model.doGenerateCalls[1]).get('c1')).toEqual({ type: 'json', value: { tools: [{ name: 'get_weather', description: 'Get the weather forecast for a city.' }] } });
    expect(declaredNames(model.doGenerateCalls[1])).toEqual(['get_weather', 'show_toast', 'tool_search']);
    expect(toolResults(model.doGenerateCalls[2]).get('c2')).toEqual({ type: 'text', value: 'Rain tomorrow in Paris.' });
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(session.telemetry().counts.searches).toBe(1);
  });

  it('never declares, finds or runs a denied tool, even for a query that matches it best', async () => {
    const session = await open();
    const { model } = await drive(session, [
      callStep(['c1', 'tool_search', { query: 'run a shell command on the host' }]),
      callStep(['c2', 'exec_shell', { command: 'id' }]),
      textStep('Cannot.'),
    ]);
    const found = toolResults(model.doGenerateCalls[1]).get('c1') as { value: { tools: { name: string }[] } };
    expect(found.value.tools.map((tool) => tool.name)).not.toContain('exec_shell');
    expect(toolResults(model.doGenerateCalls[2]).get('c2')).toMatchObject({ type: 'error-text' });
    expect(JSON.stringify(model.doGenerateCalls.map((call) => call.tools))).not.toContain('exec_shell');
    expect(JSON.stringify(session.search('run a shell command on the host'))).not.toContain(DENIED_ID);
    expect(executed).toEqual([]);
  });

  it('loads at most maxResults tools per search, by default the session search limit', async () => {
    const limited = await open({ native: true, searchDefaultLimit: 2 });
    const tools = toolSearchFor(limited);
    expect(tools['tool_search']?.description).toContain('Returns up to 2 matching tools');
    const { model } = await drive(limited, [callStep(['c1', 'tool_search', { query: 'weather calendar event echo image' }]), textStep('ok')]);
    expect((toolResults(model.doGenerateCalls[1]).get('c1') as { value: { tools: unknown[] } }).value.tools).toHaveLength(2);
    expect(toolSearchFor(limited, { maxResults: 500 })['tool_search']?.description).toContain(`Returns up to ${limited.searchLimits.maxSearchLimit} matching tools`);
  });

  it('hands a client tool call back to the caller without running anything', async () => {
    const session = await open();
    const { result } = await drive(session, [callStep(['c1', 'show_toast', { text: 'hi' }]), textStep('unreached')]);
    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toEqual([expect.objectContaining({ toolName: 'show_toast', input: { text: 'hi' } })]);
    expect(result.toolResults).toEqual([]);
  });

  it('passes a loaded MCP image tool result to the next model call as an image file part', async () => {
    const session = await open();
    const { model } = await drive(session, [
      callStep(['c1', 'tool_search', { query: 'tiny image' }]),
      callStep(['c2', IMAGE_TOOL, {}]),
      textStep('An image.'),
    ]);
    expect(declaredNames(model.doGenerateCalls[1])).toContain(IMAGE_TOOL);
    const output = toolResults(model.doGenerateCalls[2]).get('c2') as { type: string; value: Array<Record<string, unknown>> };
    expect(output.type).toBe('content');
    expect(output.value.filter((part) => part.type !== 'text')).toEqual([{ type: 'file-data', mediaType: 'image/png', data: expect.any(String) }]);
  }, scaledTimeout(30_000));

  it('refuses a session that does not declare every allowed tool, and a bad maxResults', async () => {
    const tools = await open({ mode: 'tools' });
    expect(() => toolSearchFor(tools)).toThrow(expect.objectContaining({ code: 'wrong_mode', message: expect.stringContaining('received a tools mode session') }));
    const direct = await open();
    const error = (() => {
      try {
        toolSearchFor(direct, { maxResults: 0 });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isAiSdkError(error) && error.code).toBe('invalid_options');
    expect((error as Error).message).toBe('maxResults must be an integer >= 1, received 0');
    // The error contract every Tool Search package keeps: the shared brand, the class name, a path.
    expect(isToolSearchError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'AiSdkError', path: 'maxResults' });
  });
});
