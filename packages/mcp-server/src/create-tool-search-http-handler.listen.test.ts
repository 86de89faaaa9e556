// List changes on the 2026-07-28 front: the official SDK v2 client pinned to 2026-07-28 opens `subscriptions/listen`
// over real HTTP, and hears an upstream server's tool list change (a real SDK server behind the host) only when the
// change reaches what the client may list: a change to refused tools alone is never told.
import { listenOnLoopback } from './internal/listen-on-loopback.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryServerEventBus, type ServerEvent } from '@modelcontextprotocol/server';
import { createToolSearchHost, type ToolSearchHost } from '@tool-search/gateway-adapter';
import { startScriptedMcpServer, until, type ScriptedMcpServer, type ScriptedMcpTool } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHttpHandler, type CreateToolSearchHttpHandlerOptions } from './create-tool-search-http-handler.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const OPEN: ScriptedMcpTool = { name: 'open_tool', description: 'An allowed tool' };
const SECRET: ScriptedMcpTool = { name: 'secret_tool', description: 'A refused tool' };
/** Refused by the policy: a change to these alone changes nothing the client may list. */
const REFUSED = ['mcp:srv:secret_tool', 'mcp:srv:secret_added'];

async function serve(options: Partial<CreateToolSearchHttpHandlerOptions> = {}): Promise<{ url: string; upstream: ScriptedMcpServer; host: ToolSearchHost }> {
  const upstream = await startScriptedMcpServer('srv', [OPEN, SECRET]);
  const host = await createToolSearchHost({ sources: { mcp: [upstream.config()] } });
  // Direct mode lists every allowed tool, so the list follows the upstream's.
  const handler = createToolSearchHttpHandler({ host, config: false, policy: { deny: REFUSED }, allowedHosts: ['127.0.0.1'], ...options });
  // A socket whose listen stream the client aborted is left to the client's keep-alive: not waited for on close.
  const listening = await listenOnLoopback(handler, { closeAllConnections: true });
  cleanups.push(async () => {
    await listening.close();
    await host.close();
    await upstream.close();
  });
  return { url: listening.url, upstream, host };
}

/** A client pinned to 2026-07-28 that records the tool list changes it hears. */
async function listeningClient(url: string): Promise<{ client: Client; heard: string[] }> {
  const client = new Client({ name: 'listen-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const heard: string[] = [];
  client.setNotificationHandler('notifications/tools/list_changed', (notification) => void heard.push(notification.method));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return { client, heard };
}

/** Waits until a session without a policy sees `description` on `id`: the host has taken in the upstream's change. */
async function hostSees(host: ToolSearchHost, id: string, description: string | undefined): Promise<void> {
  const watcher = await host.openSession({ config: { mode: 'tools' } });
  try {
    await until(() => watcher.tool(id)?.description === description, `the host to list ${id} as ${String(description)}`);
  } finally {
    await watcher.close();
  }
}

describe('createToolSearchHttpHandler: subscriptions/listen on 2026-07-28', () => {
  it('tells a listening client that the tool list changed when an upstream changes an allowed tool', async () => {
    const { url, upstream } = await serve();
    const { client, heard } = await listeningClient(url);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['open_tool']);
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });

    await upstream.setTools([OPEN, SECRET, { name: 'new_tool', description: 'Added while listening' }]);
    await until(() => heard.length > 0, 'the client to hear the tool list change');
    expect(heard).toEqual(['notifications/tools/list_changed']);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['new_tool', 'open_tool']);
    await subscription.close();
  });

  it('tells nothing of a change that concerns only refused tools', async () => {
    const { url, upstream, host } = await serve();
    const { client, heard } = await listeningClient(url);
    await client.listTools();
    const subscription = await client.listen({ toolsListChanged: true });

    // A refused tool changes and another refused one appears: the host takes both in, the client may see neither.
    await upstream.setTools([OPEN, { ...SECRET, description: 'A refused tool, changed' }, { name: 'secret_added', description: 'Refused too' }]);
    await hostSees(host, 'mcp:srv:secret_added', 'Refused too');
    // Then an allowed tool changes: the one change told is this one (a notification of the first change would have
    // come first on the same stream).
    await upstream.setTools([{ ...OPEN, description: 'An allowed tool, changed' }, { ...SECRET, description: 'A refused tool, changed' }, { name: 'secret_added', description: 'Refused too' }]);
    await until(() => heard.length > 0, 'the client to hear the allowed change');
    expect(heard).toEqual(['notifications/tools/list_changed']);
    expect((await client.listTools()).tools.map((tool) => tool.description)).toEqual(['An allowed tool, changed']);
    await subscription.close();
  });

  it('publishes the changes onto the event bus it is given (what replicas share)', async () => {
    const bus = new InMemoryServerEventBus();
    const published: ServerEvent[] = [];
    bus.subscribe((event) => void published.push(event));
    const { url, upstream } = await serve({ eventBus: bus });
    const { client, heard } = await listeningClient(url);
    await client.listTools();
    const subscription = await client.listen({ toolsListChanged: true });

    await upstream.setTools([OPEN, SECRET, { name: 'new_tool', description: 'Added while listening' }]);
    await until(() => heard.length > 0, 'the client to hear the tool list change');
    // With the change's id (the same on every replica that sees it), so a shared bus can tell it once.
    expect(published).toEqual([{ kind: 'tools_list_changed', changeId: expect.stringMatching(/^[\w-]{43}$/) }]);
    // A change published by another replica onto the shared bus reaches this replica's listeners too.
    bus.publish({ kind: 'tools_list_changed' });
    await until(() => heard.length > 1, 'the client to hear the change another replica published');
    expect(heard).toEqual(['notifications/tools/list_changed', 'notifications/tools/list_changed']);
    await subscription.close();
  });
});
