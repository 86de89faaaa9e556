// For the list-change tests across replicas: two `tool-search serve --http` replicas (the real bin) on one Debian
// redis-server (`--store`), each with its own stdio upstream (the fixture server, one process per replica), started
// before the file's tests and stopped after them, and 2026-07-28 clients for them.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { scaledTimeout } from '@tool-search/property-settings';
import { MCP_FIXTURE_SERVER_PATH, startRedisServer, type RedisServerFixture } from '@tool-search/test-utils';
import { afterAll, beforeAll } from 'vitest';
import { urlPrinted } from './url-printed.js';

const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const SECRET = 'a state secret the two replicas share, 32 bytes or more';

export interface ListeningReplica {
  child: ChildProcess;
  url: URL;
  exited: Promise<unknown>;
}

export interface ListeningReplicas {
  /** Filled by the file's beforeAll. */
  replicas: ListeningReplica[];
  /** A client pinned to 2026-07-28, connected to `url`, closed after the file's tests. */
  modernClient(url: URL): Promise<Client>;
  /** The names the client lists, sorted. */
  toolNames(client: Client): Promise<string[]>;
}

/** Registers the file's beforeAll / afterAll that start and stop the two replicas and their Redis; `name` names the temp folder and the clients. */
export function useListeningReplicas(name: string): ListeningReplicas {
  let redis: RedisServerFixture | undefined;
  let work: string | undefined;
  const replicas: ListeningReplica[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    work = mkdtempSync(join(tmpdir(), `${name}-`));
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

  return {
    replicas,
    async modernClient(url) {
      const client = new Client({ name: `${name}-test`, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(url));
      clients.push(client);
      return client;
    },
    toolNames: async (client) => (await client.listTools()).tools.map((tool) => tool.name).sort(),
  };
}

/** The environment without TOOL_SEARCH_TOKEN (the replicas here take no bearer token). */
function withoutToken(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { TOOL_SEARCH_TOKEN: _token, ...rest } = env;
  return rest;
}
