// `tool-search serve` told to stop (SIGTERM) with ten calls in flight, over Streamable HTTP and over stdio: the
// real bin (dist/cli.js) with the real server-everything behind it, driven by the official SDK client. Calls that
// finish within the drain timeout are answered with their results; the rest with a shutting-down error at the
// drain timeout, never left to the client's own timeout; serve exits 0 and leaves no server running.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { urlPrinted } from './url-printed.js';

const require = createRequire(import.meta.url);
const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const run = promisify(execFile);
const SLOW = { timeout: 60_000 };
/** The client's own request timeout: a call the server left unanswered would fail with it (-32001), not -32000. */
const CLIENT_TIMEOUT_MS = 20_000;

let work: string;
let config: string;
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first (pnpm --filter tool-search build)`);
  work = mkdtempSync(join(tmpdir(), 'tool-search-drain-'));
  config = join(work, 'config.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } }, toolSearch: { mode: 'tools' }, drainTimeoutMs: 3_000 }));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Five calls that finish within the drain timeout (3 s; they take 1.5 s) and five that cannot (30 s), on the clients in turn;
 * `started` resolves once each has reported progress (it reached the upstream server).
 */
function tenCalls(clients: Client[]): { started: Promise<unknown>; outcomes: Promise<Array<{ ok: true; text: string } | { ok: false; code: unknown; message: string }>> } {
  const started: Array<Promise<void>> = [];
  const outcomes = Array.from({ length: 10 }, (_, index) => {
    let progressed = () => undefined as void;
    started.push(new Promise((resolve) => (progressed = resolve)));
    const duration = index < 5 ? 1.5 : 30;
    return clients[index % clients.length]!.callTool(
      { name: 'tool_call', arguments: { id: 'mcp:everything:trigger-long-running-operation', args: { duration, steps: duration * 10 } } },
      undefined,
      { timeout: CLIENT_TIMEOUT_MS, onprogress: () => progressed() },
    ).then(
      (result) => ({ ok: true as const, text: JSON.stringify(result.content) }),
      (error: { code?: unknown; message: string }) => ({ ok: false as const, code: error.code, message: error.message }),
    );
  });
  return { started: Promise.all(started), outcomes: Promise.all(outcomes) };
}

async function serverChildren(pid: number): Promise<string[]> {
  const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(pid)]).catch(() => ({ stdout: '' }));
  return stdout.split('\n').map((line) => line.trim()).filter((line) => line !== '');
}

function expectDrained(outcomes: Awaited<ReturnType<typeof tenCalls>['outcomes']>): void {
  expect(outcomes.slice(0, 5).every((outcome) => outcome.ok && outcome.text.includes('Long running operation completed'))).toBe(true);
  for (const outcome of outcomes.slice(5)) {
    expect(outcome).toMatchObject({ ok: false, code: -32000, message: expect.stringContaining('Server shutting down: the request did not finish within the drain timeout (3000 ms)') });
  }
}

describe('tool-search serve, SIGTERM with calls in flight', () => {
  it('over HTTP: finishes the calls that can, answers the rest at the drain timeout, exits 0', SLOW, async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--http', '127.0.0.1:0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    cleanups.push(async () => void (child.exitCode === null && child.kill('SIGKILL')));
    const url = await urlPrinted(child);
    const clients = await Promise.all(
      [1, 2].map(async (index) => {
        const client = new Client({ name: `drain-${index}`, version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        cleanups.push(() => client.close());
        return client;
      }),
    );
    await clients[0]!.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: 'started' } } });
    const servers = await serverChildren(child.pid!);
    const calls = tenCalls(clients);
    await calls.started;
    const signalled = Date.now();
    child.kill('SIGTERM');
    expectDrained(await calls.outcomes);
    console.log(`HTTP: all 10 calls answered ${Date.now() - signalled} ms after SIGTERM (drain timeout 3000 ms)`);
    expect(await exited).toBe(0);
    expect(servers.length).toBe(1);
    for (const pid of servers) expect(existsSync(`/proc/${pid}`), `server process ${pid}`).toBe(false);
  });

  it('over stdio: the same, and exits 0', SLOW, async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--config', config], stderr: 'pipe' });
    const client = new Client({ name: 'drain-stdio', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const pid = transport.pid!;
    const exited = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (!existsSync(`/proc/${pid}`)) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: 'started' } } });
    const servers = await serverChildren(pid);
    const calls = tenCalls([client]);
    await calls.started;
    const signalled = Date.now();
    process.kill(pid, 'SIGTERM');
    expectDrained(await calls.outcomes);
    console.log(`stdio: all 10 calls answered ${Date.now() - signalled} ms after SIGTERM (drain timeout 3000 ms)`);
    await exited;
    expect(servers.length).toBe(1);
    for (const server of servers) expect(existsSync(`/proc/${server}`), `server process ${server}`).toBe(false);
  });
});
