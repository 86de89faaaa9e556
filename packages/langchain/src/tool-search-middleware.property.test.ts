// Property (fail closed): for random catalogs, policies, modes and searches, the LangChain middleware hands the model
// nothing of a tool the policy denies (no id, name or description in the tools, the system prompt or any tool
// result), never runs one, and answers every call exactly as a middleware over a host that never had those tools.
// The model is the real ChatAnthropic (@langchain/anthropic) over a recording stand-in for the Messages API, so
// "what the model is handed" is the request body it would send.
import fc from 'fast-check';
import { ChatAnthropic } from '@langchain/anthropic';
import { createToolSearchHost, type ExecutableTool } from '@tool-search/gateway-adapter';
import { createPolicy, type PolicyConfig } from '@tool-search/policy';
import { ADAPTER_WORDS, denyPolicyArbitrary, propertySettings, rawToolsArbitrary, scaledTimeout } from '@tool-search/property-settings';
import { createAgent, type BaseMessage } from 'langchain';
import { describe, expect, it } from 'vitest';
import { toolSearchMiddleware } from './tool-search-middleware.js';

const settings = propertySettings();

const MODES = ['tools', 'directory', 'direct', 'native'] as const;

const toolsArbitrary = rawToolsArbitrary({ maxDescriptionWords: 6, maxTools: 12 });
const policyArbitrary: fc.Arbitrary<PolicyConfig> = denyPolicyArbitrary({ minRules: 0 });

interface Built {
  tool: ExecutableTool;
  id: string;
  /** A token only this tool's description carries (`t3x` is no substring of `t13x`). */
  marker: string;
}

/** Tools with unique names (`t<i>x_<words>`) and a unique marker in each description; a run records what executed. */
function build(raw: ReadonlyArray<{ words: string[]; owner: string; description: string[] }>, ran: string[]): Built[] {
  return raw.map((entry, index) => {
    const name = `t${index}x_${entry.words.join('_')}`;
    const marker = `d${index}x`;
    return {
      id: `openclaw:${entry.owner}:${name}`,
      marker,
      tool: {
        name,
        owner: entry.owner,
        description: `${entry.description.join(' ')} ${marker}`.trim(),
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        execute: () => {
          ran.push(name);
          return `ran ${name}`;
        },
      },
    };
  });
}

type Block = Record<string, unknown>;

/** The model's turns for a mode: searches and calls of every key (allowed and denied), then a final answer. */
function script(mode: (typeof MODES)[number], queries: string[], keys: Array<{ id: string; name: string }>): Block[][] {
  let n = 0;
  const use = (name: string, input: unknown): Block => ({ type: 'tool_use', id: `toolu_${++n}`, name, input });
  const done: Block[] = [{ type: 'text', text: 'done' }];
  switch (mode) {
    case 'tools':
    case 'directory':
      return [
        queries.map((query) => use('tool_search', { query })),
        keys.flatMap((key) => [use('tool_describe', { id: key.id }), use('tool_call', { id: key.id, args: { text: 'x' } }), use('tool_call', { id: key.name, args: { text: 'x' } })]),
        done,
      ];
    case 'direct':
      return [keys.map((key) => use(key.name, { text: 'x' })), done];
    case 'native':
      return [[use('tool_search', { queries })], keys.map((key) => use(key.name, { text: 'x' })), done];
  }
}

interface Wire {
  tools?: unknown;
  system?: unknown;
  messages: Array<{ role: string; content: unknown }>;
}

/** One agent run over a host of `tools`: the request bodies the model was sent, and the run's messages. */
async function runAgent(tools: ExecutableTool[], policyConfig: PolicyConfig, mode: (typeof MODES)[number], steps: Block[][]): Promise<{ wire: Wire[]; messages: BaseMessage[] }> {
  const host = await createToolSearchHost({ sources: { openclaw: tools } });
  const wire: Wire[] = [];
  const queue = steps.map((content) => [...content]);
  const fetch = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    wire.push(JSON.parse(String(init?.body)) as Wire);
    const content = queue.shift() ?? [{ type: 'text', text: 'done' }];
    const stop = content.some((block) => block['type'] === 'tool_use') ? 'tool_use' : 'end_turn';
    const body = { id: `msg_${wire.length}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  try {
    const session = await host.openSession({ config: mode === 'direct' ? false : { mode }, policy: createPolicy(policyConfig), sessionId: 's' });
    const model = new ChatAnthropic({ model: 'claude-sonnet-4-5', apiKey: 'test-key', maxRetries: 0, clientOptions: { fetch } });
    const agent = createAgent({ model, tools: [], middleware: [toolSearchMiddleware(session)] });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'go' }] });
    return { wire, messages: result.messages as BaseMessage[] };
  } finally {
    await host.close();
  }
}

/** What the session answered: the user turns of every request (tool results), and the tool messages of the run. */
function answers(run: { wire: Wire[]; messages: BaseMessage[] }): unknown {
  return {
    wire: run.wire.map((body) => body.messages.filter((message) => message.role === 'user')),
    tools: run.messages.filter((message) => message.getType() === 'tool').map((message) => ({ content: message.content, status: (message as unknown as { status?: string }).status })),
  };
}

describe('toolSearchMiddleware (property: fail closed)', () => {
  it('hands the model nothing of a denied tool, never runs one, and answers as if the host never had it', async () => {
    await fc.assert(
      fc.asyncProperty(
        toolsArbitrary,
        policyArbitrary,
        fc.constantFrom(...MODES),
        fc.array(fc.array(fc.constantFrom(...ADAPTER_WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')), { minLength: 1, maxLength: 3 }),
        async (raw, policyConfig, mode, queries) => {
          const ranWith: string[] = [];
          const ranWithout: string[] = [];
          const withDenied = build(raw, ranWith);
          const policy = createPolicy(policyConfig);
          const admitted = (entry: Built) =>
            policy.check({ id: entry.id, name: entry.tool.name, source: 'openclaw', owner: entry.tool.owner!, ownerOnly: false, trusted: true }, {}).allowed;
          const denied = withDenied.filter((entry) => !admitted(entry));
          const withoutDenied = build(raw, ranWithout).filter((_, index) => admitted(withDenied[index]!));
          const keys = withDenied.slice(0, 5).map((entry) => ({ id: entry.id, name: entry.tool.name }));
          const steps = script(mode, queries, keys);

          const a = await runAgent(withDenied.map((entry) => entry.tool), policyConfig, mode, steps);
          const b = await runAgent(withoutDenied.map((entry) => entry.tool), policyConfig, mode, steps);

          // Declared tools and instructions: nothing of a denied tool at all.
          const offered = JSON.stringify(a.wire.map((body) => [body.tools, body.system]));
          // Everything the model was sent and the run returned: no denied description, ever (the model never sends one).
          const everything = JSON.stringify([a.wire, a.messages]);
          for (const entry of denied) {
            expect(offered).not.toContain(entry.id);
            expect(offered).not.toContain(entry.tool.name);
            expect(everything).not.toContain(entry.marker);
          }
          // Tool results: exactly those of a host that never had the denied tools (ids the model asked for are echoed).
          expect(answers(a)).toEqual(answers(b));
          expect(ranWith.filter((name) => denied.some((entry) => entry.tool.name === name))).toEqual([]);
          expect(ranWith).toEqual(ranWithout);
        },
      ),
      { numRuns: settings.runs(40), seed: settings.seed },
    );
  }, scaledTimeout(240_000));
});
