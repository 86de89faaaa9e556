import OpenAI from 'openai';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentLoop, type AgentSession } from './run-agent-loop.js';
import { startMockProvider, type MockProvider } from './start-mock-provider.js';

/** A session fake that records what the loop asked of it. */
function recordingSession(content: (name: string) => string): AgentSession & { executed: Array<{ name: string; args: unknown }> } {
  const executed: Array<{ name: string; args: unknown }> = [];
  return {
    executed,
    surface: (format) => {
      const parameters = { type: 'object', properties: {} };
      return {
        tools: [
          format === 'openai-chat'
            ? { type: 'function', function: { name: 'echo', description: 'Echoes.', parameters } }
            : { type: 'function', name: 'echo', description: 'Echoes.', parameters, strict: false },
        ],
        instructions: 'Use echo.',
      };
    },
    execute: async ({ name, args }) => {
      executed.push({ name, args });
      return { status: 'ok', content: content(name) };
    },
  };
}

describe('runAgentLoop', () => {
  let provider: MockProvider;
  let client: OpenAI;
  beforeAll(async () => {
    provider = await startMockProvider({ script: [] });
    client = new OpenAI({ apiKey: 'no-key', baseURL: provider.baseURL, maxRetries: 0 });
  });
  afterAll(async () => {
    await provider.close();
  });

  it('stops at maxTurns when the model keeps calling tools', async () => {
    provider.setScript([{ id: 'again', when: { declaresTool: /^echo$/ }, reply: { toolCalls: [{ name: 'echo', arguments: { n: 1 } }] } }]);
    const session = recordingSession(() => 'echoed');
    const result = await runAgentLoop({
      client,
      provider: { baseURL: provider.baseURL, api: 'responses', model: 'mock-model', apiKey: 'no-key', stream: false },
      session,
      input: 'go',
      maxTurns: 3,
      logger: pino({ level: 'silent' }),
    });
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
    const result = await runAgentLoop({
      client,
      provider: { baseURL: provider.baseURL, api: 'chat', model: 'mock-model', apiKey: 'no-key', stream: true },
      session: recordingSession(() => ''),
      input: 'go',
      instructions: 'Be brief.',
      maxTurns: 2,
      logger: pino({ level: 'silent' }),
    });
    expect(result).toMatchObject({ text: 'ok', turns: 1, truncated: false });
    const body = JSON.parse(provider.requests()[0]!.body) as { messages: Array<{ role: string; content: string }> };
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Be brief.\n\nUse echo.' });
    expect(body.messages[1]).toEqual({ role: 'user', content: 'go' });
  });
});
