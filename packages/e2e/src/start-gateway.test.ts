import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idPattern } from './comparison-script.js';
import { isE2eError } from './errors.js';
import { MCP_FIXTURE_TOOL_COUNT } from './mcp-fixture.js';
import { writeFakePlugin, type WrittenFakePlugin } from './write-fake-plugin.js';
import { startMockProvider, type MockProvider } from './start-mock-provider.js';
import { readSessionLog } from './read-session-log.js';
import { CLIENT_TOOLS } from './run-comparison.js';
import { startGateway, type GatewayRunRecord } from './start-gateway.js';
import { writeGatewayConfig } from './write-gateway-config.js';

describe('startGateway', () => {
  let dir: string;
  let plugin: WrittenFakePlugin;
  let provider: MockProvider;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'e2e-gateway-'));
    plugin = await writeFakePlugin({ dir: join(dir, 'plugins'), count: 50 });
    provider = await startMockProvider({ script: [] });
  });
  afterAll(async () => {
    await provider.close();
    await rm(dir, { recursive: true, force: true });
  });

  for (const api of ['responses', 'chat', 'anthropic'] as const) {
    it(`[H6] hands a client tool call back to the caller as a function_call item (${api})`, async () => {
      provider.setScript([
        {
          id: 'open-document',
          when: { toolResults: 0, declaresTool: /^client_open_document$/ },
          reply: { toolCalls: [{ name: 'client_open_document', arguments: { path: 'notes/today.md' } }] },
        },
      ]);
      const configPath = await writeGatewayConfig({
        path: join(dir, `client-${api}.json5`),
        provider: { baseURL: provider.baseURLFor(api), api },
        mode: 'tools',
        plugins: [plugin.path],
        mcp: false,
        stateDir: `state-client-${api}`,
      });
      const gateway = await startGateway({ configPath });
      try {
        const client = new OpenAI({ apiKey: 'no-key', baseURL: gateway.baseURL, maxRetries: 0 });
        const response = await client.responses.create({ model: 'mock-model', input: 'Open my notes for today.', tools: CLIENT_TOOLS });
        expect(response.output).toEqual([
          expect.objectContaining({ type: 'function_call', name: 'client_open_document', arguments: '{"path":"notes/today.md"}' }),
        ]);
        const record = (response as unknown as { tool_search: GatewayRunRecord }).tool_search;
        const log = await readSessionLog(record.sessionLogPath);
        expect(log.finalCall).toEqual({ toolId: 'client:client:client_open_document', source: 'client', via: 'client', status: 'client' });
        expect(record.sessionLogPath.startsWith(join(dir, `state-client-${api}`, 'sessions'))).toBe(true);
      } finally {
        await gateway.close();
      }
    });
  }

  it('[H8] calls an MCP tool found by search over stdio, its result marked untrusted', async () => {
    provider.setScript([
      {
        id: 'search',
        when: { toolResults: 0, declaresTool: /^tool_search$/ },
        reply: { toolCalls: [{ name: 'tool_search', arguments: { query: 'create calendar events' } }] },
      },
      {
        id: 'call',
        when: { lastToolName: /^tool_search$/, lastToolResult: new RegExp(idPattern('calendar_create')) },
        reply: { toolCalls: [{ name: 'tool_call', arguments: { id: '{{id}}', args: { query: 'standup' } } }] },
      },
      { id: 'finish', when: { lastToolResult: /(?<line>MCP_OK .*)/ }, reply: { text: '{{line}}' } },
    ]);
    const configPath = await writeGatewayConfig({
      path: join(dir, 'mcp.json5'),
      provider: { baseURL: provider.baseURL, api: 'chat', stream: true },
      mode: 'tools',
      plugins: [plugin.path],
      stateDir: 'state-mcp',
    });
    const gateway = await startGateway({ configPath });
    try {
      provider.reset();
      const client = new OpenAI({ apiKey: 'no-key', baseURL: gateway.baseURL, maxRetries: 0 });
      const response = await client.responses.create({ model: 'mock-model', input: 'Create the standup event.' });
      expect(response.output_text).toBe('MCP_OK calendar_create {"query":"standup"}');
      const record = (response as unknown as { tool_search: GatewayRunRecord }).tool_search;
      expect(record.telemetry.catalog.sources).toMatchObject({ plugin: 50, mcp: MCP_FIXTURE_TOOL_COUNT });
      expect(record.telemetry.calls).toEqual([
        expect.objectContaining({ toolId: 'mcp:fixture:calendar_create', source: 'mcp', via: 'tool_call', status: 'ok' }),
      ]);
      // The model got the MCP result inside the untrusted-content marker.
      const lastBody = provider.requests().at(-1)!.body;
      expect(lastBody).toContain('<untrusted-tool-result tool=\\"mcp:fixture:calendar_create\\">');
    } finally {
      await gateway.close();
    }
  });

  for (const api of ['responses', 'anthropic'] as const) {
    it(`[H7] turns a provider error into a 502 the official client surfaces (${api})`, async () => {
      provider.setScript([]);
      const configPath = await writeGatewayConfig({
        path: join(dir, `provider-error-${api}.json5`),
        provider: { baseURL: provider.baseURLFor(api), api },
        mode: 'code',
        plugins: [plugin.path],
        mcp: false,
        stateDir: 'state-provider-error',
        sandboxNodePath: join(dir, 'no-node-here'),
      });
      const gateway = await startGateway({ configPath });
      try {
        const client = new OpenAI({ apiKey: 'no-key', baseURL: gateway.baseURL, maxRetries: 0 });
        await expect(client.responses.create({ model: 'mock-model', input: 'anything' })).rejects.toMatchObject({
          status: 502,
          code: 'provider_failed',
          message: expect.stringContaining('no script rule matched'),
        });
      } finally {
        await gateway.close();
      }
    });
  }

  it('[H7] rejects an invalid tools.toolSearch setting at start, naming its path', async () => {
    const configPath = join(dir, 'bad-mode.json5');
    await writeFile(configPath, `{ provider: { baseURL: '${provider.baseURL}' }, tools: { toolSearch: { mode: 'fast' } } }`);
    let caught: unknown;
    try {
      await startGateway({ configPath });
    } catch (error) {
      caught = error;
    }
    expect(isE2eError(caught) && caught.code).toBe('config_invalid');
    expect((caught as Error).message).toMatch(/toolSearch\.mode/);
  });

  it('[H7] rejects an invalid policy at start', async () => {
    const configPath = join(dir, 'bad-policy.json5');
    await writeFile(configPath, `{ provider: { baseURL: '${provider.baseURL}' }, policy: { deny: 'everything' } }`);
    await expect(startGateway({ configPath })).rejects.toMatchObject({ code: 'config_invalid' });
  });

  it('[H7] answers a streaming request with a 400, since it only speaks JSON', async () => {
    const configPath = await writeGatewayConfig({
      path: join(dir, 'stream.json5'),
      provider: { baseURL: provider.baseURL, api: 'responses' },
      mode: 'tools',
      plugins: [plugin.path],
      mcp: false,
      stateDir: 'state-stream',
    });
    const gateway = await startGateway({ configPath });
    try {
      const client = new OpenAI({ apiKey: 'no-key', baseURL: gateway.baseURL, maxRetries: 0 });
      await expect(client.responses.create({ model: 'mock-model', input: 'x', stream: true })).rejects.toMatchObject({ status: 400 });
    } finally {
      await gateway.close();
    }
  });
});
