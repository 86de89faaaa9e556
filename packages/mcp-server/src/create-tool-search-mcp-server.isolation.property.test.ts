// Property: fail closed on the MCP front. An official SDK client of a front on a host whose catalog holds tools,
// and an upstream server, that the policy refuses sees, in every mode, exactly what a client of a front on a host
// that never had them sees: tools/list, tools/call of the control tools (search, describe, call), resources and
// resource templates (listed and read, by plain and qualified URI), prompts (listed and got, by plain and qualified
// name) and completions. The refused server shares a resource URI and a prompt name with an admitted one, so a
// front that counted it would qualify the admitted one's names. No refused tool's id, name or description, and
// nothing the refused server offers, appears in any answer. The refused server's tools are the ones added last.
// Both protocol eras: the 2025 front through the v1 client, and the 2026-07-28 front (stateless, SDK v2) through
// the v2 client pinned to that revision, served in process by createMcpHandler.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createToolSearchHost, type ToolSearchHost } from '@tool-search/gateway-adapter';
import { startScriptedMcpServer, type ScriptedMcpExtras, type ScriptedMcpServer } from '@tool-search/test-utils';
import { createPolicy, type PolicyConfig, type PolicyContext } from '@tool-search/policy';
import { executableTool, fakeProbe, ISOLATION_WORDS as WORDS, localTools, propertySettings, refuseLastOwners, shownRefusedTools } from '@tool-search/property-settings';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchMcpServer } from './create-tool-search-mcp-server.js';
import { createModernServerFactory } from './internal/create-modern-front.js';
import { pino } from 'pino';

const settings = propertySettings();
/** A test's time bound, scaled with the run counts (`pnpm fuzz:isolation` runs each property 25 times as long). */
const scaled = (ms: number) => ms * settings.runs(1);
const MODES = ['tools', 'code', 'directory', 'native', 'auto', 'direct'] as const;
const configFor = (mode: (typeof MODES)[number]): unknown => (mode === 'direct' ? false : mode === 'auto' ? { mode: 'auto' } : { mode });

const hosts: ToolSearchHost[] = [];
const servers: ScriptedMcpServer[] = [];
const clients: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** What one upstream server offers; `tag` marks every text of it, so the leak scan can find any of it. */
function offering(server: string, tag: string): { tools: Array<{ name: string; description: string }>; extras: ScriptedMcpExtras } {
  return {
    tools: [
      { name: `${server}_read_note`, description: `Read a note ${tag}.` },
      { name: `${server}_send_mail`, description: `Send a mail ${tag}.` },
    ],
    extras: {
      resources: [
        { uri: 'note://shared', name: `shared note`, description: `A note both servers list ${tag}.` },
        { uri: `note://${server}/only`, name: `${server} note`, description: `A note of ${server} ${tag}.` },
      ],
      resourceTemplates: [{ uriTemplate: `note://${server}/{topic}`, name: `${server} notes`, description: `Notes by topic ${tag}.` }],
      prompts: [
        { name: 'summarize', description: `Summarize ${tag}.` },
        { name: `${server}_plan`, description: `Plan with ${server} ${tag}.` },
      ],
      completions: [`${tag}_calendar`, `${tag}_cash`],
      // Instructions become the server's owner context in the catalog (ranking, the directory).
      instructions: `Use ${server} for notes, mail and calendar events ${tag}.`,
    },
  };
}

/** The rules that refuse the server `bad` and the local owners added last; each is data. */
const REFUSALS = ['deny-globs', 'agent-layer', 'allow-the-others'] as const;
function refusalPolicy(kind: (typeof REFUSALS)[number], refusedOwners: string[], admittedOwners: string[]): { policy: PolicyConfig; context: PolicyContext } {
  const refused = ['mcp:bad:*', ...refusedOwners.map((owner) => `openclaw:${owner}:*`)];
  switch (kind) {
    case 'deny-globs':
      return { policy: { deny: refused }, context: {} };
    case 'agent-layer':
      return { policy: { agents: { main: { deny: refused } } }, context: { agentId: 'main' } };
    case 'allow-the-others':
      return { policy: { allow: ['mcp:ok:*', ...admittedOwners.map((owner) => `openclaw:${owner}:*`)] }, context: {} };
  }
}

/** Every answer a client gets for the same requests; an error answer is kept as its code and message. */
/** What `readFront` asks of a client: the same calls on either era's SDK client. */
type FrontClient = Pick<Client, 'listTools' | 'callTool' | 'listResources' | 'listResourceTemplates' | 'readResource' | 'listPrompts' | 'getPrompt' | 'complete'>;

async function readFront(client: FrontClient, probes: { queries: string[]; keys: string[] }, upstream: boolean): Promise<unknown[]> {
  const answers: unknown[] = [];
  const answer = async (request: () => Promise<unknown>) => {
    try {
      answers.push(await request());
    } catch (error) {
      answers.push({ error: { code: (error as { code?: unknown }).code, message: (error as Error).message } });
    }
  };
  await answer(() => client.listTools());
  for (const query of probes.queries) {
    await answer(() => client.callTool({ name: 'tool_search', arguments: { query, limit: 20 } }));
    await answer(() => client.callTool({ name: 'tool_search_code', arguments: { code: `return await tools.search(${JSON.stringify(query)}, { limit: 20 })` } }));
  }
  for (const key of probes.keys) {
    await answer(() => client.callTool({ name: 'tool_describe', arguments: { id: key } }));
    await answer(() => client.callTool({ name: 'tool_call', arguments: { id: key, args: { text: 'x' } } }));
    await answer(() => client.callTool({ name: key.split(':').pop() ?? key, arguments: { text: 'x' } }));
  }
  // What the upstream servers offer is gated by the session's policy view whatever the mode: read in two of them.
  if (!upstream) return answers;
  await answer(() => client.listResources());
  await answer(() => client.listResourceTemplates());
  for (const uri of ['note://shared', 'note://bad/only', 'note://ok/only', 'note://bad/calendar', 'tool-search://bad/note%3A%2F%2Fshared', 'tool-search://ok/note%3A%2F%2Fshared']) {
    await answer(() => client.readResource({ uri }));
  }
  await answer(() => client.listPrompts());
  for (const name of ['summarize', 'bad_plan', 'ok_plan', 'bad__summarize', 'ok__summarize']) await answer(() => client.getPrompt({ name, arguments: { topic: 'x' } }));
  for (const ref of [
    { type: 'ref/prompt' as const, name: 'bad_plan' },
    { type: 'ref/prompt' as const, name: 'summarize' },
    { type: 'ref/prompt' as const, name: 'bad__summarize' },
    { type: 'ref/resource' as const, uri: 'note://bad/{topic}' },
    { type: 'ref/resource' as const, uri: 'note://ok/{topic}' },
  ]) {
    await answer(() => client.complete({ ref, argument: { name: 'topic', value: '' } }));
  }
  return answers;
}

async function connect(host: ToolSearchHost, options: { config: unknown; policy: PolicyConfig; context: PolicyContext }): Promise<Client> {
  const front = await createToolSearchMcpServer({ host, config: options.config, policy: createPolicy(options.policy), context: options.context, sessionId: 's' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await front.server.connect(serverSide);
  const client = new Client({ name: 'isolation-client', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

/** A client pinned to 2026-07-28 of the stateless front, served in process (no socket). */
async function connectModern(host: ToolSearchHost, options: { config: unknown; policy: PolicyConfig; context: PolicyContext }): Promise<FrontClient> {
  const { factory } = createModernServerFactory({ host, config: options.config, policy: createPolicy(options.policy), context: options.context }, pino({ level: 'silent' }));
  const handler = createMcpHandler(factory, { legacy: 'reject' });
  const client = new ModernClient({ name: 'isolation-client', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernTransport(new URL('http://isolation.test/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
  clients.push({ close: async () => { await client.close(); await handler.close(); } });
  return client as unknown as FrontClient;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 2_000 && !check(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`gave up waiting for ${what}`);
}

describe('createToolSearchMcpServer isolation (property)', () => {
  it('answers tools in every mode, and resources, prompts and completions, as a front on a host without the refused tools and server', async () => {
    const good = offering('ok', 'okthing');
    const bad = offering('bad', 'badthing');
    const ok = await startScriptedMcpServer('ok', good.tools, good.extras);
    const refusedServer = await startScriptedMcpServer('bad', bad.tools, bad.extras);
    servers.push(ok, refusedServer);
    await fc.assert(
      fc.asyncProperty(
        fc.record({ size: fc.noBias(fc.integer({ min: 100, max: 800 })), owners: fc.integer({ min: 2, max: 8 }), refusedOwners: fc.integer({ min: 1, max: 2 }), refusal: fc.constantFrom(...REFUSALS), seed: fc.nat(1_000_000), refusedServerTools: fc.noBias(fc.integer({ min: 0, max: 300 })) }),
        fc.array(fc.array(fc.constantFrom(...WORDS, 'note', 'plan', 'resource'), { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')), { minLength: 1, maxLength: 2 }),
        async (shape, queries) => {
          const tools = localTools(shape.size, shape.owners, shape.seed);
          const { refusedOwners, admittedOwners, admitted, refused: refusedTools } = refuseLastOwners(tools, shape.refusedOwners);
          const { policy, context } = refusalPolicy(shape.refusal, refusedOwners, admittedOwners);
          const hostOptions = { probe: fakeProbe, startupTimeoutMs: 10_000, restartBackoff: { initialMs: 10, maxMs: 40 } };
          // The refused server is down when the host starts and comes up once the admitted one is listed, so its
          // tools are the last ones in the index (where a view's bound was read past); the host restarts it.
          await refusedServer.close();
          const withRefused = await createToolSearchHost({ ...hostOptions, sources: { openclaw: tools.map(executableTool), mcp: [ok.config(), refusedServer.config()] } });
          hosts.push(withRefused);
          await until(() => withRefused.status().servers[0]?.state === 'ready', 'the admitted server to be listed');
          await refusedServer.restart([...bad.tools, ...Array.from({ length: shape.refusedServerTools }, (_, i) => ({ name: `bad_${WORDS[i % WORDS.length] as string}_${i}`, description: `${WORDS[(i * 7) % WORDS.length] as string} ${WORDS[(i * 3) % WORDS.length] as string} badthing ${i}.` }))]);
          await until(() => withRefused.status().servers[1]?.state === 'ready', 'the refused server to come up');
          const withoutRefused = await createToolSearchHost({ ...hostOptions, sources: { openclaw: admitted.map(executableTool), mcp: [ok.config()] } });
          hosts.push(withoutRefused);
          const last = refusedTools.at(-1) as (typeof tools)[number];
          const keys = [`openclaw:${last.owner}:${last.name}`, last.name, 'mcp:bad:bad_read_note', 'mcp:bad:read_resource', 'bad_send_mail', 'mcp:ok:ok_read_note', 'mcp:nobody:nothing'];
          const probes = { queries: [last.description.split(' ').slice(0, 3).join(' '), 'read a note', ...queries], keys };
          for (const mode of MODES) {
            const upstream = mode === 'tools' || mode === 'direct';
            const seen = await readFront(await connect(withRefused, { config: configFor(mode), policy, context }), probes, upstream);
            const expected = await readFront(await connect(withoutRefused, { config: configFor(mode), policy, context }), probes, upstream);
            const what = `mode ${mode}, ${shape.size} tools, refused owners ${refusedOwners.join(',')} and server bad by ${JSON.stringify(policy)}`;
            const text = JSON.stringify(seen);
            // Probed keys are echoed as unknown ones are; the descriptions and everything `bad` offers never show.
            const shown = [
              ...shownRefusedTools(text, refusedTools, { echoed: (tool) => keys.includes(tool.name) }),
              ...(text.includes('badthing') ? ['a text of server bad'] : []),
            ];
            expect(shown, what).toEqual([]);
            // Not vacuous: the admitted server's resources, prompts and completions came through.
            if (upstream) for (const shown of ['okthing_calendar', '"uri":"note://ok/only"', '"name":"ok_plan"', 'contents of note://shared']) expect(text, what).toContain(shown);
            expect(seen, what).toEqual(expected);
            // The same reads through the 2026-07-28 front.
            const modernSeen = await readFront(await connectModern(withRefused, { config: configFor(mode), policy, context }), probes, upstream);
            const modernExpected = await readFront(await connectModern(withoutRefused, { config: configFor(mode), policy, context }), probes, upstream);
            const modernText = JSON.stringify(modernSeen);
            expect([...shownRefusedTools(modernText, refusedTools, { echoed: (tool) => keys.includes(tool.name) }), ...(modernText.includes('badthing') ? ['a text of server bad'] : [])], `2026-07-28, ${what}`).toEqual([]);
            if (upstream) for (const shown of ['okthing_calendar', '"uri":"note://ok/only"', '"name":"ok_plan"', 'contents of note://shared']) expect(modernText, `2026-07-28, ${what}`).toContain(shown);
            expect(modernSeen, `2026-07-28, ${what}`).toEqual(modernExpected);
            await Promise.all(clients.splice(0).map((client) => client.close()));
          }
          await Promise.all(hosts.splice(0).map((host) => host.close()));
        },
      ),
      { numRuns: settings.runs(5), seed: settings.seed },
    );
  }, scaled(240_000));
});
