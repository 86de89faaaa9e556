// Test fixtures: one host with local tools, a client tool and the real `server-everything` MCP server (for an
// image result), and a scripted model that follows the Agents SDK's `Model` interface and records its requests.
import { Usage, type AgentOutputItem, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
import { createEverythingHost, useHostSessions } from '@tool-search/adapter-fixtures/everything-host';
import type { ToolSearchHost, ToolSearchSession } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';

/** A model that answers each request with the next scripted output, and keeps every request it got. */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  private readonly steps: AgentOutputItem[][];

  constructor(steps: AgentOutputItem[][]) {
    this.steps = [...steps];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const output = this.steps.shift();
    if (output === undefined) throw new Error(`ScriptedModel: no scripted response left for request ${this.requests.length}`);
    return { usage: new Usage(), output, responseId: `resp_${this.requests.length}` };
  }

  // eslint-disable-next-line require-yield -- the runs under test are not streamed
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('ScriptedModel: streaming is not scripted');
  }
}

/** A function call of the model. */
export function functionCall(callId: string, name: string, args: Record<string, unknown>): AgentOutputItem {
  return { type: 'function_call', callId, name, arguments: JSON.stringify(args), status: 'completed' };
}

/** A client-executed `tool_search` call of the model. */
export function searchCall(callId: string, args: Record<string, unknown>): AgentOutputItem {
  return { type: 'tool_search_call', callId, execution: 'client', arguments: args, status: 'completed' };
}

/** The model's final answer. */
export function message(text: string): AgentOutputItem {
  return { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] };
}

/** The names of the tools one request declared (function tools, and the hosted tool_search). */
export function declaredNames(request: ModelRequest | undefined): string[] {
  return (request?.tools ?? []).map((tool) => tool.name).sort();
}

/** The names of the function tools one request declared as loaded (not deferred). */
export function loadedNames(request: ModelRequest | undefined): string[] {
  return (request?.tools ?? []).filter((tool) => tool.type === 'function' && tool.deferLoading !== true).map((tool) => tool.name).sort();
}

/** The input items of one request of a type. */
export function inputItems(request: ModelRequest | undefined, type: string): Array<Record<string, unknown>> {
  const input = request?.input;
  if (!Array.isArray(input)) return [];
  return input.filter((item) => (item as { type?: unknown }).type === type) as unknown as Array<Record<string, unknown>>;
}

/** The output the runner sent back for a function call, by call id. */
export function functionOutput(request: ModelRequest | undefined, callId: string): unknown {
  return inputItems(request, 'function_call_result').find((item) => item['callId'] === callId)?.['output'];
}

// `IMAGE_TOOL` is `server-everything`'s image tool; the Agents SDK names it `get_tiny_image`.
export { DENIED_ID, executed, IMAGE_TOOL } from '@tool-search/adapter-fixtures/everything-host';

/** The fixture host: local tools and `server-everything` over stdio (started once per test file). */
export const createFixtureHost = createEverythingHost;

const policy = createPolicy({ deny: ['exec_shell'] });

/** A session of the fixture host with `config`, the shared policy and (unless `client: false`) the `show_toast` client tool. */
export function openFixtureSession(host: ToolSearchHost, config: unknown, options: { client?: boolean } = {}): Promise<ToolSearchSession> {
  return host.openSession({
    config,
    policy,
    client:
      options.client === false
        ? []
        : [{ name: 'show_toast', description: 'Show a toast in the UI.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }],
  });
}

/**
 * Registers a test file's fixture host (created before its tests, closed after them) and returns `open`, whose
 * sessions are closed after each test (and `executed` cleared). Call once at the top of a test file.
 */
export function useFixtureSessions(): (config: unknown, options?: { client?: boolean }) => Promise<ToolSearchSession> {
  return useHostSessions<{ client?: boolean }>(createFixtureHost, (host, config, options) => openFixtureSession(host, config, options));
}
