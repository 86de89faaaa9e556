import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ExecutableTool, type OkOutcome, type ToolSearchHost } from '@tool-search/gateway-adapter';
import { runAgentLoop, type AgentLoopOptions, type AgentSession } from './run-agent-loop.js';
import type { ScriptRule } from './resolve-script-reply.js';
import { startMockProvider, type MockProvider } from './start-mock-provider.js';

/** A session fake that records what the loop asked of it. */
function recordingSession(content: (name: string) => string): AgentSession & { executed: Array<{ name: string; args: unknown }> } {
  const executed: Array<{ name: string; args: unknown }> = [];
  const fake = {
    executed,
    surface: (format: string) => {
      const parameters = { type: 'object', properties: {} };
      return {
        mode: 'tools',
        tools: [
          format === 'openai-chat'
            ? { type: 'function', function: { name: 'echo', description: 'Echoes.', parameters } }
            : { type: 'function', name: 'echo', description: 'Echoes.', parameters, strict: false },
        ],
        instructions: 'Use echo.',
      };
    },
    execute: async ({ name, args, toolCallId }: { name: string; args: unknown; toolCallId: string }): Promise<OkOutcome> => {
      executed.push({ name, args });
      return { status: 'ok', kind: 'call', toolCallId, name, content: content(name), durationMs: 0, result: null, untrusted: false, truncated: false };
    },
    answerNativeSearch: () => {
      throw new Error('this fake renders tools mode: there is no native search to answer');
    },
  };
  // The fake renders one fixed tool list for every format, so it cannot carry the session's per-format types.
  return fake as unknown as AgentSession & { executed: Array<{ name: string; args: unknown }> };
}

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
  tool('secret_payroll', 'hr', 'Export the confidential payroll.'),
];

/** The model of a native run: search with the provider's mechanism, call what it loaded, report the result. */
const NATIVE_SCRIPT: ScriptRule[] = [
  { id: 'finish', when: { lastToolResult: /(?<line>send_email ran with .*)/ }, reply: { text: 'sent: {{line}}' } },
  { id: 'call', when: { lastToolName: /^tool_search$/, loadedTool: /^send_email$/ }, reply: { toolCalls: [{ name: 'send_email', arguments: { text: 'hi' } }] } },
  { id: 'search', when: { api: 'responses', toolResults: 0, declaresToolSearch: true }, reply: { toolSearch: { query: 'send an email' } } },
  { id: 'search', when: { api: 'anthropic', toolResults: 0, defersTools: true }, reply: { toolCalls: [{ name: 'tool_search', arguments: { query: 'send an email' } }] } },
];

describe('runAgentLoop', () => {
  let provider: MockProvider;
  let client: OpenAI;
  let host: ToolSearchHost | undefined;
  beforeAll(async () => {
    provider = await startMockProvider({ script: [] });
    client = new OpenAI({ apiKey: 'no-key', baseURL: provider.baseURL, maxRetries: 0 });
  });
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });
  afterAll(async () => {
    await provider.close();
  });

  const loopOptions = (api: 'responses' | 'chat' | 'anthropic', stream: boolean): Pick<AgentLoopOptions, 'client' | 'provider' | 'logger'> => ({
    client: api === 'anthropic' ? new Anthropic({ apiKey: 'no-key', baseURL: provider.anthropicBaseURL, maxRetries: 0 }) : client,
    provider: { baseURL: provider.baseURLFor(api), api, model: 'mock-model', apiKey: 'no-key', stream },
    logger: pino({ level: 'silent' }),
  });

  it('stops at maxTurns when the model keeps calling tools', async () => {
    provider.setScript([{ id: 'again', when: { declaresTool: /^echo$/ }, reply: { toolCalls: [{ name: 'echo', arguments: { n: 1 } }] } }]);
    const session = recordingSession(() => 'echoed');
    const result = await runAgentLoop({ ...loopOptions('responses', false), session, input: 'go', maxTurns: 3 });
    expect(result).toMatchObject({ truncated: true, turns: 3, text: '' });
    expect(session.executed).toEqual([
      { name: 'echo', args: { n: 1 } },
      { name: 'echo', args: { n: 1 } },
      { name: 'echo', args: { n: 1 } },
    ]);
  });

  it('puts the caller instructions before the session instructions, as the system message in chat', async () => {
    provider.reset();
    provider.setScript([{ id: 'done', when: {}, reply: { text: 'ok' } }]);
    const result = await runAgentLoop({ ...loopOptions('chat', true), session: recordingSession(() => ''), input: 'go', instructions: 'Be brief.', maxTurns: 2 });
    expect(result).toMatchObject({ text: 'ok', turns: 1, truncated: false });
    const body = JSON.parse(provider.requests()[0]!.body) as { messages: Array<{ role: string; content: string }> };
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Be brief.\n\nUse echo.' });
    expect(body.messages[1]).toEqual({ role: 'user', content: 'go' });
  });

  it('refuses a client of another wire format', async () => {
    await expect(runAgentLoop({ ...loopOptions('responses', false), client: new Anthropic({ apiKey: 'x' }), session: recordingSession(() => ''), input: 'go', maxTurns: 1 })).rejects.toThrow(
      /provider\.api responses needs the official openai client/,
    );
  });

  for (const api of ['responses', 'anthropic'] as const) {
    for (const stream of [false, true]) {
      it(`[H11] answers the provider's tool search with the session in native mode, then runs the loaded tool (${api}, stream: ${stream})`, async () => {
        provider.reset();
        provider.setScript(NATIVE_SCRIPT);
        host = await createToolSearchHost({ sources: { openclaw: TOOLS } });
        const session = await host.openSession({ config: { mode: 'native' }, policy: { deny: ['*:hr:*'] } });
        const result = await runAgentLoop({ ...loopOptions(api, stream), session, input: 'Email Ada.', maxTurns: 5 });
        expect(result.text).toBe('sent: send_email ran with {"text":"hi"}');
        expect(result.nativeSearches).toEqual([{ callId: expect.any(String), loadedIds: expect.arrayContaining(['openclaw:mail:send_email']) }]);
        expect(result.toolCalls).toEqual([expect.objectContaining({ name: 'send_email', status: 'ok' })]);
        expect(provider.requests().map((request) => request.ruleId)).toEqual(['search', 'call', 'finish']);
        expect(session.telemetry().counts).toMatchObject({ searches: 1, calls: 1, nativeLoads: result.nativeSearches[0]!.loadedIds.length });
        const last = JSON.parse(provider.requests().at(-1)!.body) as Record<string, unknown>;
        if (api === 'responses') {
          // The model's items go back as they came: the search call, its output, the call with its namespace.
          const input = last.input as Array<Record<string, unknown>>;
          expect(input.map((item) => item.type ?? item.role)).toEqual(['user', 'tool_search_call', 'tool_search_output', 'function_call', 'function_call_output']);
          expect(input[3]).toMatchObject({ name: 'send_email', namespace: 'mail' });
        } else {
          const messages = last.messages as Array<{ role: string; content: unknown }>;
          expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
          expect(messages[2]!.content).toEqual([{ type: 'tool_result', tool_use_id: expect.any(String), content: expect.arrayContaining([{ type: 'tool_reference', tool_name: 'send_email' }]) }]);
          expect(messages[4]!.content).toEqual([{ type: 'tool_result', tool_use_id: expect.any(String), content: 'send_email ran with {"text":"hi"}' }]);
        }
        await session.close();
      });
    }
  }
});
