import { describe, expect, it } from 'vitest';
import { agentWith, declaredNames, executed, scriptedModel, systemText, toolResults, useFixtureSessions } from './internal/fixtures.js';
import { ToolSearchSessionProcessor } from './tool-search-session-processor.js';

const open = useFixtureSessions();

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
    expect(systemText(model.doGenerateCalls[0])).toContain('tool_search');
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(JSON.stringify(toolResults(model.doGenerateCalls[2]))).toContain('Rain tomorrow in Paris.');
  });
});
