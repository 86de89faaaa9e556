// List changes across replicas: two `tool-search serve --http` replicas (the real bin) on one Debian redis-server
// (`--store`), each with its own stdio upstream (the fixture server, one process per replica). A client pinned to
// 2026-07-28 listens (`subscriptions/listen`) on replica 1; another client changes the tool list of replica 2's
// upstream. Replica 1's own upstream did not change: the listener hears it only through the shared event bus.
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
const SLOW = { timeout: 60_000 };

let redis: RedisServerFixture;
let work: string;
const replicas: Array<{ child: ChildProcess; url: URL; exited: Promise<unknown> }> = [];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  work = mkdtempSync(join(tmpdir(), 'replicas-listen-'));
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
  const client = new Client({ name: 'replicas-listen-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(url));
  clients.push(client);
  return client;
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();

describe('serve --http replicas on one --store: list changes', () => {
  it("tells a listener on one replica about a change that only another replica's upstream made", SLOW, async () => {
    const [one, two] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const listener = await modernClient(one.url);
    const heard: string[] = [];
    listener.setNotificationHandler('notifications/tools/list_changed', (notification) => void heard.push(notification.method));
    const before = await toolNames(listener);
    const removed = before.find((name) => name.endsWith('remove_me'));
    const change = before.find((name) => name.endsWith('change_tools'));
    expect(removed).toBeDefined();
    expect(change).toBeDefined();
    const subscription = await listener.listen({ toolsListChanged: true });
    const changer = await modernClient(two.url);
    await changer.callTool({ name: change!, arguments: {} });
    // Replica 2's upstream swapped its tools; the listener on replica 1 hears it through Redis.
    await until(() => heard.length > 0, 'the list change on the listener of replica 1', 20_000);
    expect(heard[0]).toBe('notifications/tools/list_changed');
    for (let attempt = 0; !(await toolNames(changer)).some((name) => name.endsWith('added_later')); attempt++) {
      if (attempt > 200) throw new Error("gave up waiting for replica 2's list to show the change");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Replica 1's own upstream did not change: the notification did not come from it.
    expect(await toolNames(listener)).toEqual(before);
    await subscription.close();
  });
});

/** The environment without TOOL_SEARCH_TOKEN (the replicas here take no bearer token). */
function withoutToken(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { TOOL_SEARCH_TOKEN: _token, ...rest } = env;
  return rest;
}
