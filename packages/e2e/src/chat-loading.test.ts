// Deferral on a chat endpoint that has none: the gateway-adapter session (built output) in native mode with
// `nativeSearch.chat: 'load'`, driven by the agent loop over OpenAI Chat Completions with the official `openai`
// client against the mock chat provider. What the provider receives is the proof: the first request declares
// our tool_search alone, the next one the same bytes plus the loaded functions, and the model calls one by name.
import OpenAI from 'openai';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ExecutableTool, type ToolSearchHost } from '@tool-search/gateway-adapter';
import { runAgentLoop } from './run-agent-loop.js';
import type { ScriptRule } from './resolve-script-reply.js';
import { startMockProvider, type MockProvider } from './start-mock-provider.js';

const tool = (name: string, owner: string, description: string): ExecutableTool => ({
  name,
  owner,
  description,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  execute: (args) => `${name} ran with ${JSON.stringify(args)}`,
});
const TOOLS = [
  tool('send_email', 'mail', 'Send an email message to a recipient.'),
  tool('list_inbox', 'mail', 'List the messages in the inbox.'),
  tool('create_event', 'calendar', 'Create a calendar event.'),
  tool('delete_email', 'mail', 'Delete an email message.'),
  tool('secret_payroll', 'hr', 'Export the confidential payroll and send it by email.'),
];

/** The model: search with our tool_search, call send_email once it is declared, then report. */
const SCRIPT: ScriptRule[] = [
  { id: 'finish', when: { lastToolResult: /(?<line>send_email ran with .*)/ }, reply: { text: 'sent: {{line}}' } },
  { id: 'blocked', when: { lastToolName: /^send_email$/ }, reply: { text: 'not sent: {{lastOutput}}' } },
  { id: 'call', when: { lastToolName: /^tool_search$/, declaresTool: /^send_email$/ }, reply: { toolCalls: [{ name: 'send_email', arguments: { text: 'hi' } }] } },
  { id: 'search', when: { api: 'chat', toolResults: 0, declaresTool: /^tool_search$/, lacksTool: /^send_email$/ }, reply: { toolCalls: [{ name: 'tool_search', arguments: { query: 'send an email message' } }] } },
];

type ChatBody = { tools?: Array<{ type: string; function: { name: string } }> };

describe('deferral on a chat endpoint (native mode, nativeSearch.chat load)', () => {
  let provider: MockProvider;
  let host: ToolSearchHost;
  beforeAll(async () => {
    provider = await startMockProvider({ script: SCRIPT });
    host = await createToolSearchHost({ sources: { openclaw: TOOLS } });
  });
  afterAll(async () => {
    await host.close();
    await provider.close();
  });
  const client = () => new OpenAI({ apiKey: 'no-key', baseURL: provider.baseURL, maxRetries: 0 });

  for (const stream of [false, true]) {
    it(`[H12] declares what a search loads as functions of the next request, after the same bytes (stream: ${stream})`, async () => {
      provider.reset();
      const session = await host.openSession({ config: { mode: 'native', nativeSearch: { chat: 'load', maxLoaded: 3 } }, policy: { deny: ['*:hr:*'] } });
      const result = await runAgentLoop({
        client: client(),
        provider: { baseURL: provider.baseURL, api: 'chat', model: 'mock-model', apiKey: 'no-key', stream },
        logger: pino({ level: 'silent' }),
        session,
        input: 'Email Ada.',
        maxTurns: 5,
      });
      expect(result.text).toBe('sent: send_email ran with {"text":"hi"}');
      const requests = provider.requests();
      expect(requests.map((request) => request.ruleId)).toEqual(['search', 'call', 'finish']);
      const tools = requests.map((request) => (JSON.parse(request.body) as ChatBody).tools ?? []);
      expect(tools[0]!.map((entry) => entry.function.name)).toEqual(['tool_search']);
      const loaded = tools[1]!.map((entry) => entry.function.name);
      expect(loaded[0]).toBe('tool_search');
      expect(loaded).toContain('send_email');
      expect(loaded.length).toBeLessThanOrEqual(1 + 3);
      // Append-only: the tools of each request start with the exact bytes of the previous request's tools.
      const bytes = (list: unknown[]) => JSON.stringify(list);
      expect(bytes(tools[1]!).startsWith(bytes(tools[0]!).slice(0, -1))).toBe(true);
      expect(bytes(tools[2]!)).toBe(bytes(tools[1]!));
      // The refused tool never reaches the provider, in any request.
      expect(requests.some((request) => request.body.includes('secret_payroll'))).toBe(false);
      expect(session.telemetry().calls).toEqual([expect.objectContaining({ toolId: 'openclaw:mail:send_email', via: 'native', status: 'ok' })]);
      await session.close();
    });
  }

  it('[H12] asks for approval before a loaded tool runs, and a denial blocks it', async () => {
    provider.reset();
    const session = await host.openSession({
      config: { mode: 'native', nativeSearch: { chat: 'load' } },
      policy: { requireApproval: ['send_email'] },
      approvals: { requestApproval: () => ({ decision: 'deny', reason: 'not now' }) },
    });
    const result = await runAgentLoop({
      client: client(),
      provider: { baseURL: provider.baseURL, api: 'chat', model: 'mock-model', apiKey: 'no-key', stream: false },
      logger: pino({ level: 'silent' }),
      session,
      input: 'Email Ada.',
      maxTurns: 5,
    });
    expect(result.text).toMatch(/^not sent: /);
    expect(result.toolCalls.map((call) => [call.name, call.status])).toEqual([
      ['tool_search', 'ok'],
      ['send_email', 'blocked'],
    ]);
    await session.close();
  });
});
