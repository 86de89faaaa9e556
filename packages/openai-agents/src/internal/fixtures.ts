// Test fixtures: one host with local tools, a client tool and the real `server-everything` MCP server (for an
// image result), and a scripted model that follows the Agents SDK's `Model` interface and records its requests.
import { createRequire } from 'node:module';
import { Usage, type AgentOutputItem, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
import { createToolSearchHost, type ExecutableTool, type ToolSearchHost, type ToolSearchSession } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';
import { afterAll, afterEach, beforeAll } from 'vitest';

const require = createRequire(import.meta.url);

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
/** The image tool of `server-everything` (the Agents SDK names it `get_tiny_image`). */
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
  return async (config, options) => {
    if (host === undefined) throw new Error('useFixtureSessions: open() called outside a test');
    const session = await openFixtureSession(host, config, options);
    sessions.push(session);
    return session;
  };
}
