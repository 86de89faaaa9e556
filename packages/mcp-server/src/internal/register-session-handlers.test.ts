// Each handler of the session table, run once per protocol era from one table of cases: the 2025 front through the
// v1 SDK client (in memory), the 2026-07-28 front through the v2 client pinned to that revision (served in process
// by createMcpHandler), both against a host with a real SDK server upstream. A table method without a case fails
// the typecheck and the first test; a request handler one era's server registers and the other's does not fails
// the last one, wherever it was added.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createToolSearchHost, type ToolSearchHost } from '@tool-search/gateway-adapter';
import { startScriptedMcpServer, type ScriptedMcpServer } from '@tool-search/test-utils';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createToolSearchMcpServer, type CreateToolSearchMcpServerOptions } from '../create-tool-search-mcp-server.js';
import { createModernServerFactory } from './create-modern-front.js';
import { SESSION_METHODS, type SessionMethod } from './register-session-handlers.js';

/** What the cases ask of a client: the same calls on either era's SDK client (each client's own types are wider). */
interface FrontClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<object>;
  listResources(): Promise<{ resources: unknown[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: unknown[] }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  listPrompts(): Promise<{ prompts: unknown[] }>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<{ messages: unknown[] }>;
  complete(params: { ref: { type: 'ref/prompt'; name: string }; argument: { name: string; value: string } }): Promise<{ completion: unknown }>;
}

const ERAS = ['2025', '2026-07-28'] as const;
type Era = (typeof ERAS)[number];

/**
 * Request handlers one era serves and the other does not, each with its reason. Nothing of the session table may
 * be here: the table is served to both.
 */
const ERA_ONLY: Readonly<Record<string, { era: Era; why: string }>> = {
  'logging/setLevel': { era: '2025', why: 'a 2026-07-28 request carries its log level in its own _meta; that front declares no logging capability' },
};

const SERVER = { 'tool-search/server': 'up' };
const NOTE = { uri: 'note://up/one', name: 'one', description: 'The one note.' };
const TEMPLATE = { uriTemplate: 'note://up/{topic}', name: 'notes', description: 'Notes by topic.' };
const PROMPT = { name: 'plan', description: 'Plan a day.' };

/** One case per method of the table: what its handler answers, exactly, in either era. */
const HANDLER_CASES: { readonly [M in SessionMethod]: (client: FrontClient) => Promise<void> } = {
  'tools/list': async (client) => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call', 'up_echo']);
    expect(tools[3]).toMatchObject({ description: 'Echo a text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, annotations: { readOnlyHint: true } });
  },
  'tools/call': async (client) => {
    const result = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:up:up_echo', args: { text: 'hi' } } });
    expect(result).toHaveProperty('content', [{ type: 'text', text: 'ran up/up_echo {"text":"hi"}' }]);
    expect(result).not.toHaveProperty('isError', true);
  },
  'resources/list': async (client) => {
    expect((await client.listResources()).resources).toEqual([{ ...NOTE, mimeType: 'text/plain', _meta: SERVER }]);
  },
  'resources/templates/list': async (client) => {
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([{ ...TEMPLATE, _meta: SERVER }]);
  },
  'resources/read': async (client) => {
    expect((await client.readResource({ uri: NOTE.uri })).contents).toEqual([{ uri: NOTE.uri, mimeType: 'text/plain', text: `contents of ${NOTE.uri}` }]);
  },
  'prompts/list': async (client) => {
    expect((await client.listPrompts()).prompts).toEqual([{ ...PROMPT, arguments: [{ name: 'topic', required: false }], _meta: SERVER }]);
  },
  'prompts/get': async (client) => {
    expect((await client.getPrompt({ name: 'plan', arguments: { topic: 'x' } })).messages).toEqual([{ role: 'user', content: { type: 'text', text: 'prompt up/plan' } }]);
  },
  'completion/complete': async (client) => {
    const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'plan' }, argument: { name: 'topic', value: 'ca' } });
    expect(completed.completion).toEqual({ values: ['calendar', 'cash'], hasMore: false });
  },
};

let upstream: ScriptedMcpServer;
let host: ToolSearchHost;
const closing: Array<() => Promise<void>> = [];
beforeAll(async () => {
  upstream = await startScriptedMcpServer('up', [{ name: 'up_echo', description: 'Echo a text.', annotations: { readOnlyHint: true } }], {
    resources: [NOTE],
    resourceTemplates: [TEMPLATE],
    prompts: [PROMPT],
    completions: ['calendar', 'cash', 'mail'],
  });
  host = await createToolSearchHost({ sources: { mcp: [upstream.config()] } });
});
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});
afterAll(async () => {
  await host.close();
  await upstream.close();
});

/** The session options of every case: tools mode, the upstream tool pinned (so tools/list shows a catalog tool too). */
const sessionOptions = (): Omit<CreateToolSearchMcpServerOptions, 'sessionId'> => ({ host, config: { mode: 'tools' }, visible: ['mcp:up:up_echo'] });

const CONNECT: Readonly<Record<Era, () => Promise<FrontClient>>> = {
  async '2025'() {
    const front = await createToolSearchMcpServer(sessionOptions());
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await front.server.connect(serverSide);
    const client = new Client({ name: 'table-test', version: '1.0.0' });
    await client.connect(clientSide);
    closing.push(async () => {
      await client.close();
      await front.close();
    });
    return client;
  },
  async '2026-07-28'() {
    const { factory, changes } = createModernServerFactory(sessionOptions(), pino({ level: 'silent' }));
    const handler = createMcpHandler(factory, { legacy: 'reject' });
    const client = new ModernClient({ name: 'table-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new ModernTransport(new URL('http://table.test/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
    closing.push(async () => {
      await client.close();
      await handler.close();
      await changes.close();
    });
    return client;
  },
};

describe('SESSION_HANDLERS', () => {
  it('has one case here for each method of the table', () => {
    expect(Object.keys(HANDLER_CASES).sort()).toEqual([...SESSION_METHODS].sort());
  });

  for (const era of ERAS) {
    describe(`served to the ${era} era`, () => {
      for (const method of SESSION_METHODS) {
        it(`answers ${method}`, async () => {
          await HANDLER_CASES[method](await CONNECT[era]());
        });
      }
    });
  }
});

describe('registerSessionHandlers', () => {
  /** The request methods each era's server registers a handler for (the SDK's own included), as it is made. */
  async function servedByEra(): Promise<Record<Era, string[]>> {
    const registered = vi.spyOn(Server.prototype, 'setRequestHandler');
    try {
      const legacy = await createToolSearchMcpServer(sessionOptions());
      const legacyMethods = registered.mock.calls.map(([method]) => method);
      await legacy.close();
      registered.mockClear();
      const modern = createModernServerFactory(sessionOptions(), pino({ level: 'silent' }));
      await modern.factory().close();
      return { '2025': legacyMethods, '2026-07-28': registered.mock.calls.map(([method]) => method) };
    } finally {
      registered.mockRestore();
    }
  }

  it('serves the same request handlers to both eras, the whole table in each, and nothing of the table twice', async () => {
    const served = await servedByEra();
    for (const era of ERAS) {
      const theirs = served[era].filter((method) => ERA_ONLY[method]?.era !== era);
      expect(theirs, `${era}: every method of the table`).toEqual(expect.arrayContaining([...SESSION_METHODS]));
      expect(SESSION_METHODS.filter((method) => served[era].indexOf(method) !== served[era].lastIndexOf(method)), `${era}: registered once`).toEqual([]);
    }
    const shared = (era: Era) => [...new Set(served[era].filter((method) => ERA_ONLY[method]?.era !== era))].sort();
    expect(shared('2025'), 'what one era serves and the other does not').toEqual(shared('2026-07-28'));
  });
});
