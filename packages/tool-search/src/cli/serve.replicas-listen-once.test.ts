// One list change that several replicas saw is told once: two `tool-search serve --http` replicas (the real bin) on
// one Debian redis-server (`--store`), each with its own stdio upstream (the fixture server, one process per
// replica), and both upstreams make the same change, as one upstream shared by every replica would show it to each.
// A client pinned to 2026-07-28 listens (`subscriptions/listen`) on each replica: each hears the change once, not
// once from its own upstream and again from the other replica through the shared event bus.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { MCP_FIXTURE_SERVER_PATH, startRedisServer, until, type RedisServerFixture } from '@tool-search/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlPrinted } from './url-printed.js';
import { scaledTimeout } from '@tool-search/property-settings';

const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const SECRET = 'a state secret the two replicas share, 32 bytes or more';
const SLOW = { timeout: scaledTimeout(60_000) };

let redis: RedisServerFixture;
let work: string;
const replicas: Array<{ child: ChildProcess; url: URL; exited: Promise<unknown> }> = [];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  work = mkdtempSync(join(tmpdir(), 'replicas-listen-once-'));
  const config = join(work, 'config.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [MCP_FIXTURE_SERVER_PATH], env: { FIXTURE_PAGE_SIZE: '50' } } } }));
  for (let i = 0; i < 2; i++) {
    const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--http', '127.0.0.1:0', '--json', '--mode', 'direct', '--store', redis.url, '--log-level', 'warn'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...withoutToken(process.env), TOOL_SEARCH_STATE_SECRET: SECRET },
    });
    child.stderr!.resume();
    replicas.push({ child, url: new URL(await urlPrinted(child)), exited: new Promise((resolve) => child.once('exit', resolve)) });
  }
}, scaledTimeout(60_000));

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  for (const replica of replicas) if (replica.child.exitCode === null && replica.child.signalCode === null) replica.child.kill('SIGTERM');
  await Promise.allSettled(replicas.map((replica) => replica.exited));
  await redis?.stop();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

async function modernClient(url: URL): Promise<Client> {
  const client = new Client({ name: 'replicas-listen-once-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(url));
  clients.push(client);
  return client;
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();

describe('serve --http replicas on one --store: a change several replicas saw', () => {
  it('tells a listener on each replica once about a change that both replicas saw', SLOW, async () => {
    const heard = [[], []] as [string[], string[]];
    const subscriptions = [];
    const listeners: Client[] = [];
    for (const [i, replica] of replicas.entries()) {
      const listener = await modernClient(replica.url);
      listener.setNotificationHandler('notifications/tools/list_changed', (notification) => void heard[i as 0 | 1].push(notification.method));
      subscriptions.push(await listener.listen({ toolsListChanged: true }));
      listeners.push(listener);
    }
    const change = (await toolNames(listeners[0]!)).find((name) => name.endsWith('change_tools'));
    expect(change).toBeDefined();
    // The same change on both replicas' upstreams, one after the other.
    for (const replica of replicas) await (await modernClient(replica.url)).callTool({ name: change!, arguments: {} });
    for (const listener of listeners) {
      for (let attempt = 0; !(await toolNames(listener)).some((name) => name.endsWith('added_later')); attempt++) {
        if (attempt > 200) throw new Error("gave up waiting for a replica's list to show the change");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    await until(() => heard.every((methods) => methods.length > 0), 'the list change on both listeners', 20_000);
    // Longer than a replica waits for its own sighting of a change another replica told (1 s): no second telling comes.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(heard).toEqual([['notifications/tools/list_changed'], ['notifications/tools/list_changed']]);
    await Promise.all(subscriptions.map((subscription) => subscription.close()));
  });
});

/** The environment without TOOL_SEARCH_TOKEN (the replicas here take no bearer token). */
function withoutToken(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { TOOL_SEARCH_TOKEN: _token, ...rest } = env;
  return rest;
}
