// Test fixtures: a host with local tools (one denied, one behind an approval), Mastra's own mock model
// (`MastraLanguageModelV2Mock` from `@mastra/core/test-utils/llm-mock`) answering each step from a script and keeping
// every call, and runs through Mastra's own `Agent` loop.
import { Agent, type ToolsInput } from '@mastra/core/agent';
import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';
import { createToolSearchHost, type ExecutableTool, type OpenSessionOptions, type ToolSearchHost, type ToolSearchSession } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ToolSearchSessionProcessor } from '../tool-search-session-processor.js';

/** One scripted model step: tool calls (name and input), or a final text. */
export type ScriptedStep = { calls: Array<{ name: string; input: Record<string, unknown> }> } | { text: string };

/** The model call options Mastra's mock recorded (the prompt and the declared tools). */
export type ModelCall = MastraLanguageModelV2Mock['doGenerateCalls'][number];

let calls = 0;

/** Mastra's mock model, answering each step with the next scripted step. */
export function scriptedModel(steps: ScriptedStep[]): MastraLanguageModelV2Mock {
  const queue = [...steps];
  return new MastraLanguageModelV2Mock({
    doGenerate: async () => {
      const step = queue.shift();
      if (step === undefined) throw new Error('scriptedModel: no scripted step left');
      const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
      if ('text' in step) return { content: [{ type: 'text', text: step.text }], finishReason: 'stop', usage, warnings: [] };
      const content = step.calls.map((call) => ({ type: 'tool-call' as const, toolCallId: `call-${++calls}`, toolName: call.name, input: JSON.stringify(call.input) }));
      return { content, finishReason: 'tool-calls', usage, warnings: [] };
    },
  });
}

/** The tool names one model call declared, sorted. */
export function declaredNames(call: ModelCall | undefined): string[] {
  return (call?.tools ?? []).map((tool) => tool.name).sort();
}

/** The tool results one model call's prompt carried, in order (name and output). */
export function toolResults(call: ModelCall | undefined): Array<{ toolName: string; output: unknown }> {
  return (call?.prompt ?? []).flatMap((message) =>
    message.role === 'tool' ? message.content.flatMap((part) => (part.type === 'tool-result' ? [{ toolName: part.toolName, output: part.output }] : [])) : [],
  );
}

/** The system text one model call's prompt carried. */
export function systemText(call: ModelCall | undefined): string {
  return (call?.prompt ?? []).flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n');
}

/** Every call the local tools ran, in order. */
export const executed: Array<{ name: string; args: Record<string, unknown> }> = [];

const tool = (name: string, description: string, properties: Record<string, unknown>, required: string[]): ExecutableTool => ({
  name,
  description,
  inputSchema: { type: 'object', properties, required },
  execute: (args) => {
    executed.push({ name, args });
    return name === 'get_weather' ? `Rain tomorrow in ${String(args['city'])}.` : `${name} done`;
  },
});

const localTools: ExecutableTool[] = [
  tool('get_weather', 'Get the weather forecast for a city.', { city: { type: 'string' } }, ['city']),
  tool('create_event', 'Create a calendar event with a title and a date.', { title: { type: 'string' }, date: { type: 'string' } }, ['title', 'date']),
  tool('delete_file', 'Delete a file from the workspace.', { path: { type: 'string' } }, ['path']),
  tool('exec_shell', 'Run a shell command on the host (weather scripts, forecasts, anything).', { command: { type: 'string' } }, ['command']),
];

/** The denied tool: every session of the fixture host denies it. */
export const DENIED_ID = 'openclaw:core:exec_shell';
/** The tool behind an approval: the fixture's approval provider refuses every call. */
export const APPROVAL_ID = 'openclaw:core:delete_file';

/** Every approval the fixture's provider was asked for (it refuses them all). */
export const approvalsAsked: string[] = [];

const policy = createPolicy(
  { deny: ['exec_shell'], requireApproval: ['delete_file'] },
  {
    approvals: {
      requestApproval: ({ tool: asked }) => {
        approvalsAsked.push(asked.id);
        return { decision: 'deny', reason: 'the user said no' };
      },
    },
  },
);

/** Registers a test file's fixture host and returns `open`, whose sessions are closed after each test. */
export function useFixtureSessions(): (config: unknown, options?: Partial<OpenSessionOptions>) => Promise<ToolSearchSession> {
  let host: ToolSearchHost | undefined;
  const sessions: ToolSearchSession[] = [];
  beforeAll(async () => {
    host = await createToolSearchHost({ sources: { openclaw: localTools } });
  });
  afterAll(() => host?.close());
  afterEach(async () => {
    executed.length = 0;
    approvalsAsked.length = 0;
    await Promise.all(sessions.splice(0).map((session) => session.close()));
  });
  return async (config, options = {}) => {
    if (host === undefined) throw new Error('useFixtureSessions: open() called outside a test');
    const session = await host.openSession({ config, policy, ...options });
    sessions.push(session);
    return session;
  };
}

/** A Mastra agent with the processor as its input processor and the scripted model. */
export function agentWith(processor: ToolSearchSessionProcessor, model: MastraLanguageModelV2Mock, tools: ToolsInput = {}): Agent {
  // Mastra's mock is typed for a tsconfig without exactOptionalPropertyTypes (its doGenerate may resolve
  // `response: undefined`), which this repository turns on; at run time it is the model interface Agent takes.
  const asModel = model as unknown as ConstructorParameters<typeof Agent>[0]['model'];
  return new Agent({ id: 'assistant', name: 'assistant', instructions: 'You are a helpful assistant.', model: asModel, tools, inputProcessors: [processor] });
}
