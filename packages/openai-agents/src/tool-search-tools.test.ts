import { Agent, run, setTracingDisabled, type AgentOutputItem } from '@openai/agents';
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { describe, expect, it } from 'vitest';
import { isOpenAIAgentsError } from './errors.js';
import {
  declaredNames,
  DENIED_ID,
  executed,
  functionCall,
  functionOutput,
  IMAGE_TOOL,
  message,
  ScriptedModel,
  useFixtureSessions,
} from './internal/fixtures.js';
import { toolSearchTools } from './tool-search-tools.js';
import type { AgentToolsOptions } from './tool-search-tools.js';
import { scaledTimeout } from '@tool-search/property-settings';

setTracingDisabled(true);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);


const toasts: unknown[] = [];
const onClientCall: AgentToolsOptions['onClientCall'] = (call) => {
  toasts.push({ name: call.tool.name, args: call.args });
  return 'toast shown';
};

const open = useFixtureSessions();

async function drive(session: ToolSearchSession, steps: AgentOutputItem[][]) {
  const model = new ScriptedModel(steps);
  const surface = session.modelSurface();
  const agent = new Agent({ name: 'weather', instructions: surface.instructions, model, tools: toolSearchTools(session, { surface, onClientCall }) });
  const result = await run(agent, 'Will it rain in Paris?');
  return { model, result };
}

describe('toolSearchTools', () => {
  it('tools mode: tool_search then tool_call reach the tool, and the denied tool is neither declared, found nor run', async () => {
    const session = await open({ mode: 'tools' });
    const { model, result } = await drive(session, [
      [functionCall('c1', 'tool_search', { query: 'weather forecast for a city' })],
      [functionCall('c2', 'tool_call', { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }), functionCall('c3', 'tool_call', { id: DENIED_ID, args: { command: 'id' } })],
      [message('It will rain.')],
    ]);
    expect(result.finalOutput).toBe('It will rain.');
    expect(declaredNames(model.requests[0])).toEqual(['show_toast', 'tool_call', 'tool_describe', 'tool_search']);
    const hits = JSON.parse((functionOutput(model.requests[1], 'c1') as { text: string }).text) as { id: string }[];
    expect(hits[0]?.id).toBe('openclaw:core:get_weather');
    expect(hits.map((hit) => hit.id)).not.toContain(DENIED_ID);
    expect(functionOutput(model.requests[2], 'c2')).toEqual({ type: 'text', text: 'Rain tomorrow in Paris.' });
    expect(functionOutput(model.requests[2], 'c3')).toEqual({ type: 'text', text: expect.stringContaining(`No tool "${DENIED_ID}" is available to you`) });
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(JSON.stringify(model.requests.map((request) => request.tools))).not.toContain('exec_shell');
  });

  it('code mode: one tool_search_code run searches and calls inside the sandbox', async () => {
    const session = await open(true);
    const code = 'const hits = await tools.search("weather forecast for a city"); return await tools.call(hits[0].id, { city: "Oslo" });';
    const { model } = await drive(session, [[functionCall('c1', 'tool_search_code', { code })], [message('Rain in Oslo.')]]);
    expect(declaredNames(model.requests[0])).toEqual(['show_toast', 'tool_search_code']);
    const ran = functionOutput(model.requests[1], 'c1') as { text: string };
    expect(JSON.parse(ran.text)).toMatchObject({ value: { status: 'ok', result: 'Rain tomorrow in Oslo.' } });
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Oslo' } }]);
  }, scaledTimeout(30_000));

  it('directory mode: the directory names the tool and tool_call runs it by that name', async () => {
    const session = await open({ mode: 'directory' });
    const { model } = await drive(session, [[functionCall('c1', 'tool_call', { id: 'get_weather', args: { city: 'Rome' } })], [message('Rain in Rome.')]]);
    expect(model.requests[0]?.systemInstructions).toContain('- get_weather (core): Get the weather forecast for a city.');
    expect(model.requests[0]?.systemInstructions).not.toContain('exec_shell');
    expect(functionOutput(model.requests[1], 'c1')).toEqual({ type: 'text', text: 'Rain tomorrow in Rome.' });
  });

  it('direct mode: every allowed tool is declared with its schema and called by its name', async () => {
    const session = await open(false);
    const { model } = await drive(session, [[functionCall('c1', 'get_weather', { city: 'Lima' })], [message('Rain in Lima.')]]);
    expect(declaredNames(model.requests[0])).toEqual(['create_event', 'echo', 'get_tiny_image', 'get_weather', 'read_resource', 'show_toast']);
    expect(model.requests[0]?.tools.find((tool) => tool.name === 'get_weather')).toMatchObject({
      type: 'function',
      strict: false,
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: true },
    });
    expect(functionOutput(model.requests[1], 'c1')).toEqual({ type: 'text', text: 'Rain tomorrow in Lima.' });
  });

  it('runs a client tool through onClientCall with the arguments the session authorised', async () => {
    toasts.length = 0;
    const session = await open({ mode: 'tools' });
    const { model } = await drive(session, [[functionCall('c1', 'show_toast', { text: 'Rain in Paris' })], [message('Done.')]]);
    expect(toasts).toEqual([{ name: 'show_toast', args: { text: 'Rain in Paris' } }]);
    expect(functionOutput(model.requests[1], 'c1')).toEqual({ type: 'text', text: 'toast shown' });
    expect(session.telemetry().calls).toEqual([expect.objectContaining({ toolId: 'client:client:show_toast', via: 'client', status: 'client' })]);
  });

  it('refuses a session with client tools and no onClientCall', async () => {
    const session = await open({ mode: 'tools' });
    const error = (() => {
      try {
        toolSearchTools(session);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isOpenAIAgentsError(error) && error.code).toBe('missing_client_handler');
    expect((error as Error).message).toContain('show_toast');
    const plain = await open({ mode: 'tools' }, { client: false });
    expect(toolSearchTools(plain).map((tool) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
  });

  it('never runs a denied tool the model calls by name', async () => {
    const session = await open(false);
    const outcome = await drive(session, [[functionCall('c1', 'exec_shell', { command: 'id' })], [message('Sorry.')]]).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toContain('exec_shell');
    expect(executed).toEqual([]);
  });

  // Every mode: what the model is offered never names the denied tool, a client call reaches onClientCall, and an
  // image result (reached the way the mode reaches tools) arrives as an input image.
  const CONFIGS = { code: true, tools: { mode: 'tools' }, directory: { mode: 'directory' }, direct: false } as const;
  const IMAGE_CALL = {
    tools: ['tool_call', { id: `mcp:everything:${IMAGE_TOOL}`, args: {} }],
    directory: ['tool_call', { id: IMAGE_TOOL, args: {} }],
    direct: ['get_tiny_image', {}],
  } as const;

  for (const mode of ['code', 'tools', 'directory', 'direct'] as const) {
    it(`${mode} mode: never offers the denied tool and runs a client call through onClientCall`, async () => {
      toasts.length = 0;
      const session = await open(CONFIGS[mode]);
      expect(session.decision.mode).toBe(mode);
      const { model } = await drive(session, [[functionCall('c1', 'show_toast', { text: 'hi' })], [message('Done.')]]);
      expect(JSON.stringify([model.requests[0]?.tools, model.requests[0]?.systemInstructions])).not.toContain('exec_shell');
      expect(toasts).toEqual([{ name: 'show_toast', args: { text: 'hi' } }]);
      expect(functionOutput(model.requests[1], 'c1')).toEqual({ type: 'text', text: 'toast shown' });
    });
  }

  for (const mode of ['tools', 'directory', 'direct'] as const) {
    it(`${mode} mode: an MCP image result reaches the next model call as an input image`, async () => {
      const session = await open(CONFIGS[mode]);
      const [name, input] = IMAGE_CALL[mode];
      const { model } = await drive(session, [[functionCall('c1', name, input)], [message('A tiny image.')]]);
      const output = functionOutput(model.requests[1], 'c1') as Array<Record<string, unknown>>;
      expect(output[0]).toMatchObject({ type: 'input_text', text: expect.stringContaining('[image image/png') });
      const images = output.filter((item) => item['type'] === 'input_image');
      expect(images).toHaveLength(1);
      const url = String(images[0]?.['image']);
      expect(url.startsWith('data:image/png;base64,')).toBe(true);
      expect(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64').subarray(0, 8)).toEqual(PNG_SIGNATURE);
    }, scaledTimeout(30_000));
  }
});
