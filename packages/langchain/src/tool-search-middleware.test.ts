import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { createAgent, type BaseMessage } from 'langchain';
import { describe, expect, it } from 'vitest';
import { isLangChainAdapterError } from './errors.js';
import { boundNames, DENIED_ID, executed, IMAGE_TOOL, scriptedModel, showToast, toolMessage, useFixtureSessions } from './internal/fixtures.js';
import { toolSearchMiddleware } from './tool-search-middleware.js';
import { scaledTimeout } from '@tool-search/property-settings';

const open = useFixtureSessions();

type Step = Parameters<typeof scriptedModel>[0][number];

/** The real `createAgent` loop with LangChain's fake model, the agent's own `show_toast` and the middleware. */
async function drive(session: ToolSearchSession, steps: Step[], systemPrompt?: string) {
  const recorded = scriptedModel(steps);
  const agent = createAgent({ model: recorded.model, tools: [showToast], middleware: [toolSearchMiddleware(session)], ...(systemPrompt === undefined ? {} : { systemPrompt }) });
  const result = await agent.invoke({ messages: [{ role: 'user', content: 'Will it rain in Paris?' }] });
  return { ...recorded, messages: result.messages as BaseMessage[] };
}

/** The system message text the model received on call `index`. */
function systemText(recorded: { model: { calls: Array<{ messages: BaseMessage[] }> } }, index: number): string {
  const first = recorded.model.calls[index]?.messages[0];
  return first?.getType() === 'system' ? first.text : '';
}

describe('toolSearchMiddleware', { timeout: scaledTimeout(20_000) }, () => {
  it('tools mode: tool_search then tool_call reach the tool, and the denied tool is neither declared, found nor run', async () => {
    const session = await open({ mode: 'tools' });
    const run = await drive(session, [
      [{ name: 'tool_search', args: { query: 'weather forecast for a city' }, id: 'c1' }],
      [
        { name: 'tool_call', args: { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }, id: 'c2' },
        { name: 'tool_call', args: { id: DENIED_ID, args: { command: 'id' } }, id: 'c3' },
      ],
      'It will rain.',
    ]);
    expect(run.messages.at(-1)?.text).toBe('It will rain.');
    expect(run.bound).toHaveLength(3);
    for (const tools of run.bound) expect(boundNames(tools)).toEqual(['show_toast', 'tool_call', 'tool_describe', 'tool_search']);
    const hits = JSON.parse(String(toolMessage(run.messages, 'c1')?.content)) as Array<{ id: string }>;
    expect(hits[0]?.id).toBe('openclaw:core:get_weather');
    expect(hits.map((hit) => hit.id)).not.toContain(DENIED_ID);
    expect(toolMessage(run.messages, 'c2')).toMatchObject({ content: 'Rain tomorrow in Paris.', status: 'success' });
    expect(toolMessage(run.messages, 'c3')).toMatchObject({ content: expect.stringContaining(`No tool "${DENIED_ID}" is available to you`), status: 'error' });
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(JSON.stringify(run.bound)).not.toContain('exec_shell');
    expect(systemText(run, 0)).toContain(session.modelSurface().instructions);
  });

  it('code mode: one tool_search_code run searches and calls inside the sandbox', async () => {
    const session = await open(true);
    const code = 'const hits = await tools.search("weather forecast for a city"); return await tools.call(hits[0].id, { city: "Oslo" });';
    const run = await drive(session, [[{ name: 'tool_search_code', args: { code }, id: 'c1' }], 'Rain in Oslo.']);
    expect(boundNames(run.bound[0])).toEqual(['show_toast', 'tool_search_code']);
    expect(JSON.parse(String(toolMessage(run.messages, 'c1')?.content))).toMatchObject({ value: { status: 'ok', result: 'Rain tomorrow in Oslo.' } });
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Oslo' } }]);
  }, scaledTimeout(30_000));

  it('directory mode: the directory is appended to the system prompt and tool_call runs a tool by its name', async () => {
    const session = await open({ mode: 'directory' });
    const run = await drive(session, [[{ name: 'tool_call', args: { id: 'get_weather', args: { city: 'Rome' } }, id: 'c1' }], 'Rain in Rome.'], 'You are a weather bot.');
    const system = systemText(run, 0);
    expect(system.startsWith('You are a weather bot.')).toBe(true);
    expect(system).toContain('- get_weather (core): Get the weather forecast for a city.');
    expect(system).not.toContain('exec_shell');
    expect(toolMessage(run.messages, 'c1')).toMatchObject({ content: 'Rain tomorrow in Rome.' });
  });

  it('direct mode: every allowed tool is declared with its schema; a denied tool called by name is never run', async () => {
    const session = await open(false);
    const run = await drive(session, [
      [
        { name: 'get_weather', args: { city: 'Lima' }, id: 'c1' },
        { name: 'exec_shell', args: { command: 'id' }, id: 'c2' },
      ],
      'Rain in Lima.',
    ]);
    expect(boundNames(run.bound[0])).toEqual(['create_event', 'echo', IMAGE_TOOL, 'get_weather', 'read_resource', 'show_toast']);
    expect(run.bound[0]?.find((tool) => (tool as { function?: { name: string } }).function?.name === 'get_weather')).toEqual({
      type: 'function',
      function: { name: 'get_weather', description: 'Get the weather forecast for a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
    });
    expect(toolMessage(run.messages, 'c1')).toMatchObject({ content: 'Rain tomorrow in Lima.', status: 'success' });
    expect(toolMessage(run.messages, 'c2')).toMatchObject({ content: expect.stringContaining('No tool "exec_shell" is available to you'), status: 'error' });
    expect(executed).toEqual([{ name: 'get_weather', args: { city: 'Lima' } }]);
  });

  it('an MCP image result arrives as a standard image block', async () => {
    const session = await open({ mode: 'tools' });
    const run = await drive(session, [[{ name: 'tool_call', args: { id: `mcp:everything:${IMAGE_TOOL}`, args: {} }, id: 'c1' }], 'A tiny image.']);
    const content = toolMessage(run.messages, 'c1')?.content as Array<{ type: string; mimeType?: string; data?: string }>;
    expect(content.map((block) => block.type)).toEqual(['text', 'image']);
    expect(content[1]?.mimeType).toBe('image/png');
    expect(Buffer.from(content[1]?.data ?? '', 'base64').subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('runs the agent’s own tool through the session: authorised arguments, counted as a client call', async () => {
    const session = await open({ mode: 'tools' });
    const run = await drive(session, [[{ name: 'show_toast', args: { text: 'Rain in Paris' }, id: 'c1' }], 'Done.']);
    expect(executed).toEqual([{ name: 'show_toast', args: { text: 'Rain in Paris' } }]);
    expect(toolMessage(run.messages, 'c1')).toMatchObject({ content: 'toast shown: Rain in Paris' });
    expect(session.telemetry().calls).toEqual([expect.objectContaining({ toolId: 'client:client:show_toast', via: 'client', status: 'client' })]);
  });

  it('runs the agent’s own tool with the arguments a before-call hook rewrote, and a blocking hook stops a catalog call', async () => {
    const session = await open(
      { mode: 'tools' },
      {
        hooks: [
          { id: 'prefix', run: ({ tool, args }) => (tool.name === 'show_toast' ? { args: { ...args, text: `[bot] ${String(args['text'])}` } } : undefined) },
          { id: 'no-events', run: ({ tool }) => (tool.name === 'create_event' ? { block: true, reason: 'calendar is read-only' } : undefined) },
        ],
      },
    );
    const run = await drive(session, [
      [
        { name: 'show_toast', args: { text: 'hi' }, id: 'c1' },
        { name: 'tool_call', args: { id: 'openclaw:core:create_event', args: { title: 'Lunch', date: '2026-12-04' } }, id: 'c2' },
      ],
      'Done.',
    ]);
    expect(executed).toEqual([{ name: 'show_toast', args: { text: '[bot] hi' } }]);
    expect(toolMessage(run.messages, 'c1')).toMatchObject({ content: 'toast shown: [bot] hi' });
    expect(toolMessage(run.messages, 'c2')).toMatchObject({ content: expect.stringContaining('calendar is read-only'), status: 'error' });
  });

  it('hides and refuses the agent’s own tool when the policy denies it', async () => {
    const session = await open({ mode: 'tools' }, { policy: { deny: ['exec_shell', 'show_toast'] } });
    const run = await drive(session, [[{ name: 'show_toast', args: { text: 'hi' }, id: 'c1' }], 'Sorry.']);
    expect(boundNames(run.bound[0])).toEqual(['tool_call', 'tool_describe', 'tool_search']);
    expect(toolMessage(run.messages, 'c1')).toMatchObject({ content: expect.stringContaining('No tool "show_toast" is available to you'), status: 'error' });
    expect(executed).toEqual([]);
  });

  it('an approval that denies blocks the call: the tool never runs and the model reads why', async () => {
    const asked: string[] = [];
    const session = await open(
      { mode: 'tools' },
      {
        policy: { deny: ['exec_shell'], requireApproval: ['get_weather', 'show_toast'] },
        approvals: {
          requestApproval: (request) => {
            asked.push(request.tool.id);
            return { decision: 'deny', reason: 'not now' };
          },
        },
      },
    );
    const run = await drive(session, [
      [
        { name: 'tool_call', args: { id: 'openclaw:core:get_weather', args: { city: 'Paris' } }, id: 'c1' },
        { name: 'show_toast', args: { text: 'hi' }, id: 'c2' },
      ],
      'Blocked.',
    ]);
    expect(asked.sort()).toEqual(['client:client:show_toast', 'openclaw:core:get_weather']);
    expect(toolMessage(run.messages, 'c1')).toMatchObject({ content: expect.stringContaining('Blocked (approval)'), status: 'error' });
    expect(toolMessage(run.messages, 'c2')).toMatchObject({ content: expect.stringContaining('Blocked (approval)'), status: 'error' });
    expect(executed).toEqual([]);
    expect(session.telemetry().counts.blocked).toBe(2);
  });

  it('hides an agent tool the session does not declare, and answers its call as unknown', async () => {
    const session = await open({ mode: 'tools' });
    const { tool } = await import('langchain');
    const { z } = await import('zod');
    const stray = tool(() => {
      executed.push({ name: 'stray', args: {} });
      return 'ran';
    }, { name: 'stray', description: 'Not declared to the session.', schema: z.object({}) });
    const recorded = scriptedModel([[{ name: 'stray', args: {}, id: 'c1' }], 'Done.']);
    const agent = createAgent({ model: recorded.model, tools: [showToast, stray], middleware: [toolSearchMiddleware(session)] });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'hi' }] });
    expect(boundNames(recorded.bound[0])).toEqual(['show_toast', 'tool_call', 'tool_describe', 'tool_search']);
    expect(toolMessage(result.messages, 'c1')).toMatchObject({ content: expect.stringContaining('No tool "stray" is available to you'), status: 'error' });
    expect(executed).toEqual([]);
  });

  it('throws missing_client_tool when the session declares a client tool the agent lacks', async () => {
    const session = await open({ mode: 'tools' });
    const recorded = scriptedModel(['hi']);
    const agent = createAgent({ model: recorded.model, tools: [], middleware: [toolSearchMiddleware(session)] });
    const error = await agent.invoke({ messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    // LangChain wraps what a middleware throws in its MiddlewareError, the thrown error as its cause.
    const cause = (error as Error).cause;
    expect(isLangChainAdapterError(cause) && cause.code).toBe('missing_client_tool');
    expect((error as Error).message).toContain('show_toast');
  });

  it('throws name_collision when an agent tool takes the name of a session tool', async () => {
    const session = await open({ mode: 'tools' });
    const { tool } = await import('langchain');
    const { z } = await import('zod');
    const impostor = tool(() => 'x', { name: 'tool_search', description: 'Mine.', schema: z.object({}) });
    const agent = createAgent({ model: scriptedModel(['hi']).model, tools: [showToast, impostor], middleware: [toolSearchMiddleware(session)] });
    const error = await agent.invoke({ messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    const cause = (error as Error).cause;
    expect(isLangChainAdapterError(cause) && cause.code).toBe('name_collision');
    expect((error as Error).message).toContain('"tool_search"');
  });
});
