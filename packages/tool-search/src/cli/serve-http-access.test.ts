// `serve --http`'s safe defaults, against the built command: beyond loopback it needs a token (or --no-auth, said
// in so many words, with a warning); on loopback without one it says once who can call every tool. A missing
// token, a host beyond loopback without --allowed-host, a busy port and an address this machine does not have all
// fail before any server is spawned (the config's one server writes a marker file when it starts).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.js';

const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
/** The environment without the token variables (the cases set their own). */
const { TOOL_SEARCH_TOKEN: _token, TOOL_SEARCH_METRICS_TOKEN: _metrics, ...BASE_ENV } = process.env;

let work: string;
let marker: string;
let config: string;
let emptyConfig: string;
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first (pnpm --filter tool-search build)`);
  work = mkdtempSync(join(tmpdir(), 'tool-search-access-'));
  marker = join(work, 'spawned');
  config = join(work, 'config.json');
  // A server that leaves a mark the moment it is spawned (it is no MCP server: it never answers).
  writeFileSync(config, JSON.stringify({ mcpServers: { marker: { command: 'sh', args: ['-c', `echo spawned >> '${marker}'; exec sleep 30`] } }, startupTimeoutMs: 1_000 }));
  emptyConfig = join(work, 'empty.json');
  writeFileSync(emptyConfig, JSON.stringify({ mcpServers: {} }));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Ran {
  /** The exit status, or `serving` when it printed its URL (it is stopped then, with SIGTERM). */
  code: number | 'serving';
  stderr: string;
  url?: string;
}

/** Runs the built `tool-search serve --json ...args` until it exits, or until it serves (then `whileServing`, then SIGTERM). */
function serve(args: string[], env: NodeJS.ProcessEnv = {}, whileServing?: (url: string) => Promise<void>): Promise<Ran> {
  const child = spawn(process.execPath, [BIN, 'serve', '--json', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...BASE_ENV, ...env } });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    let serving: string | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const url = /"url": "([^"]+)"/.exec(stdout)?.[1];
      if (url === undefined || serving !== undefined) return;
      serving = url;
      void (whileServing?.(url) ?? Promise.resolve()).then(
        () => child.kill('SIGTERM'),
        (error: unknown) => {
          child.kill('SIGTERM');
          reject(error as Error);
        },
      );
    });
    child.once('exit', (code) => resolve({ code: serving === undefined ? (code ?? -1) : 'serving', stderr, ...(serving === undefined ? {} : { url: serving }) }));
  });
}

const spawned = () => existsSync(marker);

describe('tool-search serve --http: who may call, checked before any server starts', () => {
  it('refuses to listen beyond loopback without a token, naming --token-env and --no-auth (exit 2)', async () => {
    const ran = await serve(['--config', config, '--http', '0.0.0.0:0', '--allowed-host', 'lan.example']);
    expect(ran.code).toBe(EXIT_CODES.usage);
    expect(ran.stderr).toContain('serve --http 0.0.0.0:0 listens beyond this machine without a token');
    expect(ran.stderr).toContain('--token-env NAME');
    expect(ran.stderr).toContain('--no-auth');
    expect(spawned()).toBe(false);
  });

  it('refuses 0.0.0.0 without --allowed-host (exit 2)', async () => {
    const ran = await serve(['--config', config, '--http', '0.0.0.0:0'], { TOOL_SEARCH_TOKEN: 'client-token' });
    expect(ran.code).toBe(EXIT_CODES.usage);
    expect(ran.stderr).toContain('name the hostnames clients use with --allowed-host');
    expect(spawned()).toBe(false);
  });

  it('fails on a busy port (exit 5), naming the flag', async () => {
    const busy: Server = createServer();
    const port = await new Promise<number>((resolve) => busy.listen(0, '127.0.0.1', () => resolve((busy.address() as { port: number }).port)));
    try {
      const ran = await serve(['--config', config, '--http', `127.0.0.1:${port}`]);
      expect(ran.code).toBe(EXIT_CODES.io);
      expect(ran.stderr).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use (choose another with --http HOST:PORT`);
      expect(ran.stderr).not.toContain('failed to start');
      expect(spawned()).toBe(false);
    } finally {
      busy.close();
    }
  });

  it('fails on an address this machine does not have (exit 5)', async () => {
    // 192.0.2.0/24 is TEST-NET-1: documentation only, never a local address.
    const ran = await serve(['--config', config, '--http', '192.0.2.1:0', '--allowed-host', 'lan.example'], { TOOL_SEARCH_TOKEN: 'client-token' });
    expect(ran.code).toBe(EXIT_CODES.io);
    expect(ran.stderr).toContain('cannot listen on 192.0.2.1:0: this machine has no such address');
    expect(spawned()).toBe(false);
  });

  it('refuses --no-auth with a client token, and a metrics token equal to the clients\' (exit 2)', async () => {
    const both = await serve(['--config', config, '--http', '0', '--no-auth'], { TOOL_SEARCH_TOKEN: 'client-token' });
    expect(both.code).toBe(EXIT_CODES.usage);
    expect(both.stderr).toContain('--no-auth and a client token (TOOL_SEARCH_TOKEN) contradict each other');
    const same = await serve(['--config', config, '--http', '0', '--metrics-token-env', 'SCRAPE'], { TOOL_SEARCH_TOKEN: 'one-token', SCRAPE: 'one-token' });
    expect(same.code).toBe(EXIT_CODES.usage);
    expect(same.stderr).toContain("--metrics-token-env holds the MCP clients' token; /metrics needs a token of its own");
    const stdio = await serve(['--config', config, '--no-auth']);
    expect(stdio.code).toBe(EXIT_CODES.usage);
    expect(stdio.stderr).toContain('serve --no-auth applies to --http only');
    expect(spawned()).toBe(false);
  });

  it('serves beyond loopback with --no-auth, warning once on stderr that anyone who reaches it can call every tool, and keeps /metrics shut', async () => {
    let metrics: { status: number; text: string } | undefined;
    const ran = await serve(['--config', emptyConfig, '--http', '0.0.0.0:0', '--allowed-host', 'lan.example', '--no-auth', '--quiet'], {}, async (url) => {
      const scraped = await fetch(new URL('/metrics', url));
      metrics = { status: scraped.status, text: await scraped.text() };
    });
    expect(ran.code).toBe('serving');
    // Nobody needs a token to call, yet /metrics, beyond loopback, wants one of its own.
    expect(metrics).toEqual({ status: 403, text: 'Forbidden: /metrics has no token of its own; start serve with --metrics-token-env NAME to scrape it\n' });
    const warnings = ran.stderr.split('\n').filter((line) => line.includes('warning: no token'));
    expect(warnings).toEqual([`tool-search: warning: no token on ${ran.url} (--no-auth): anyone who can reach ${ran.url} can call every tool with your servers' credentials; set one with --token-env NAME`]);
  });

  it('serves on loopback without a token, saying once on stderr that any local user can call every tool', async () => {
    const ran = await serve(['--config', emptyConfig, '--http', '127.0.0.1:0']);
    expect(ran.code).toBe('serving');
    const warnings = ran.stderr.split('\n').filter((line) => line.includes('warning: no token'));
    expect(warnings).toEqual([`tool-search: warning: no token on ${ran.url}: any local user can call every tool with your servers' credentials; set one with --token-env NAME`]);
    const guarded = await serve(['--config', emptyConfig, '--http', '127.0.0.1:0'], { TOOL_SEARCH_TOKEN: 'client-token' });
    expect(guarded.code).toBe('serving');
    expect(guarded.stderr).not.toContain('warning: no token');
  });
});

describe('tool-search serve --session-log DIR', () => {
  it('writes the gateway session log of every session of the run into one file in DIR, as the gateway writes it', async () => {
    const logs = join(work, 'logs', 'serve');
    const ran = await serve(['--config', emptyConfig, '--http', '127.0.0.1:0', '--session-log', logs], { TOOL_SEARCH_TOKEN: 'client-token' }, async (url) => {
      const client = new Client({ name: 'session-log-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer client-token' } } }));
      await client.callTool({ name: 'tool_search', arguments: { query: 'send an email' } });
      await client.close();
    });
    expect(ran.code).toBe('serving');
    const files = readdirSync(logs);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^serve-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-\d+\.jsonl$/);
    expect(ran.stderr).toContain(`tool-search: session log ${join(logs, files[0] as string)}`);
    const lines = readFileSync(join(logs, files[0] as string), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const events = lines.map((line) => line['event']);
    expect(events).toContain('session.start');
    expect(events).toContain('search');
    // The gateway's own format: ISO times, the session's id on every line.
    for (const line of lines) {
      expect(line['time']).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/));
      expect(line['sessionId']).toEqual(expect.any(String));
    }
    expect(lines.find((line) => line['event'] === 'search')).toMatchObject({ query: 'send an email' });
  });
});
