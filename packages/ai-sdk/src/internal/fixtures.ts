// Test fixtures: one host with local tools, a client tool and the real `server-everything` MCP server (for an
// image result), and scripted steps for the AI SDK's own MockLanguageModelV3.
import { createEverythingHost, useHostSessions } from '@tool-search/adapter-fixtures/everything-host';
import type { ToolSearchHost, ToolSearchSession } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';
import type { MockLanguageModelV3 } from 'ai/test';

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

export { DENIED_ID, executed, IMAGE_TOOL } from '@tool-search/adapter-fixtures/everything-host';

/** The fixture host: local tools and `server-everything` over stdio (started once per test file). */
export const createFixtureHost = createEverythingHost;

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
  return useHostSessions(createFixtureHost, (host, config) => openFixtureSession(host, config));
}
