import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { describe, expect, it } from 'vitest';
import { callStep, declaredNames, DENIED_ID, executed, IMAGE_TOOL, textStep, toolResults, useFixtureSessions } from './internal/fixtures.js';
import { toolSearchTools } from './tool-search-tools.js';
import { scaledTimeout } from '@tool-search/property-settings';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const open = useFixtureSessions();

async function drive(session: ToolSearchSession, steps: ReturnType<typeof textStep>[]) {
  const model = new MockLanguageModelV3({ doGenerate: steps });
  const surface = session.modelSurface();
  const result = await generateText({ model, system: surface.instructions, tools: toolSearchTools(session, { surface }), stopWhen: stepCountIs(8), prompt: 'Will it rain in Paris?' });
  return { model, result };
}

describe('toolSearchTools', () => {
  it('tools mode: tool_search then tool_call reach the tool, and the denied tool is neither declared, found nor run', async () => {
    const session = await open({ mode: 'tools' });
    const { model, result } = await drive(session, [
      callStep(['c1', 'tool_search', { query: 'weather forecast for a city' }]),
      callStep(['c2', 'tool_call', { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }], ['c3', 'tool_call', { id: DENIED_ID, args: { command: 'id' } }]),
      textStep('It will rain.'),
    ]);
    expect(result.text).toBe('It will rain.');
    expect(declaredNames(model.doGenerateCalls[0])).toEqual(['show_toast', 'tool_call', 'tool_describe', 'tool_search']);
    const searched = toolResults(model.doGenerateCalls[1]).get('c1') as { type: string; value: string };
    expect(searched.type).toBe('text');
    const hitIds = (JSON.parse(searched.value) as { id: string }[]).map((hit) => hit.id);
    expect(hitIds[0]).toBe('openclaw:core:get_weather');
    expect(hitIds).not.toContain(DENIED_ID);
    const answered = toolResults(model.doGenerateCalls[2]);
    expect(answered.get('c2')).toEqual({ type: 'text', value: 'Rain tomorrow in Paris.' });
    expect(answered.get('c3')).toMatchObject({ type: 'error-text', value: expect.stringContaining(`No tool "${DENIED_ID}" is available to you`) });
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(JSON.stringify(model.doGenerateCalls.map((call) => call.tools))).not.toContain('exec_shell');
  });

  it('code mode: one tool_search_code run searches and calls inside the sandbox', async () => {
    const session = await open(true);
    expect(session.decision.mode).toBe('code');
    const code = 'const hits = await tools.search("weather forecast for a city"); return await tools.call(hits[0].id, { city: "Oslo" });';
    const { model, result } = await drive(session, [callStep(['c1', 'tool_search_code', { code }]), textStep('Rain in Oslo.')]);
    expect(result.steps).toHaveLength(2);
    expect(declaredNames(model.doGenerateCalls[0])).toEqual(['show_toast', 'tool_search_code']);
    const ran = toolResults(model.doGenerateCalls[1]).get('c1') as { type: string; value: string };
    expect(ran.type).toBe('text');
    expect(JSON.parse(ran.value)).toMatchObject({ value: { status: 'ok', result: 'Rain tomorrow in Oslo.' } });
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Oslo' } }]);
  }, scaledTimeout(30_000));

  it('directory mode: the directory names the tool and tool_call runs it by that name', async () => {
    const session = await open({ mode: 'directory' });
    const { model } = await drive(session, [callStep(['c1', 'tool_call', { id: 'get_weather', args: { city: 'Rome' } }]), textStep('Rain in Rome.')]);
    expect(model.doGenerateCalls[0]?.prompt[0]).toMatchObject({ role: 'system', content: expect.stringContaining('- get_weather (core): Get the weather forecast for a city.') });
    expect(model.doGenerateCalls[0]?.prompt[0]).not.toMatchObject({ content: expect.stringContaining('exec_shell') });
    expect(toolResults(model.doGenerateCalls[1]).get('c1')).toEqual({ type: 'text', value: 'Rain tomorrow in Rome.' });
  });

  it('direct mode: every allowed tool is declared with its schema and called by its name', async () => {
    const session = await open(false);
    const { model } = await drive(session, [callStep(['c1', 'get_weather', { city: 'Lima' }]), textStep('Rain in Lima.')]);
    expect(declaredNames(model.doGenerateCalls[0])).toEqual(['create_event', 'echo', 'get-tiny-image', 'get_weather', 'read_resource', 'show_toast']);
    expect(model.doGenerateCalls[0]?.tools?.find((tool) => tool.name === 'get_weather')).toMatchObject({
      type: 'function',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
    expect(toolResults(model.doGenerateCalls[1]).get('c1')).toEqual({ type: 'text', value: 'Rain tomorrow in Lima.' });
  });

  it('never runs a denied tool the model calls by name', async () => {
    const session = await open(false);
    const { model, result } = await drive(session, [callStep(['c1', 'exec_shell', { command: 'id' }]), textStep('Sorry.')]);
    expect(result.steps[0]?.content).toContainEqual(expect.objectContaining({ type: 'tool-error', toolName: 'exec_shell' }));
    expect(toolResults(model.doGenerateCalls[1]).get('c1')).toMatchObject({ type: 'error-text' });
    expect(executed).toEqual([]);
    expect(session.telemetry().calls).toEqual([]);
  });

  it('hands client tool calls back to the caller, whose session.execute authorises them', async () => {
    const session = await open({ mode: 'tools' });
    const { model, result } = await drive(session, [callStep(['c1', 'show_toast', { text: 'Rain in Paris' }]), textStep('unreached')]);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toEqual([expect.objectContaining({ toolCallId: 'c1', toolName: 'show_toast', input: { text: 'Rain in Paris' }, dynamic: true })]);
    expect(result.toolResults).toEqual([]);
    const call = result.toolCalls[0]!;
    expect(await session.execute({ name: call.toolName, args: call.input, toolCallId: call.toolCallId })).toMatchObject({
      status: 'client',
      tool: { id: 'client:client:show_toast' },
      args: { text: 'Rain in Paris' },
    });
  });

  // Every mode: what the model is offered never names the denied tool, a client call comes back, and an image result
  // (reached the way the mode reaches tools) arrives as an image part.
  const IMAGE_CALL = {
    tools: ['tool_call', { id: `mcp:everything:${IMAGE_TOOL}`, args: {} }],
    directory: ['tool_call', { id: IMAGE_TOOL, args: {} }],
    direct: [IMAGE_TOOL, {}],
  } as const;
  const CONFIGS = { code: true, tools: { mode: 'tools' }, directory: { mode: 'directory' }, direct: false } as const;

  for (const mode of ['code', 'tools', 'directory', 'direct'] as const) {
    it(`${mode} mode: never offers the denied tool and hands a client call back`, async () => {
      const session = await open(CONFIGS[mode]);
      expect(session.decision.mode).toBe(mode);
      const { model, result } = await drive(session, [callStep(['c1', 'show_toast', { text: 'hi' }]), textStep('unreached')]);
      expect(JSON.stringify([model.doGenerateCalls[0]?.tools, model.doGenerateCalls[0]?.prompt])).not.toContain('exec_shell');
      expect(result.toolCalls).toEqual([expect.objectContaining({ toolName: 'show_toast', input: { text: 'hi' } })]);
      expect(model.doGenerateCalls).toHaveLength(1);
    });
  }

  for (const mode of ['tools', 'directory', 'direct'] as const) {
    it(`${mode} mode: an MCP image result reaches the next model call as an image part`, async () => {
      const session = await open(CONFIGS[mode]);
      const [name, input] = IMAGE_CALL[mode];
      const { model } = await drive(session, [callStep(['c1', name, input]), textStep('An image.')]);
      const output = toolResults(model.doGenerateCalls[1]).get('c1') as { type: string; value: Array<Record<string, unknown>> };
      expect(output.value[0]).toMatchObject({ type: 'text', text: expect.stringContaining('[image image/png') });
      const media = output.value.filter((part) => part.type !== 'text');
      // The language model spec v3 carries a tool result's media as `file-data` with the media type.
      expect(media).toEqual([{ type: 'file-data', mediaType: 'image/png', data: expect.any(String) }]);
      expect(Buffer.from(media[0]?.['data'] as string, 'base64').subarray(0, 8)).toEqual(PNG_SIGNATURE);
    }, scaledTimeout(30_000));
  }
});
