// The real `tool-search` bin (the built dist/cli.js), spawned as an MCP client would, with real MCP servers from
// npm behind it, driven by the official SDK client (stdio and Streamable HTTP) and the MCP Inspector's CLI.
import { spawn, execFile, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const NODE_26 = join(dirname(require.resolve(`node-${process.platform}-${process.arch}/package.json`)), 'bin', 'node');
const INSPECTOR = join(dirname(require.resolve('@modelcontextprotocol/inspector/package.json')), 'clients', 'launcher', 'build', 'index.js');
const run = promisify(execFile);
/** Each test spawns real processes (the bin, its MCP servers, Node 26 for the Inspector). */
const SLOW = { timeout: 60_000 };

let work: string;
let config: string;
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first (pnpm --filter tool-search build)`);
  work = mkdtempSync(join(tmpdir(), 'tool-search-bin-'));
  writeFileSync(join(work, 'notes.txt'), 'hello from the filesystem server');
  config = writeConfig('config.json5', {
    everything: { command: process.execPath, args: [EVERYTHING] },
    filesystem: { command: process.execPath, args: [FILESYSTEM, work] },
  });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function writeConfig(name: string, servers: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify({ mcpServers: servers, toolSearch: { mode: 'tools' }, ...extra }));
  return path;
}

async function stdioClient(args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--config', config, ...args], stderr: 'pipe' });
  const client = new Client({ name: 'bin-test', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

const textOf = (result: unknown) => ((result as { content: { type: string; text?: string }[] }).content ?? []).filter((part) => part.type === 'text').map((part) => part.text).join('\n');

/** A spawned `serve` with its stdio as raw pipes: send lines, read reply lines. */
function rawServe(configPath: string): { child: ChildProcessWithoutNullStreams; send(line: string): void; reply(id: number | null, index?: number): Promise<Record<string, unknown>>; stderr(): string } {
  const child = spawn(process.execPath, [BIN, 'serve', '--config', configPath], { stdio: 'pipe' });
  const replies: Record<string, unknown>[] = [];
  let buffered = '';
  let errText = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
      replies.push(JSON.parse(buffered.slice(0, newline)) as Record<string, unknown>);
      buffered = buffered.slice(newline + 1);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (errText += chunk.toString('utf8')));
  cleanups.push(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
  return {
    child,
    send: (line) => child.stdin.write(`${line}\n`),
    async reply(id, index = 0) {
      for (let attempt = 0; attempt < 600; attempt += 1) {
        const matching = replies.filter((reply) => reply['id'] === id);
        if (matching.length > index) return matching[index]!;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`no reply with id ${String(id)}; stderr:\n${errText}`);
    },
    stderr: () => errText,
  };
}
const initialize = (id: number, name: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1' } } });

describe('tool-search serve over stdio, with the official SDK client', () => {
  it('lists the tools-mode surface and finds and calls tools of server-everything and server-filesystem', SLOW, async () => {
    const client = await stdioClient();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    const hits = JSON.parse(textOf(await client.callTool({ name: 'tool_search', arguments: { query: 'read a text file' } }))) as { id: string }[];
    expect(hits.map((hit) => hit.id)).toContain('mcp:filesystem:read_text_file');
    const read = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:filesystem:read_text_file', args: { path: join(work, 'notes.txt') } } });
    expect(textOf(read)).toContain('hello from the filesystem server');
    const image = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:get-tiny-image', args: {} } });
    expect((image.content as { type: string; mimeType?: string }[]).some((part) => part.type === 'image' && part.mimeType === 'image/png')).toBe(true);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain('simple-prompt');
  });

  it('is an aggregating proxy with --mode direct', SLOW, async () => {
    const client = await stdioClient(['--mode', 'direct']);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-tiny-image', 'read_text_file', 'list_directory']));
    expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'direct' } }))).toBe('Echo: direct');
  });
});

describe('tool-search serve --http, with the official SDK client', () => {
  it('serves Streamable HTTP on loopback, refuses a foreign Host, and stops on SIGTERM', SLOW, async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--http', '127.0.0.1:0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const url = await urlPrinted(child);
    const client = new Client({ name: 'bin-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await client.listTools()).tools.length).toBe(3);
    const echoed = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: 'over http' } } });
    expect(textOf(echoed)).toBe('Echo: over http');
    const status = await new Promise<number>((resolve) => {
      const sent = httpRequest(url, { method: 'POST', headers: { Host: 'evil.example.com', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      sent.end(initialize(1, 'evil'));
    });
    expect(status).toBe(403);
    await client.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('tool-search serve: bad input', () => {
  it('exits 3 at once for a broken config, naming the file, line and column', SLOW, async () => {
    const broken = join(work, 'broken.json5');
    writeFileSync(broken, '{ mcpServers: { a: { command: "x" } }, toolSearch: { mode: "tools" ');
    const started = Date.now();
    const failure = await run(process.execPath, [BIN, 'serve', '--config', broken]).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 3, stderr: expect.stringContaining(`${broken}:1:`) });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('keeps serving when a server cannot start, and a call to it says why with its stderr', SLOW, async () => {
    const withBroken = writeConfig('with-broken.json5', {
      everything: { command: process.execPath, args: [EVERYTHING] },
      slack: { command: process.execPath, args: ['-e', 'console.error("Please set SLACK_BOT_TOKEN"); process.exit(1)'] },
    });
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--config', withBroken], stderr: 'pipe' });
    const client = new Client({ name: 'bin-test', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const failed = await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:slack:post_message', args: {} } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('MCP server "slack"');
    expect(textOf(failed)).toContain('Please set SLACK_BOT_TOKEN');
    expect(textOf(await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: 'still here' } } }))).toBe('Echo: still here');
  });

  it('answers garbage, oversized JSON-RPC and a second client on the same stdio with errors, and keeps serving', SLOW, async () => {
    const serve = rawServe(config);
    serve.send('{"jsonrpc": "2.0", "id": 1, "method": "initialize", ');
    expect(await serve.reply(null)).toMatchObject({ error: { code: -32700, message: expect.stringContaining('Parse error') } });
    serve.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } }));
    expect(await serve.reply(null, 1)).toMatchObject({ error: { code: -32600, message: expect.stringContaining('Request too large') } });
    serve.send(initialize(3, 'first-client'));
    expect(await serve.reply(3)).toMatchObject({ result: { serverInfo: { name: 'tool-search' } } });
    serve.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    serve.send(initialize(4, 'second-client'));
    expect(await serve.reply(4)).toMatchObject({ error: { code: -32600, message: expect.stringContaining('already serves a client ("first-client")') } });
    serve.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }));
    expect(((await serve.reply(5))['result'] as { tools: unknown[] }).tools).toHaveLength(3);
  });

  it('serves two clients with two processes, and a process whose stdin ends exits 0 leaving no server running', SLOW, async () => {
    const first = rawServe(config);
    const second = rawServe(config);
    first.send(initialize(1, 'one'));
    second.send(initialize(1, 'two'));
    await Promise.all([first.reply(1), second.reply(1)]);
    const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(first.child.pid)]);
    const children = stdout.split('\n').map((line) => line.trim()).filter((line) => line !== '');
    expect(children.length).toBe(2);
    const exited = new Promise<number | null>((resolve) => first.child.once('exit', resolve));
    first.child.stdin.end();
    expect(await exited).toBe(0);
    for (const pid of children) expect(existsSync(`/proc/${pid}`), `server process ${pid}`).toBe(false);
    second.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(((await second.reply(2))['result'] as { tools: unknown[] }).tools).toHaveLength(3);
  });
});

describe('tool-search serve with the MCP Inspector CLI', () => {
  const inspector = async (args: string[]) => {
    const { stdout } = await run(NODE_26, [INSPECTOR, '--cli', ...args, '--', process.execPath, BIN, 'serve', '--config', config], { maxBuffer: 16 * 1024 * 1024, timeout: 60_000 });
    return JSON.parse(stdout) as Record<string, unknown>;
  };

  it('lists the tools and calls tool_search and tool_call', SLOW, async () => {
    const listed = (await inspector(['--method', 'tools/list'])) as { tools: { name: string; inputSchema: unknown }[] };
    expect(listed.tools.map((tool) => tool.name)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    const searched = await inspector(['--method', 'tools/call', '--tool-name', 'tool_search', '--tool-arg', 'query=list a directory']);
    expect(textOf(searched)).toContain('mcp:filesystem:list_directory');
    const called = await inspector(['--method', 'tools/call', '--tool-name', 'tool_call', '--tool-arg', 'id=mcp:filesystem:list_directory', '--tool-arg', `args={"path":${JSON.stringify(work)}}`]);
    expect(textOf(called)).toContain('notes.txt');
    const echoed = await inspector(['--method', 'tools/call', '--tool-name', 'tool_call', '--tool-arg', 'id=mcp:everything:echo', '--tool-arg', 'args={"message":"inspected"}']);
    expect(textOf(echoed)).toBe('Echo: inspected');
  });
});
