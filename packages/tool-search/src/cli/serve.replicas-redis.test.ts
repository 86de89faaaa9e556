// Two `tool-search serve --http --store` replicas (the real bin, dist/cli.js) on Debian's redis-server, as an attacker
// with a Redis client and as an operator whose Redis restarts or whose replica dies. A 2026-07-28 client (the official
// SDK v2 client) starts a call that asks for a confirmation mid-call (the modern fixture's `deploy`) on replica A and
// answers through replica B: B passes the answer to A through Redis. The test routes each request itself (the
// client's `fetch`), so which replica gets which round is known. The attacker is Debian's redis-cli.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { freePort, MODERN_MCP_SERVER_PATH, startCountingMcpServer, type CountingMcpServer } from '@tool-search/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlPrinted } from './url-printed.js';
import { scaledTimeout } from '@tool-search/property-settings';

const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const SLOW = { timeout: 60_000 };
const SECRET = 'replica-redis-test-secret-of-32-bytes!!';

interface Replica {
  child: ChildProcess;
  address: string;
  exited: Promise<number | null>;
  stderr(): string;
}

let work: string;
let redisPort: number;
let redis: ChildProcess | undefined;
let config: string;
let counter: CountingMcpServer;
const replicas: Replica[] = [];
const clients: ModernClient[] = [];

/** redis-server on a fixed port (so a restart is the same address), nothing persisted: a restart loses everything. */
async function startRedis(): Promise<void> {
  const child = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', work, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`redis-server exited (${String(code)}): ${output.slice(-300)}`)));
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')).includes('Ready to accept connections') && resolve());
  });
  redis = child;
}

async function stopRedis(): Promise<void> {
  const child = redis;
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function startReplica(): Promise<Replica> {
  const { TOOL_SEARCH_TOKEN: _token, ...env } = process.env;
  const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--http', '127.0.0.1:0', '--json', '--store', `redis://127.0.0.1:${redisPort}`, '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, TOOL_SEARCH_STATE_SECRET: SECRET },
  });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = new URL(await urlPrinted(child));
  return { child, address: url.host, exited, stderr: () => err };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'tool-search-replicas-redis-'));
  redisPort = await freePort();
  await startRedis();
  config = join(work, 'config.json');
  counter = await startCountingMcpServer();
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { modern: { command: process.execPath, args: [MODERN_MCP_SERVER_PATH] }, counter: { url: counter.url } },
      toolSearch: { mode: 'tools' },
      // `record` needs an approval, which the MCP client whose call it is gives: an approval that crosses replicas.
      policy: { requireApproval: ['mcp:counter:record'] },
      approvals: 'client',
    }),
  );
  replicas.push(...(await Promise.all([startReplica(), startReplica(), startReplica()])));
  // On a loaded machine the modern fixture may answer its start-up probe late and be taken for a 2025 server, which
  // it refuses (the gateway's probe timeout, not what this file tests): such a replica is started again.
  for (let index = 0; index < replicas.length; index++) {
    for (let attempt = 0; !(await modernServerReady(replicas[index]!)); attempt++) {
      if (attempt === 3) throw new Error(`the modern fixture did not start on replica ${replicas[index]!.address}: ${replicas[index]!.stderr().slice(-500)}`);
      replicas[index]!.child.kill('SIGKILL');
      await replicas[index]!.exited;
      replicas[index] = await startReplica();
    }
  }
}, scaledTimeout(180_000));

/** Whether `replica` calls the modern fixture's `echo`. */
async function modernServerReady(replica: Replica): Promise<boolean> {
  const client = new ModernClient({ name: 'replica-redis-ready', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  try {
    await client.connect(new ModernTransport(new URL(`http://${replica.address}/mcp`)));
    for (let attempt = 0; attempt < 50; attempt++) {
      const result = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:modern:echo', args: { text: 'ready' } } });
      const text = textOf(result);
      if (text === 'ready') return true;
      if (text.includes('failed to start')) return false;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return false;
  } finally {
    await client.close();
  }
}

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  for (const replica of replicas) if (replica.child.exitCode === null && replica.child.signalCode === null) replica.child.kill('SIGKILL');
  await Promise.allSettled(replicas.map((replica) => replica.exited));
  await stopRedis();
  await counter?.close();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/**
 * A client pinned to 2026-07-28 whose requests go to `route.to` (changed by the test, also from inside the
 * elicitation handler, so the retry with the answer goes elsewhere); `onAsked` answers the confirmation.
 */
async function routedClient(route: { to: Replica }, onAsked: () => Promise<{ action: 'accept'; content: Record<string, boolean> } | { action: 'decline' }>) {
  const routed = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    url.host = route.to.address;
    return fetch(url, init);
  };
  const client = new ModernClient({ name: 'replica-redis-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', onAsked);
  await client.connect(new ModernTransport(new URL(`http://${route.to.address}/mcp`), { fetch: routed }));
  clients.push(client);
  return client;
}

const deploy = (client: ModernClient) => client.callTool({ name: 'tool_call', arguments: { id: 'mcp:modern:deploy', args: { env: 'production' } } }, { timeout: 45_000 });
/** Runs one redis-cli command against the test's Redis; resolves with its output. */
const redisCli = (...args: string[]) =>
  new Promise<string>((resolve, reject) => execFile('redis-cli', ['-p', String(redisPort), ...args], (error, stdout) => (error === null ? resolve(stdout) : reject(error))));
const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
const textOf = (result: unknown) => ((result as { content: Array<{ type: string; text?: string }> }).content.find((part) => part.type === 'text')?.text ?? '');

describe('serve --http replicas on one --store: what crosses Redis', () => {
  it('runs no approval forged on Redis: an attacker who lists the channels and keys and answers on all of them gets nothing, and is logged', SLOW, async () => {
    const [a, b] = [replicas[0]!, replicas[1]!];
    const route = { to: a };
    const attackerReplyTo = 'tool-search:mrtr:reply:attacker';
    // The attacker listens where it asked the holder to reply.
    const listener = spawn('redis-cli', ['-p', String(redisPort), 'subscribe', attackerReplyTo], { stdio: ['ignore', 'pipe', 'ignore'] });
    let heard = '';
    listener.stdout.on('data', (chunk: Buffer) => (heard += chunk.toString('utf8')));
    try {
      const client = await routedClient(route, async () => {
        // The call waits on A for this answer. The attacker answers first, everywhere it can write.
        const approval = JSON.stringify({ replyTo: attackerReplyTo, answers: { confirm: { action: 'accept', content: { confirm: true } }, 'input-1': { action: 'accept', content: { confirm: true } } } });
        const channels = lines(await redisCli('pubsub', 'channels', '*')).filter((channel) => channel !== attackerReplyTo);
        const keys = lines(await redisCli('keys', '*'));
        expect(channels.length).toBeGreaterThan(0);
        for (const channel of channels) await redisCli('publish', channel, approval);
        for (const key of keys) if ((await redisCli('type', key)).trim() === 'list') await redisCli('rpush', key, approval);
        for (const channel of channels) if (channel.includes(':mrtr:replica:')) await redisCli('rpush', `${channel}:inbox`, approval);
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        route.to = b;
        return { action: 'decline' };
      });
      const result = await deploy(client);
      // The user declined, and that is what happened: the forged approval ran nothing and sent the attacker nothing.
      expect(textOf(result)).toContain('Not deployed to production: decline');
      expect(heard.split('\n').map((line) => line.trim())).toEqual(['subscribe', attackerReplyTo, '1', '']);
      expect(a.stderr() + b.stderr()).toContain('redis message refused');
    } finally {
      listener.kill('SIGKILL');
    }
  });

  it('loses no answer when Redis restarts (empty) while the answer is on its way to the replica holding the call', SLOW, async () => {
    const [a, b] = [replicas[0]!, replicas[1]!];
    for (let round = 0; round < 4; round++) {
      const route = { to: a };
      const client = await routedClient(route, async () => {
        // Redis goes down before the answer is sent, and comes back (empty) while it is on its way.
        await stopRedis();
        route.to = b;
        setTimeout(() => void startRedis(), 300 + 400 * round);
        return { action: 'accept', content: { confirm: true } };
      });
      expect(textOf(await deploy(client))).toBe('Deployed to production');
      await client.close();
    }
  });

  it('answers -32602 within seconds when the replica holding the call dies after the answer reached it', SLOW, async () => {
    const [, b, c] = [replicas[0]!, replicas[1]!, replicas[2]!];
    const route = { to: c };
    // The call starts on C and asks for an approval; the approval goes through B to C, which runs the (slow) call.
    const client = await routedClient(route, async () => {
      route.to = b;
      return { action: 'accept', content: { approve: true } };
    });
    const called = client.callTool({ name: 'tool_call', arguments: { id: 'mcp:counter:record', args: { tag: 'dead-holder', ms: 20_000 } } }, { timeout: 45_000 }).then(
      () => undefined,
      (error: unknown) => error as { code?: number; message?: string },
    );
    // C runs the approved call upstream, then dies with the answer it owes B.
    const deadline = Date.now() + 20_000;
    while (counter.started('dead-holder') === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(counter.started('dead-holder')).toBe(1);
    c.child.kill('SIGKILL');
    await c.exited;
    const killedAt = Date.now();
    const failure = await called;
    const waitedMs = Date.now() - killedAt;
    expect(failure?.code).toBe(-32602);
    expect(failure?.message).toContain('stopped before answering');
    expect(waitedMs).toBeLessThan(10_000);
  });
});
