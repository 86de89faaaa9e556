// Test fixtures: a host with local tools (one denied, one behind an approval), a scripted model that follows ADK's
// `BaseLlm` interface as ADK's own tests do (a `BaseLlm` subclass that yields prepared responses) and records every
// request, and a run through ADK's own `Runner` and agent loop.
import { BaseLlm, InMemorySessionService, LlmAgent, Runner, type BaseLlmConnection, type BaseSessionService, type Event, type LlmRequest, type LlmResponse } from '@google/adk';
import { createToolSearchHost, type ExecutableTool, type OpenSessionOptions, type ToolSearchHost, type ToolSearchSession } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ToolSearchToolset } from '../tool-search-toolset.js';

/** What the model saw on one request: the declared functions, the instruction, and the conversation. */
export interface RecordedRequest {
  declared: Array<{ name?: string | undefined; description?: string | undefined; parametersJsonSchema?: unknown }>;
  instruction: string;
  contents: LlmRequest['contents'];
}

/** One scripted model turn: function calls (name and args), or a final text. */
export type ScriptedTurn = { calls: Array<{ name: string; args: Record<string, unknown> }> } | { text: string };

/** A model that answers each request with the next scripted turn, and keeps a copy of every request it got. */
export class ScriptedLlm extends BaseLlm {
  readonly requests: RecordedRequest[] = [];
  private readonly turns: ScriptedTurn[];
  private calls = 0;

  constructor(turns: ScriptedTurn[]) {
    super({ model: 'scripted-llm' });
    this.turns = [...turns];
  }

  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.requests.push(record(request));
    const turn = this.turns.shift();
    if (turn === undefined) throw new Error(`ScriptedLlm: no scripted turn left for request ${this.requests.length}`);
    if ('text' in turn) {
      yield { content: { role: 'model', parts: [{ text: turn.text }] }, turnComplete: true };
      return;
    }
    yield { content: { role: 'model', parts: turn.calls.map((call) => ({ functionCall: { id: `call-${++this.calls}`, name: call.name, args: call.args } })) }, turnComplete: true };
  }

  connect(): Promise<BaseLlmConnection> {
    throw new Error('ScriptedLlm: live connections are not scripted');
  }
}

function record(request: LlmRequest): RecordedRequest {
  const declared = (request.config?.tools ?? []).flatMap((tool) => ('functionDeclarations' in tool ? (tool.functionDeclarations ?? []) : []));
  const system = request.config?.systemInstruction;
  const instruction = typeof system === 'string' ? system : JSON.stringify(system ?? '');
  return structuredClone({ declared: declared.map((d) => ({ name: d.name, description: d.description, parametersJsonSchema: d.parametersJsonSchema })), instruction, contents: request.contents });
}

/** The names a request declared, sorted. */
export function declaredNames(request: RecordedRequest | undefined): string[] {
  return (request?.declared ?? []).map((declaration) => declaration.name ?? '').sort();
}

/** Every function response the model was sent in a request, in order. */
export function functionResponses(request: RecordedRequest | undefined): Array<{ name: string; response: Record<string, unknown> }> {
  return (request?.contents ?? []).flatMap((content) =>
    (content.parts ?? []).flatMap((part) => (part.functionResponse === undefined ? [] : [{ name: part.functionResponse.name ?? '', response: part.functionResponse.response ?? {} }])),
  );
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

/** One conversation through ADK's own `Runner` and `LlmAgent` loop: the events of each user message in turn. */
export async function runConversation(
  toolset: ToolSearchToolset,
  model: BaseLlm,
  messages: string[],
  options: { sessionService?: BaseSessionService; sessionId?: string } = {},
): Promise<{ events: Event[]; sessionService: BaseSessionService; sessionId: string }> {
  const agent = new LlmAgent({ name: 'assistant', model, instruction: toolset.instruction, tools: [toolset] });
  const sessionService = options.sessionService ?? new InMemorySessionService();
  const runner = new Runner({ appName: 'tool-search-test', agent, sessionService });
  const sessionId = options.sessionId ?? (await sessionService.createSession({ appName: 'tool-search-test', userId: 'user' })).id;
  const events: Event[] = [];
  for (const text of messages) {
    for await (const event of runner.runAsync({ userId: 'user', sessionId, newMessage: { role: 'user', parts: [{ text }] } })) events.push(event);
  }
  return { events, sessionService, sessionId };
}

/** The final text of a conversation's events. */
export function finalText(events: Event[]): string {
  return events.flatMap((event) => (event.content?.parts ?? []).flatMap((part) => (part.text === undefined ? [] : [part.text]))).join('');
}
