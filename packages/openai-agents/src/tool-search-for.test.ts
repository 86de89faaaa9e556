import { Agent, run, setTracingDisabled, type AgentOutputItem } from '@openai/agents';
import { isToolSearchError, type ToolSearchSession } from '@tool-search/gateway-adapter';
import { describe, expect, it } from 'vitest';
import {
  declaredNames,
  DENIED_ID,
  executed,
  functionCall,
  functionOutput,
  inputItems,
  loadedNames,
  message,
  ScriptedModel,
  searchCall,
  useFixtureSessions,
} from './internal/fixtures.js';
import { isOpenAIAgentsError } from './errors.js';
import { toolSearchFor } from './tool-search-for.js';
import { scaledTimeout } from '@tool-search/property-settings';

setTracingDisabled(true);

const openSession = useFixtureSessions();
const open = (config: unknown = { native: true }) => openSession(config);

const toasts: unknown[] = [];

async function drive(session: ToolSearchSession, steps: AgentOutputItem[][]) {
  const model = new ScriptedModel(steps);
  const tools = toolSearchFor(session, { onClientCall: (call) => (toasts.push(call.args), 'shown') });
  const result = await run(new Agent({ name: 'weather', model, tools }), 'Will it rain in Paris?');
  return { model, result };
}

/** The names of the tools a client tool_search output loaded, in order. */
function searchOutputNames(request: ScriptedModel['requests'][number] | undefined): string[] {
  return inputItems(request, 'tool_search_output').flatMap((item) => (item['tools'] as Array<{ name: string }>).map((tool) => tool.name));
}

describe('toolSearchFor', () => {
  it('defers the allowed catalog tools behind a client tool_search that our search answers, and a loaded tool runs', async () => {
    const session = await open();
    const { model, result } = await drive(session, [
      [searchCall('ts1', { query: 'weather forecast for a city', limit: 1 })],
      [functionCall('c2', 'get_weather', { city: 'Paris' })],
      [message('It will rain.')],
    ]);
    expect(result.finalOutput).toBe('It will rain.');
    const first = model.requests[0];
    expect(declaredNames(first)).toEqual(['create_event', 'echo', 'get_tiny_image', 'get_weather', 'read_resource', 'show_toast', 'tool_search']);
    expect(loadedNames(first)).toEqual(['show_toast']);
    expect(first?.tools.find((tool) => tool.name === 'tool_search')).toMatchObject({
      type: 'hosted_tool',
      providerData: { type: 'tool_search', execution: 'client', description: expect.stringContaining('call them directly by name'), parameters: { type: 'object', properties: { query: { type: ['string', 'null'] } }, required: expect.arrayContaining(['query']), additionalProperties: false } },
    });
    expect(searchOutputNames(model.requests[1])).toEqual(['get_weather']);
    expect(functionOutput(model.requests[2], 'c2')).toEqual({ type: 'text', text: 'Rain tomorrow in Paris.' });
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(session.telemetry().counts.searches).toBe(1);
  });

  it('never declares, finds or runs a denied tool, even for a query that matches it best', async () => {
    const session = await open();
    const { model } = await drive(session, [[searchCall('ts1', { query: 'run a shell command on the host' })], [message('Cannot.')]]);
    expect(searchOutputNames(model.requests[1])).not.toContain('exec_shell');
    expect(JSON.stringify(model.requests.map((request) => [request.tools, request.input]))).not.toContain('exec_shell');
    expect(JSON.stringify(session.search('run a shell command on the host'))).not.toContain(DENIED_ID);
    expect(executed).toEqual([]);
  });

  it('loads the session search limit by default, runs several queries, and loads nothing for arguments it cannot read', async () => {
    const session = await open({ native: true, searchDefaultLimit: 2 });
    const { model } = await drive(session, [
      [searchCall('ts1', { query: 'weather calendar event echo image' })],
      [searchCall('ts2', { queries: ['calendar event', 'echo back a message'], limit: 1 })],
      [searchCall('ts3', { wanted: 'weather' })],
      [message('ok')],
    ]);
    const outputs = inputItems(model.requests[3], 'tool_search_output').map((item) => (item['tools'] as Array<{ name: string }>).map((tool) => tool.name));
    expect(outputs[0]).toHaveLength(2);
    expect(outputs[1]).toEqual(['create_event', 'echo']);
    expect(outputs[2]).toEqual([]);
    expect(session.telemetry().counts.searches).toBe(3);
  });

  it('runs a client tool through onClientCall', async () => {
    toasts.length = 0;
    const session = await open();
    const { model } = await drive(session, [[functionCall('c1', 'show_toast', { text: 'hi' })], [message('Done.')]]);
    expect(toasts).toEqual([{ text: 'hi' }]);
    expect(functionOutput(model.requests[1], 'c1')).toEqual({ type: 'text', text: 'shown' });
  });

  it('passes a loaded MCP image tool result to the next model call as an input image', async () => {
    const session = await open();
    const { model } = await drive(session, [[searchCall('ts1', { query: 'tiny image' })], [functionCall('c2', 'get_tiny_image', {})], [message('An image.')]]);
    expect(searchOutputNames(model.requests[1])).toContain('get_tiny_image');
    const output = functionOutput(model.requests[2], 'c2') as Array<Record<string, unknown>>;
    expect(output.filter((item) => item['type'] === 'input_image')).toEqual([expect.objectContaining({ image: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/) })]);
  }, scaledTimeout(30_000));

  it('refuses a session that does not declare every allowed tool', async () => {
    const session = await open({ mode: 'tools' });
    expect(() => toolSearchFor(session, { onClientCall: () => '' })).toThrow(expect.objectContaining({ code: 'wrong_mode', message: expect.stringContaining('received a tools mode session') }));
    // The error contract every Tool Search package keeps: the shared brand and the class name.
    const error = (() => {
      try {
        toolSearchFor(session, { onClientCall: () => '' });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isToolSearchError(error) && isOpenAIAgentsError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'OpenAIAgentsError', path: undefined });
  });
});
