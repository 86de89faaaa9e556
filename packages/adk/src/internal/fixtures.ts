// Test fixtures: a scripted model that follows ADK's `BaseLlm` interface as ADK's own tests do (a `BaseLlm`
// subclass that yields prepared responses) and records every request, and a run through ADK's own `Runner` and agent
// loop. The fixture host (local tools, one denied, one behind an approval) is `@tool-search/adapter-fixtures`.
import { BaseLlm, InMemorySessionService, LlmAgent, Runner, type BaseLlmConnection, type BaseSessionService, type Event, type LlmRequest, type LlmResponse } from '@google/adk';
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
