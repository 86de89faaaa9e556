import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { createToolSearchHost, type CreateToolSearchHostOptions, type ToolSearchHost } from '@tool-search/gateway-adapter';
import { mcpFixtureConfig, realMcpServerConfig } from '@tool-search/test-utils';
import { createPolicy } from '@tool-search/policy';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClientRelay } from './create-mcp-client-relay.js';
import { createToolSearchMcpServer, type CreateToolSearchMcpServerOptions } from './create-tool-search-mcp-server.js';
import { scaledTimeout } from '@tool-search/property-settings';

const hosts: ToolSearchHost[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function host(options: CreateToolSearchHostOptions): Promise<ToolSearchHost> {
  const created = await createToolSearchHost(options);
  hosts.push(created);
  return created;
}

/** An official SDK client connected in memory to a front on `on`. */
async function connect(options: Omit<CreateToolSearchMcpServerOptions, 'host'> & { on: ToolSearchHost; capabilities?: ClientCapabilities }) {
  const { on, capabilities, ...frontOptions } = options;
  const front = await createToolSearchMcpServer({ host: on, ...frontOptions });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await front.server.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities: capabilities ?? {} });
  await client.connect(clientSide);
  clients.push(client);
  return { client, front };
}

const textOf = (result: unknown) => (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[]).filter((part) => part.type === 'text').map((part) => part.text).join('\n');
const until = async (check: () => boolean, what: string) => {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('createToolSearchMcpServer: start-up', () => {
  /** A host whose one upstream is a real fixture process that answers nothing for its first 1.5 s. */
  const slowHost = (options: { timedOutErrors?: boolean } = {}) =>
    host({ sources: { mcp: [mcpFixtureConfig('slow', { startDelayMs: 1_500, ...options })] }, startupTimeoutMs: 10_000 });
  const state = (on: ToolSearchHost) => on.status().servers[0]?.state;

  it('answers tools/list in tools mode before the upstream is ready, with the bytes of the later list and no list_changed, and a search right away finds its tools', async () => {
    const shared = await slowHost();
    const { client } = await connect({ on: shared, config: { mode: 'tools' } });
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (listChanged += 1));
    const early = JSON.stringify(await client.listTools());
    expect(state(shared)).toBe('starting');
    expect(client.getInstructions()).toMatch(/^Tool catalog: more tools are available but not listed as functions \(some of their servers are still starting\)/);
    const hits = JSON.parse(textOf(await client.callTool({ name: 'tool_search', arguments: { query: 'add two numbers' } }))) as { id: string }[];
    expect(hits[0]?.id).toBe('mcp:slow:add_numbers');
    expect(state(shared)).toBe('ready');
    expect(JSON.parse(early).tools.map((tool: { name: string }) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    expect(JSON.stringify(await client.listTools())).toBe(early);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(listChanged).toBe(0);
  });

  it('answers a resources listing only once the upstream start-up is over', async () => {
    const shared = await slowHost({ timedOutErrors: true });
    const { client } = await connect({ on: shared, config: { mode: 'tools' } });
    expect(state(shared)).toBe('starting');
    const listed = await client.listResources();
    expect(state(shared)).toBe('ready');
    expect(listed.resources.map((resource) => resource.uri)).toEqual([expect.stringContaining('timed-out')]);
  });

  for (const mode of ['directory', 'direct'] as const) {
    it(`waits for the upstream in ${mode} mode: the first tools/list already has what it brings`, async () => {
      const shared = await slowHost();
      // Direct mode is the `false` setting; directory mode lists only trusted tools, so its count shows the upstream's.
      const { client } = await connect({ on: shared, config: mode === 'direct' ? false : { mode } });
      expect(state(shared)).toBe('ready');
      const listed = await client.listTools();
      if (mode === 'direct') expect(listed.tools.map((tool) => tool.name)).toContain('add_numbers');
      else expect(client.getInstructions()).toMatch(/^Tool catalog: 8 more tools are available but not listed as functions\./);
    });
  }

  it('waits for the upstream in tools mode when a tool is pinned: the first tools/list has the pinned tool', async () => {
    const shared = await slowHost();
    const { client } = await connect({ on: shared, config: { mode: 'tools' }, visible: ['mcp:slow:echo_text'] });
    expect(state(shared)).toBe('ready');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call', 'echo_text']);
  });
});

describe('createToolSearchMcpServer: tools', () => {
  it('lists the control tools of tools mode, the same bytes on every call, and a pinned tool with its real schema and annotations', async () => {
    const shared = await host({ sources: { mcp: [realMcpServerConfig('everything')] } });
    const { client } = await connect({ on: shared, config: { mode: 'tools' }, visible: ['mcp:everything:get-structured-content'] });
    const first = await client.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call', 'get-structured-content']);
    expect(JSON.stringify(await client.listTools())).toBe(JSON.stringify(first));
    const pinned = first.tools[3]!;
    expect(pinned.title).toBe('Get Structured Content Tool');
    expect(pinned.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(pinned.inputSchema).toMatchObject({ properties: { location: { enum: ['New York', 'Chicago', 'Los Angeles'] } }, required: ['location'] });
    expect(pinned.outputSchema).toMatchObject({ required: ['temperature', 'conditions', 'humidity'] });
    const structured = await client.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } });
    expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
  });

  it('searches and calls an upstream tool, returning its image whole as MCP content', async () => {
    const shared = await host({ sources: { mcp: [realMcpServerConfig('everything')] } });
    const { client } = await connect({ on: shared, config: { mode: 'tools' } });
    const hits = JSON.parse(textOf(await client.callTool({ name: 'tool_search', arguments: { query: 'tiny image' } }))) as { id: string }[];
    expect(hits[0]?.id).toBe('mcp:everything:get-tiny-image');
    const result = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:get-tiny-image', args: {} } });
    const image = (result.content as { type: string; data?: string; mimeType?: string }[]).find((part) => part.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image!.data!, 'base64').subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(result.isError).toBeUndefined();
  });

  it('is a plain aggregating proxy in direct mode: every allowed tool by name, its errors as isError results', async () => {
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('fixture')] } });
    const { client } = await connect({ on: shared, config: false, policy: { deny: ['mcp:fixture:never_answers'] } });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo_text', 'add_numbers', 'fail_loudly', 'change_tools']));
    expect(names).not.toContain('never_answers');
    expect(textOf(await client.callTool({ name: 'echo_text', arguments: { text: 'hi' } }))).toContain('echo: hi');
    expect(await client.callTool({ name: 'add_numbers', arguments: { a: 2, b: 3 } })).toMatchObject({ structuredContent: { sum: 5 } });
    const failed = await client.callTool({ name: 'fail_loudly', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('the fixture failed on purpose');
    const denied = await client.callTool({ name: 'never_answers', arguments: {} });
    expect(denied).toMatchObject({ isError: true });
    expect(textOf(denied)).toContain('never_answers');
  });

  it('sends tools/list_changed when the listed tools change (direct mode), and not for a hidden change (tools mode)', async () => {
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('fixture')] } });
    const direct = await connect({ on: shared, config: false });
    const tools = await connect({ on: shared, config: { mode: 'tools' } });
    const seen = { direct: 0, tools: 0 };
    direct.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (seen.direct += 1));
    tools.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (seen.tools += 1));
    const before = JSON.stringify(await tools.client.listTools());
    await direct.client.callTool({ name: 'change_tools', arguments: {} });
    await until(() => seen.direct > 0, 'list_changed in direct mode');
    expect((await direct.client.listTools()).tools.map((tool) => tool.name)).toContain('added_later');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toEqual({ direct: 1, tools: 0 });
    expect(JSON.stringify(await tools.client.listTools())).toBe(before);
  });

  it('forwards upstream progress to the client progress token and cancels upstream when the client cancels', async () => {
    const shared = await host({ sources: { mcp: [realMcpServerConfig('everything')] } });
    const { client, front } = await connect({ on: shared, config: false });
    const progress: number[] = [];
    const result = await client.request(
      { method: 'tools/call', params: { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 4 } } },
      CallToolResultSchema,
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(result.isError).toBeUndefined();
    expect(progress.length).toBeGreaterThanOrEqual(3);
    const abort = new AbortController();
    const cancelled = client.request({ method: 'tools/call', params: { name: 'trigger-long-running-operation', arguments: { duration: 30, steps: 30 } } }, CallToolResultSchema, { signal: abort.signal });
    setTimeout(() => abort.abort('changed my mind'), 300);
    await expect(cancelled).rejects.toThrow();
    await until(() => front.session.telemetry().calls.some((call) => call.status === 'error' && call.detail === 'cancelled'), 'the cancelled call to end');
  });
});

describe('createToolSearchMcpServer: resources and prompts', () => {
  it('lists and reads upstream resources and prompts, each naming its server', async () => {
    const shared = await host({ sources: { mcp: [realMcpServerConfig('everything')] } });
    const { client } = await connect({ on: shared, config: { mode: 'tools' } });
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((resource) => resource._meta?.['tool-search/server'] === 'everything')).toBe(true);
    const read = await client.readResource({ uri: resources[0]!.uri });
    expect(read.contents[0]).toMatchObject({ uri: resources[0]!.uri });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('simple-prompt');
    const got = await client.getPrompt({ name: 'simple-prompt' });
    expect(got.messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.length).toBeGreaterThan(0);
  });

  it('hides the resources and prompts of a server the policy denies, answering exactly as for ones that do not exist', async () => {
    const shared = await host({ sources: { mcp: [realMcpServerConfig('everything')] } });
    const policy = createPolicy({ deny: ['mcp:everything:read_resource', 'mcp:everything:get_prompt'] });
    const { client } = await connect({ on: shared, config: { mode: 'tools' }, policy });
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listPrompts()).prompts).toEqual([]);
    const denied = await client.readResource({ uri: 'demo://resource/static/document/architecture.md' }).catch((error: Error) => error.message);
    const unknown = await client.readResource({ uri: 'demo://nothing/here' }).catch((error: Error) => error.message);
    // SDK v2 answers a missing resource with -32602 on every era (SEP-2164; SDK v1 sent -32002).
    expect(denied).toBe('MCP error -32602: Resource not found: demo://resource/static/document/architecture.md');
    expect(unknown).toBe('MCP error -32602: Resource not found: demo://nothing/here');
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    await expect(client.getPrompt({ name: 'simple-prompt' })).rejects.toThrow('Prompt not found: simple-prompt');
  });

  it('qualifies the prompt names and resource URIs two servers share, and routes each to its server', async () => {
    const shared = await host({ sources: { mcp: [realMcpServerConfig('everything', { name: 'left' }), realMcpServerConfig('everything', { name: 'right' })] } });
    const { client } = await connect({ on: shared, config: { mode: 'tools' } });
    const names = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(names).toEqual(expect.arrayContaining(['left__simple-prompt', 'right__simple-prompt']));
    expect(names).not.toContain('simple-prompt');
    expect((await client.getPrompt({ name: 'right__simple-prompt' })).messages.length).toBeGreaterThan(0);
    const uris = (await client.listResources()).resources.map((resource) => resource.uri);
    const qualified = `tool-search://left/${encodeURIComponent('demo://resource/static/document/architecture.md')}`;
    expect(uris).toContain(qualified);
    expect((await client.readResource({ uri: qualified })).contents[0]).toMatchObject({ uri: 'demo://resource/static/document/architecture.md' });
    await expect(client.readResource({ uri: 'demo://resource/static/document/architecture.md' })).rejects.toThrow('2 servers list it');
  });

  it('forwards completion/complete to the prompt\'s server', async () => {
    const shared = await host({ sources: { mcp: [realMcpServerConfig('everything')] } });
    const { client } = await connect({ on: shared, config: { mode: 'tools' } });
    const prompt = (await client.listPrompts()).prompts.find((entry) => entry.name === 'completable-prompt')!;
    const argument = prompt.arguments![0]!.name;
    const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: argument, value: '' } });
    expect(completed.completion.values.length).toBeGreaterThan(0);
    expect(await client.complete({ ref: { type: 'ref/prompt', name: 'no-such-prompt' }, argument: { name: 'x', value: '' } })).toEqual({ completion: { values: [] } });
  });
});

describe('createToolSearchMcpServer: what upstream asks of the client', () => {
  it('relays sampling and elicitation to the one client with a call in flight, and declines for a client without the capability', async () => {
    const relay = createMcpClientRelay();
    const shared = await host({ sources: { mcp: [realMcpServerConfig('everything')] }, mcpClient: { onSampling: relay.onSampling, onElicitation: relay.onElicitation } });
    const able = await connect({ on: shared, config: false, relay, capabilities: { sampling: {}, elicitation: {} } });
    let sampled = 0;
    able.client.setRequestHandler(CreateMessageRequestSchema, async () => {
      sampled += 1;
      return { role: 'assistant', content: { type: 'text', text: 'relayed answer' }, model: 'test-model' };
    });
    able.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { color: 'blue' } }));
    const sampling = await able.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'say hi', maxTokens: 10 } });
    expect(sampled).toBe(1);
    expect(textOf(sampling)).toContain('relayed answer');
    const elicited = await able.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(JSON.stringify(elicited)).toContain('blue');
    await able.client.close();

    const unable = await connect({ on: shared, config: false, relay });
    const refused = await unable.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'say hi', maxTokens: 10 } });
    expect(JSON.stringify(refused)).toContain('did not declare the sampling capability');
  });

  it('forwards upstream log messages during a call at or above the level the client set', async () => {
    const shared = await host({ sources: { mcp: [realMcpServerConfig('everything')] }, mcpClient: { logLevel: 'debug' } });
    const { client } = await connect({ on: shared, config: false });
    const levels: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void levels.push(notification.params.level));
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 3, steps: 3 } });
    await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    expect(levels.length).toBeGreaterThan(0);
  });
});

describe('createToolSearchMcpServer: lifecycle', () => {
  it('opens one tool-search session per MCP session and closes it when the MCP session ends', async () => {
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('fixture')] } });
    const first = await connect({ on: shared, config: { mode: 'tools' } });
    const second = await connect({ on: shared, config: { mode: 'tools' } });
    expect(shared.status().sessions).toBe(2);
    expect(first.front.session.sessionId).not.toBe(second.front.session.sessionId);
    await first.client.close();
    await until(() => shared.status().sessions === 1, 'the first session to close');
    await second.front.close();
    expect(shared.status().sessions).toBe(0);
  });
});

describe('createToolSearchMcpServer: bad arguments and progress', () => {
  it('answers arguments nested deeper than 64 levels with an invalid_args result, in tools and direct mode', async () => {
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('fixture')] } });
    let deep: unknown = 'bottom';
    for (let level = 0; level < 100; level += 1) deep = { inner: deep };
    for (const [config, name, args] of [
      [{ mode: 'tools' }, 'tool_call', { id: 'mcp:fixture:echo_text', args: { text: 'hi', extra: deep } }],
      [false, 'echo_text', { text: 'hi', extra: deep }],
    ] as const) {
      const { client } = await connect({ on: shared, config });
      const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Invalid arguments for mcp:fixture:echo_text: args\.extra(\.inner)+ is nested deeper than 64 levels/);
    }
  });

  it('bounds a call by the call timeout when the client sent no progress token, and lets progress keep it alive when it did', { timeout: scaledTimeout(30_000) }, async () => {
    const everything = await host({ sources: { mcp: [realMcpServerConfig('everything')] }, startupTimeoutMs: 20_000 });
    const { client } = await connect({ on: everything, config: { mode: 'tools' }, callTimeoutMs: 1_000 });
    const longCall = { name: 'tool_call', arguments: { id: 'mcp:everything:trigger-long-running-operation', args: { duration: 2.5, steps: 25 } } };
    const unfollowed = await client.callTool(longCall);
    expect(unfollowed.isError).toBe(true);
    expect(textOf(unfollowed)).toContain('did not finish tools/call trigger-long-running-operation within the maximum of 1000 ms');
    let progress = 0;
    const followed = await client.callTool(longCall, undefined, { onprogress: () => (progress += 1), timeout: 20_000 });
    expect(textOf(followed)).toContain('Long running operation completed');
    expect(progress).toBeGreaterThan(5);
  });
});
