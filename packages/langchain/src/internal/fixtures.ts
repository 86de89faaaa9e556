// Test fixtures: one host with local tools and the real `server-everything` MCP server (for an image result), the
// agent's own LangChain tool (`show_toast`), and LangChain's own fake chat model (`fakeModel` of @langchain/core)
// with its `bindTools` recorded, so a test sees exactly the tools the agent bound to the model on each call.
import { createEverythingHost, executed, useHostSessions } from '@tool-search/adapter-fixtures/everything-host';
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { createPolicy, type ApprovalProvider, type BeforeToolCallHook, type PolicyConfig } from '@tool-search/policy';
import { AIMessage, fakeModel, tool, type BaseMessage } from 'langchain';
import { z } from 'zod';
import { toClientTools } from '../to-client-tools.js';

/** LangChain's fake chat model, its scripted answers, and the tools it was bound with on each model call. */
export interface RecordedModel {
  model: ReturnType<typeof fakeModel>;
  /** The tools of each `bindTools` call, in order (one per model call). */
  bound: unknown[][];
}

/** A fake model that answers each model call with the next step (tool calls, or a final text), recording what it was bound with. */
export function scriptedModel(steps: Array<Array<{ name: string; args: Record<string, unknown>; id: string }> | string>): RecordedModel {
  const model = fakeModel();
  for (const step of steps) {
    if (typeof step === 'string') model.respond(new AIMessage(step));
    else model.respondWithTools(step);
  }
  const bound: unknown[][] = [];
  const bindTools = model.bindTools.bind(model);
  model.bindTools = (tools) => {
    bound.push([...tools]);
    return bindTools(tools);
  };
  return { model, bound };
}

/** The name of a bound tool: a runnable tool's, a function definition's or an Anthropic tool's. */
export function boundName(tool: unknown): string {
  const value = tool as { name?: string; function?: { name?: string } };
  return value.function?.name ?? value.name ?? '?';
}

/** The names a model call was bound with, sorted. */
export function boundNames(tools: unknown[] | undefined): string[] {
  return (tools ?? []).map(boundName).sort();
}

/** The ToolMessage the agent sent back for a tool call, by call id. */
export function toolMessage(messages: BaseMessage[], toolCallId: string): { content: unknown; status?: string } | undefined {
  return messages.find((message) => message.getType() === 'tool' && (message as unknown as { tool_call_id: string }).tool_call_id === toolCallId) as
    | { content: unknown; status?: string }
    | undefined;
}

/** Every call the local tools and the agent's own tool ran, in order. */
export { DENIED_ID, executed, IMAGE_TOOL } from '@tool-search/adapter-fixtures/everything-host';

/** The fixture host: local tools and `server-everything` over stdio (started once per test file). */
export const createFixtureHost = createEverythingHost;

/** The agent's own tool, declared to the session as a client tool. */
export const showToast = tool(
  (input: { text: string }) => {
    executed.push({ name: 'show_toast', args: input });
    return `toast shown: ${input.text}`;
  },
  { name: 'show_toast', description: 'Show a toast in the UI.', schema: z.object({ text: z.string() }) },
);

/** What a test may change of a fixture session. */
export interface FixtureSessionOptions {
  policy?: PolicyConfig;
  approvals?: ApprovalProvider;
  hooks?: BeforeToolCallHook[];
}

/**
 * Registers a test file's fixture host (created before its tests, closed after them) and returns `open`, whose
 * sessions (policy: deny `exec_shell`; client tools: `show_toast`) are closed after each test (and `executed` cleared).
 */
export function useFixtureSessions(): (config: unknown, options?: FixtureSessionOptions) => Promise<ToolSearchSession> {
  return useHostSessions<FixtureSessionOptions>(createFixtureHost, (host, config, options = {}) =>
    host.openSession({
      config,
      policy: createPolicy(options.policy ?? { deny: ['exec_shell'] }),
      client: toClientTools([showToast]),
      approvals: options.approvals,
      hooks: options.hooks,
    }),
  );
}
