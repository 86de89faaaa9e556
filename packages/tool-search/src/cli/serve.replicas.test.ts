// Three `tool-search serve --http` replicas (the real bin, dist/cli.js) behind Debian's nginx (round-robin), sharing
// Debian's redis-server (`--store`) and one signing secret (TOOL_SEARCH_STATE_SECRET), in front of two upstream MCP
// servers every replica shares: one that counts the calls it receives per tag (a call lost or run twice shows), and
// an OAuth-protected one that counts token requests (a refresh spent twice shows). Driven by the official SDK v2
// client pinned to 2026-07-28; nginx's `X-Replica` header ($upstream_addr) says which replica answered each request.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { connectRedisStore } from '@tool-search/redis-store';
import {
  followAuthorizationRedirect,
  freePort,
  MODERN_MCP_SERVER_PATH,
  startCountingMcpServer,
  startMcpOAuthFixture,
  startRedisServer,
  until,
  type CountingMcpServer,
  type McpOAuthFixture,
  type RedisServerFixture,
} from '@tool-search/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlPrinted } from './url-printed.js';
import { scaledTimeout } from '@tool-search/property-settings';

const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const README = join(dirname(BIN), '..', 'README.md');
const SLOW = { timeout: 120_000 };
const SECRET = 'replica-test-secret-of-at-least-32-bytes';
/** How long each call of the kill scenarios takes upstream: long enough to be in flight when a replica is stopped. */
const CALL_MS = 1_500;

interface Replica {
  child: ChildProcess;
  /** `127.0.0.1:PORT`, as nginx's $upstream_addr names it. */
  address: string;
  exited: Promise<number | null>;
  stderr(): string;
}

let work: string;
let redis: RedisServerFixture;
let counter: CountingMcpServer;
let oauth: McpOAuthFixture;
let nginx: ChildProcess | undefined;
let roundRobinUrl: string;
let stickyUrl: string;
const replicas: Replica[] = [];
const clients: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first (pnpm --filter tool-search build)`);
  work = mkdtempSync(join(tmpdir(), 'tool-search-replicas-'));
  [redis, counter, oauth] = await Promise.all([startRedisServer(), startCountingMcpServer(), startMcpOAuthFixture()]);
  await authorizeOnce();
  const config = join(work, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        counter: { url: counter.url },
        secured: { url: oauth.url, oauth: { scopes: ['mcp:tools'] } },
        // Each replica runs its own: its `deploy` asks for a confirmation mid-call, on the replica running the call.
        modern: { command: process.execPath, args: [MODERN_MCP_SERVER_PATH] },
      },
      toolSearch: { mode: 'tools' },
      // `echo` needs an approval, which the MCP client whose call it is gives (an elicitation).
      policy: { requireApproval: ['mcp:modern:echo'] },
      approvals: 'client',
      drainTimeoutMs: 15_000,
    }),
  );
  replicas.push(...(await Promise.all([0, 1, 2].map(() => startReplica(config)))));
  await startNginx();
}, scaledTimeout(60_000));

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  for (const replica of replicas) if (replica.child.exitCode === null && replica.child.signalCode === null) replica.child.kill('SIGKILL');
  await Promise.allSettled(replicas.map((replica) => replica.exited));
  if (nginx !== undefined && nginx.exitCode === null && nginx.signalCode === null) {
    // SIGTERM (nginx's fast shutdown): the master stops its worker before it exits; SIGKILL would orphan the worker.
    const exited = new Promise((resolve) => nginx!.once('exit', resolve));
    nginx.kill('SIGTERM');
    await exited;
  }
  await Promise.allSettled([redis?.stop(), counter?.close(), oauth?.close()]);
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/** What a user does once before starting the replicas: authorize the OAuth server, the tokens kept in Redis. */
async function authorizeOnce(): Promise<void> {
  const store = await connectRedisStore(redis.url, { secret: SECRET });
  const host = await createToolSearchHost({
    sources: { mcp: [{ name: 'secured', transport: 'http', url: oauth.url, oauth: { scopes: ['mcp:tools'] } }] },
    mcpClient: { oauth: { store: store.tokenStore, authorize: async ({ authorizationUrl }) => followAuthorizationRedirect(authorizationUrl) } },
  });
  try {
    await until(() => host.status().servers[0]?.state === 'ready', 'the OAuth server to be authorized', 20_000);
  } finally {
    await host.close();
    await store.close();
  }
}

async function startReplica(config: string): Promise<Replica> {
  const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--http', '127.0.0.1:0', '--json', '--store', redis.url, '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...withoutToken(process.env), TOOL_SEARCH_STATE_SECRET: SECRET },
  });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = new URL(await urlPrinted(child));
  return { child, address: url.host, exited, stderr: () => err };
}

/** The environment without TOOL_SEARCH_TOKEN (the replicas here take no bearer token). */
function withoutToken(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { TOOL_SEARCH_TOKEN: _token, ...rest } = env;
  return rest;
}

/** nginx in the foreground, its files in the test's folder: one round-robin port, one sticky (ip_hash) port. */
async function startNginx(): Promise<void> {
  const dir = join(work, 'nginx');
  mkdirSync(dir);
  const [roundRobinPort, stickyPort] = [await freePort(), await freePort()];
  const servers = replicas.map((replica) => `    server ${replica.address};`).join('\n');
  // The README's block as users copy it (its `location /mcp` and `location @replica_failed`), on this test's ports.
  const { mcp, failed } = readmeNginxLocations();
  const proxy = [...mcp.map((line) => (line.startsWith('proxy_pass ') ? 'proxy_pass http://$upstream_group;' : line)), 'add_header X-Replica $upstream_addr always;'].map((line) => `      ${line}`).join('\n');
  const failedLocation = `    location @replica_failed {\n${[...failed, 'add_header X-Replica $upstream_addr always;'].map((line) => `      ${line}`).join('\n')}\n    }`;
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      // Which replicas nginx tried for each request and what each answered (read when a test fails).
      "  log_format replicas '$server_port $request $status upstream=$upstream_addr upstream_status=$upstream_status';",
      `  access_log ${join(dir, 'access.log')} replicas;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, kind)};`),
      `  upstream round_robin {\n${servers}\n  }`,
      `  upstream sticky {\n    ip_hash;\n${servers}\n  }`,
      `  server {\n    listen 127.0.0.1:${roundRobinPort};\n    set $upstream_group round_robin;\n    location / {\n${proxy}\n    }\n${failedLocation}\n  }`,
      `  server {\n    listen 127.0.0.1:${stickyPort};\n    set $upstream_group sticky;\n    location / {\n${proxy}\n    }\n${failedLocation}\n  }`,
      '}',
    ].join('\n'),
  );
  let err = '';
  nginx = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  nginx.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  roundRobinUrl = `http://127.0.0.1:${roundRobinPort}/mcp`;
  stickyUrl = `http://127.0.0.1:${stickyPort}/mcp`;
  // Ready when it answers (a GET with no session: the replica's 400 comes back through nginx).
  let ready = false;
  for (let attempt = 0; attempt < 200 && !ready; attempt += 1) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited ${String(nginx.exitCode)}: ${err}`);
    ready = await fetch(roundRobinUrl).then(
      (response) => response.headers.has('x-replica'),
      () => false,
    );
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!ready) throw new Error(`nginx did not answer: ${err}`);
}

/** A modern client through `url`, recording which replica answered each of its requests (in order) and each `record` call (by tag). */
async function modernClient(url = roundRobinUrl, answer?: Record<string, boolean>): Promise<{ client: ModernClient; answeredBy: string[]; byTag: Map<string, string>; asked: string[] }> {
  const answeredBy: string[] = [];
  const byTag = new Map<string, string>();
  const recording = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    const replica = response.headers.get('x-replica') ?? 'none';
    answeredBy.push(replica);
    const tag = typeof init?.body === 'string' ? (JSON.parse(init.body) as { params?: { arguments?: { args?: { tag?: string } } } }).params?.arguments?.args?.tag : undefined;
    if (tag !== undefined) byTag.set(tag, replica);
    return response;
  };
  const asked: string[] = [];
  const client = new ModernClient({ name: 'replica-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: answer === undefined ? {} : { elicitation: { form: {} } } });
  if (answer !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: answer };
    });
  }
  await client.connect(new ModernTransport(new URL(url), { fetch: recording }));
  clients.push(client);
  return { client, answeredBy, byTag, asked };
}

/**
 * The directives of the README's nginx block: its `location /mcp` and `location @replica_failed`, comments dropped.
 * The test runs them as written, so the block users copy is the one tested.
 */
function readmeNginxLocations(): { mcp: string[]; failed: string[] } {
  const block = /```nginx\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'))?.[1];
  if (block === undefined) throw new Error(`${README} has no nginx block`);
  const location = (name: string) => {
    const body = new RegExp(`location ${name} \\{\\n([\\s\\S]*?)\\n    \\}`).exec(block)?.[1];
    if (body === undefined) throw new Error(`the README's nginx block has no location ${name}`);
    return body.split('\n').map((line) => line.replace(/\s+#.*$/, '').replace(/^\s*#.*$/, '').trim()).filter((line) => line !== '');
  };
  return { mcp: location('/mcp'), failed: location('@replica_failed') };
}

/** Resolves once `replica` stopped taking requests: it refuses connections, or answers 503 on one already open (draining). */
async function draining(replica: Replica): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const status = await fetch(`http://${replica.address}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }).then((response) => response.status, () => 0);
    if (status === 503 || status === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`replica ${replica.address} never started draining`);
}

/** The last lines of one of nginx's logs in the test's folder. */
const nginxLog = (name: string) => {
  const file = join(work, 'nginx', name);
  return existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-12).join('\n') : '(none)';
};

const textOf = (result: unknown) => ((result as { content: Array<{ type: string; text?: string }> }).content.find((part) => part.type === 'text')?.text ?? '');
/** The replicas nginx tried for one request, in order (`$upstream_addr`: the last one answered). */
const triedBy = (addresses: string | undefined) => addresses?.split(', ') ?? [];

/** Calls `record` with `tag`; resolves with its text. */
async function record(client: ModernClient, tag: string, ms = 0): Promise<string> {
  return textOf(await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:counter:record', args: { tag, ms } } }, { timeout: 60_000 }));
}

describe('tool-search serve: three replicas behind nginx, on one Redis', () => {
  it('serves one modern conversation spread over the replicas: discover on one, then search, describe and call on the others', SLOW, async () => {
    const { client, answeredBy } = await modernClient();
    // connect() sent server/discover: the client learned one replica's advertisement.
    expect(answeredBy).toHaveLength(1);
    const found = textOf(await client.callTool({ name: 'tool_search', arguments: { query: 'record a call under a tag' } }));
    expect(found).toContain('mcp:counter:record');
    const described = textOf(await client.callTool({ name: 'tool_describe', arguments: { id: 'mcp:counter:record' } }));
    expect(described).toContain('"tag"');
    expect(await record(client, 'conversation')).toBe('recorded conversation');
    // Four requests, round-robin over three replicas: every replica answered, and the call right after discover
    // went to another replica than discover's.
    expect(answeredBy).toHaveLength(4);
    expect(new Set(answeredBy)).toEqual(new Set(replicas.map((replica) => replica.address)));
    expect(answeredBy[1]).not.toBe(answeredBy[0]);
    expect(counter.started('conversation')).toBe(1);
  });

  it('uses on every replica the OAuth token one replica refreshed (one refresh in all), and refreshes once for three whose tokens expired at once', SLOW, async () => {
    const { client, answeredBy } = await modernClient();
    const whoami = () => client.callTool({ name: 'tool_call', arguments: { id: 'mcp:secured:whoami', args: {} } }).then(textOf);
    for (let call = 0; call < 3; call += 1) expect(await whoami()).toMatch(/^client [0-9a-f-]{36}$/);
    expect(oauth.counts).toMatchObject({ codeExchanges: 1, refreshes: 0 });
    // Every access token expires; the next replica to call refreshes, the other two use what it saved in Redis.
    oauth.expireAll();
    const from = answeredBy.length;
    for (let call = 0; call < 3; call += 1) expect(await whoami()).toMatch(/^client [0-9a-f-]{36}$/);
    expect(new Set(answeredBy.slice(from))).toEqual(new Set(replicas.map((replica) => replica.address)));
    expect(oauth.counts).toMatchObject({ codeExchanges: 1, refreshes: 1 });
    // Expired again, and three calls at once, one per replica: each finds its token refused; their refreshes take
    // turns under the store's lock, and the second and third find the tokens already replaced and take them. One
    // refresh in all, nobody asked to authorize again.
    oauth.expireAll();
    const concurrent = answeredBy.length;
    expect(await Promise.all([whoami(), whoami(), whoami()])).toEqual([expect.stringMatching(/^client /), expect.stringMatching(/^client /), expect.stringMatching(/^client /)]);
    expect(new Set(answeredBy.slice(concurrent))).toEqual(new Set(replicas.map((replica) => replica.address)));
    expect(oauth.counts.refreshes).toBe(2);
    expect(oauth.counts.codeExchanges).toBe(1);
    expect(oauth.counts.authorizations).toBe(1);
  });

  it('continues a call that asked its client mid-call on its own replica when the answer reaches another (Redis rendezvous)', SLOW, async () => {
    const { client, answeredBy, asked } = await modernClient(roundRobinUrl, { confirm: true });
    const from = answeredBy.length;
    const result = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:modern:deploy', args: { env: 'production' } } }, { timeout: 60_000 });
    expect(textOf(result)).toBe('Deployed to production');
    expect(asked).toEqual(['Deploy to production?']);
    // Two rounds: the call started on one replica (answered input_required), the retry with the answer was
    // answered by the next one, which passed the answer to the first over Redis and relayed its result.
    const rounds = answeredBy.slice(from);
    expect(rounds).toHaveLength(2);
    expect(rounds[1]).not.toBe(rounds[0]);
  });

  it('asks the client for an approval on one replica and runs the approved call when the answer reaches another', SLOW, async () => {
    const { client, answeredBy, asked } = await modernClient(roundRobinUrl, { approve: true });
    const from = answeredBy.length;
    const result = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:modern:echo', args: { text: 'approved across replicas' } } }, { timeout: 60_000 });
    expect(textOf(result)).toBe('approved across replicas');
    expect(asked).toEqual(['Allow mcp:modern:echo? (mcp:modern:echo in global requires approval)\nArguments (untrusted text written by the model, not by the gateway; long values cut short):\n  text: "approved across replicas"']);
    const rounds = answeredBy.slice(from);
    expect(rounds).toHaveLength(2);
    expect(rounds[1]).not.toBe(rounds[0]);
  });

  it('blocks the call when the client, answering through another replica, does not approve', SLOW, async () => {
    const { client, answeredBy, asked } = await modernClient(roundRobinUrl, { approve: false });
    const from = answeredBy.length;
    const result = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:modern:echo', args: { text: 'refused' } } }, { timeout: 60_000 });
    expect(textOf(result)).toContain('the MCP client did not approve');
    expect(asked).toHaveLength(1);
    expect(new Set(answeredBy.slice(from)).size).toBe(2);
  });

  it('keeps a 2025-era session on its replica only when routing is sticky: round-robin loses it, ip_hash serves it', SLOW, async () => {
    const lost = new LegacyClient({ name: 'legacy-round-robin', version: '1.0.0' });
    clients.push(lost);
    // initialize reaches one replica, the next request of its session another, which does not know it.
    await expect(lost.connect(new LegacyTransport(new URL(roundRobinUrl))).then(() => lost.listTools())).rejects.toThrow(/Session not found/);
    const sticky = new LegacyClient({ name: 'legacy-sticky', version: '1.0.0' });
    clients.push(sticky);
    await sticky.connect(new LegacyTransport(new URL(stickyUrl))).catch((error: unknown) => {
      // Why nginx moved the session (a replica it counted as failed, and what it logged), for whoever reads this.
      throw new Error(`${String(error)}\nnginx access log (last lines):\n${nginxLog('access.log')}\nnginx error log:\n${nginxLog('error.log')}`);
    });
    expect((await sticky.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    expect(textOf(await sticky.callTool({ name: 'tool_call', arguments: { id: 'mcp:counter:record', args: { tag: 'legacy' } } }))).toContain('recorded legacy');
    expect(counter.started('legacy')).toBe(1);
  });

  it('SIGTERM on a replica with calls in flight: they finish there, new calls go to the others, each call runs once upstream', SLOW, async () => {
    const { client, byTag } = await modernClient();
    const drain = [0, 1, 2, 3, 4, 5].map((index) => `drain-${index}`);
    const after = [0, 1, 2, 3, 4, 5].map((index) => `after-${index}`);
    const inFlight = drain.map((tag) => record(client, tag, CALL_MS));
    await until(() => counter.totalStartedWith('drain-') === 6, 'six calls to reach the upstream', 20_000);
    const victim = replicas[0]!;
    victim.child.kill('SIGTERM');
    await draining(victim);
    // Sent while the victim drains: the one nginx gives it is answered 503 there and goes on to another replica
    // (which marks the victim down: the rest go elsewhere at once).
    const texts = await Promise.all([...inFlight, ...after.map((tag) => record(client, tag))]);
    expect(texts).toEqual([...drain, ...after].map((tag) => `recorded ${tag}`));
    // Round-robin gave the victim two of the six in flight, and they finished there; no later call was answered by it.
    expect(drain.filter((tag) => triedBy(byTag.get(tag)).at(-1) === victim.address)).toHaveLength(2);
    expect(after.filter((tag) => triedBy(byTag.get(tag)).at(-1) === victim.address)).toEqual([]);
    expect(after.filter((tag) => triedBy(byTag.get(tag))[0] === victim.address).length).toBeGreaterThan(0);
    for (const tag of [...drain, ...after]) expect(counter.started(tag), tag).toBe(1);
    expect(await victim.exited).toBe(0);
  });

  it('SIGKILL on a replica with calls in flight: every call is answered, a cut one with an error that says so, and none runs twice upstream', SLOW, async () => {
    const { client, byTag } = await modernClient();
    const victim = replicas[1]!;
    const tags = [0, 1, 2, 3].map((index) => `kill-${index}`);
    // Long enough that the kill comes while they run, on a loaded machine too.
    const inFlight = tags.map((tag) => record(client, tag, CALL_MS * 4).then((text) => ({ text }), (error: unknown) => ({ error: String(error) })));
    await until(() => counter.totalStartedWith('kill-') === 4, 'four calls to reach the upstream', 20_000);
    victim.child.kill('SIGKILL');
    const answers = await Promise.all(inFlight);
    // nginx does not re-send a call its replica read and died on (no non_idempotent): the client is told the call may
    // have run; every other call finished.
    const cut = tags.filter((tag) => triedBy(byTag.get(tag)).includes(victim.address));
    expect(cut.length).toBeGreaterThan(0);
    for (const [index, tag] of tags.entries()) {
      if (cut.includes(tag)) expect(answers[index], tag).toEqual({ error: expect.stringContaining('the replica serving this request failed before answering; the call may have run') as unknown });
      else expect(answers[index], tag).toEqual({ text: `recorded ${tag}` });
      expect(counter.started(tag), tag).toBe(1);
    }
    expect(await victim.exited).toBe(null);
  });
});
