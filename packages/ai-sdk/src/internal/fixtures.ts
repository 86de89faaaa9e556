// Test fixtures: one host with local tools, a client tool and the real `server-everything` MCP server (for an
// image result), and scripted steps for the AI SDK's own MockLanguageModelV3.
import { createRequire } from 'node:module';
import { createToolSearchHost, type ExecutableTool, type ToolSearchHost, type ToolSearchSession } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';
import type { MockLanguageModelV3 } from 'ai/test';
import { afterAll, afterEach, beforeAll } from 'vitest';

const require = createRequire(import.meta.url);

/** What a scripted model step returns. */
export type ScriptedStep = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
/** What the SDK sent the model in one step. */
export type ModelCall = MockLanguageModelV3['doGenerateCalls'][number];

const usage: ScriptedStep['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A step in which the model calls tools: `[toolCallId, toolName, input]` each. */
export function callStep(...calls: Array<[string, string, Record<string, unknown>]>): ScriptedStep {
  return {
    content: calls.map(([toolCallId, toolName, input]) => ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) })),
    finishReason: { unified: 'tool-calls', raw: undefined },
    usage,
    warnings: [],
  };
}

/** A step in which the model answers with text and stops. */
export function textStep(text: string): ScriptedStep {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
}

/** The names of the tools the SDK declared to the model in one call. */
export function declaredNames(call: ModelCall | undefined): string[] {
  return (call?.tools ?? []).map((tool) => tool.name).sort();
}

/** The tool results the SDK sent the model in one call, by tool call id. */
export function toolResults(call: ModelCall | undefined): Map<string, unknown> {
  const results = new Map<string, unknown>();
  for (const message of call?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') results.set(part.toolCallId, part.output);
  }
  return results;
}

/** Every call the local tools ran, in order. */
export const executed: Array<{ name: string; args: Record<string, unknown> }> = [];

const localTools: ExecutableTool[] = [
  {
    name: 'get_weather',
    description: 'Get the weather forecast for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    execute: (args) => {
      executed.push({ name: 'get_weather', args });
      return `Rain tomorrow in ${String(args['city'])}.`;
    },
  },
  {
    name: 'create_event',
    description: 'Create a calendar event with a title and a date.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' }, date: { type: 'string' } }, required: ['title', 'date'] },
    execute: (args) => {
      executed.push({ name: 'create_event', args });
      return `created ${String(args['title'])}`;
    },
  },
  {
    name: 'exec_shell',
    description: 'Run a shell command on the host (weather scripts, forecasts, anything).',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    execute: (args) => {
      executed.push({ name: 'exec_shell', args });
      return 'ran';
    },
  },
];

/** The denied tool: every session of the fixture host denies it. */
export const DENIED_ID = 'openclaw:core:exec_shell';
/** The image tool of `server-everything`. */
export const IMAGE_TOOL = 'get-tiny-image';

/** The fixture host: local tools and `server-everything` over stdio (started once per test file). */
export async function createFixtureHost(): Promise<ToolSearchHost> {
  return createToolSearchHost({
    sources: {
      openclaw: localTools,
      mcp: [
        {
          name: 'everything',
          transport: 'stdio',
          command: process.execPath,
          args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js')],
          include: ['echo', IMAGE_TOOL],
        },
      ],
    },
    startupTimeoutMs: 20_000,
  });
}

const policy = createPolicy({ deny: ['exec_shell'] });

/** A session of the fixture host with `config`, the shared policy and the `show_toast` client tool. */
export function openFixtureSession(host: ToolSearchHost, config: unknown): Promise<ToolSearchSession> {
  return host.openSession({
    config,
    policy,
    client: [{ name: 'show_toast', description: 'Show a toast in the UI.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }],
  });
}

/**
 * Registers a test file's fixture host (created before its tests, closed after them) and returns `open`, whose
 * sessions are closed after each test (and `executed` cleared). Call once at the top of a test file.
 */
export function useFixtureSessions(): (config: unknown) => Promise<ToolSearchSession> {
  let host: ToolSearchHost | undefined;
  const sessions: ToolSearchSession[] = [];
  beforeAll(async () => {
    host = await createFixtureHost();
  }, 30_000);
  afterAll(() => host?.close());
  afterEach(async () => {
    executed.length = 0;
    await Promise.all(sessions.splice(0).map((session) => session.close()));
  });
  return async (config) => {
    if (host === undefined) throw new Error('useFixtureSessions: open() called outside a test');
    const session = await openFixtureSession(host, config);
    sessions.push(session);
    return session;
  };
}
