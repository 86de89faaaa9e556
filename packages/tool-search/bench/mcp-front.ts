// pnpm bench:mcp-front [--data <dir>] [--calls 1000] [--starts 5]
// What `tool-search serve` costs an MCP client, measured on the built bin over stdio with the official SDK client:
//   1. tools/list bytes per mode, with the 322 real tool definitions of the bench data's realmcp set replayed by 21
//      replay servers (one per source), next to those servers' own tools/list answers;
//   2. the time a tools/call adds through the front (direct mode by name, tools mode through tool_call), next to
//      the same call on a bare SDK client connected to the same upstream;
//   3. serve start to the first tools/list answer with 5 stdio upstreams (each probed for its protocol era by
//      the host), for a 2025-era client and for one pinned to 2026-07-28 (served statelessly on the same pipe),
//      next to the slowest of those upstreams started the same way by a bare SDK client, and to the first
//      tool_search answer that covers all five (a search waits for the servers still starting, so this is the
//      real start);
//   4. both protocol eras over Streamable HTTP (`serve --http`): tools/list bytes and tools/call latency for a
//      2025-era client (SDK v1, one session) and a client pinned to 2026-07-28 (SDK v2, no session: each request
//      opens a tool-search session on the shared host).
// Prints tables; asserts nothing.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { benchFile, median, percentile, readJsonLines } from '@tool-search/bench-stats';
import { REPLAY_MCP_SERVER_PATH } from '@tool-search/test-utils';
import { startServeHttp } from '../conformance/start-serve-http.js';

const require = createRequire(import.meta.url);
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const replayServer = REPLAY_MCP_SERVER_PATH;
const { values } = parseArgs({ options: { data: { type: 'string' }, calls: { type: 'string' }, starts: { type: 'string' } } });
// The dev data kept in the repository (packages/catalog/bench/data), or --data <dir> of the same layout.
const realmcpDir = join(resolve(values.data ?? join(repoRoot, 'packages', 'catalog', 'bench', 'data')), 'realmcp');
const toolsFile = benchFile(realmcpDir, 'tools.jsonl') ?? join(realmcpDir, 'tools.jsonl');
const CALLS = Number(values.calls ?? 1000);
const STARTS = Number(values.starts ?? 5);
const WARMUP = 100;
const BATCH = 50;

if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (pnpm --filter tool-search build)`);
if (!existsSync(toolsFile)) {
  process.stderr.write(`No benchmark data at ${toolsFile} (pass --data <dir> holding realmcp/).\n`);
  process.exit(1);
}
const work = mkdtempSync(join(tmpdir(), 'bench-mcp-front-'));

type Stdio = { command: string; args: string[]; env?: Record<string, string> };
const replay = (source: string): Stdio => ({ command: process.execPath, args: [replayServer], env: { REPLAY_TOOLS_FILE: toolsFile, REPLAY_SOURCE: source } });
const sources = [...new Set(readJsonLines<{ source: string }>(toolsFile).map((tool) => tool.source))];

function writeConfig(name: string, servers: Record<string, Stdio>): string {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify({ mcpServers: servers, startupTimeoutMs: 60_000 }));
  return path;
}

async function connect(server: Stdio): Promise<Client> {
  const client = new Client({ name: 'bench-mcp-front', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ ...server, env: { ...(process.env as Record<string, string>), ...(server.env ?? {}) }, stderr: 'ignore' }));
  return client;
}
const serve = (config: string, mode: string): Stdio => ({ command: process.execPath, args: [bin, 'serve', '--config', config, '--mode', mode, '--quiet'] });

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function listBytes(lines: string[]): Promise<void> {
  const config = writeConfig('realmcp.json5', Object.fromEntries(sources.map((source) => [source, replay(source)])));
  let upstreamBytes = 0;
  let upstreamTools = 0;
  for (const source of sources) {
    const client = await connect(replay(source));
    const { tools } = await client.listTools();
    upstreamBytes += Buffer.byteLength(JSON.stringify(tools));
    upstreamTools += tools.length;
    await client.close();
  }
  lines.push(`1. tools/list an MCP client gets, ${sources.length} upstream servers replaying the realmcp bench set (${upstreamTools} tools)`);
  lines.push('| through | mode | tools | tools/list bytes | instructions | vs the servers\' own |');
  lines.push('| --- | --- | ---: | ---: | ---: | ---: |');
  lines.push(`| each server directly (sum) | - | ${upstreamTools} | ${kb(upstreamBytes)} | - | 100 % |`);
  for (const mode of ['direct', 'code', 'tools', 'directory', 'auto']) {
    const client = await connect(serve(config, mode));
    const { tools } = await client.listTools();
    const bytes = Buffer.byteLength(JSON.stringify(tools));
    lines.push(`| tool-search serve | ${mode} | ${tools.length} | ${kb(bytes)} (${bytes} B) | ${Buffer.byteLength(client.getInstructions() ?? '')} B | ${((100 * bytes) / upstreamBytes).toFixed(1)} % |`);
    await client.close();
  }
}

async function callLatency(lines: string[]): Promise<void> {
  const upstream = replay('everything');
  const config = writeConfig('one.json5', { everything: upstream });
  const bare = await connect(upstream);
  const direct = await connect(serve(config, 'direct'));
  const tools = await connect(serve(config, 'tools'));
  const routes: Array<{ label: string; run: () => Promise<unknown> }> = [
    { label: 'bare SDK client → upstream', run: () => bare.callTool({ name: 'echo', arguments: { message: 'hi' } }) },
    { label: 'front, direct mode (echo)', run: () => direct.callTool({ name: 'echo', arguments: { message: 'hi' } }) },
    { label: 'front, tools mode (tool_call)', run: () => tools.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: 'hi' } } }) },
  ];
  const samples = routes.map(() => [] as number[]);
  for (let index = 0; index < WARMUP; index += 1) for (const route of routes) await route.run();
  for (let done = 0; done < CALLS; done += BATCH) {
    for (const [which, route] of routes.entries()) {
      for (let index = 0; index < BATCH; index += 1) {
        const started = performance.now();
        await route.run();
        samples[which]!.push(performance.now() - started);
      }
    }
  }
  const bareP50 = median(samples[0]!);
  lines.push(`2. tools/call latency, ${CALLS} calls per route after ${WARMUP} warm-up calls, alternating in batches of ${BATCH} (ms)`);
  lines.push('| route | p50 | p95 | added p50 vs bare |');
  lines.push('| --- | ---: | ---: | ---: |');
  for (const [which, route] of routes.entries()) {
    const p50 = median(samples[which]!);
    lines.push(`| ${route.label} | ${p50.toFixed(3)} | ${percentile(samples[which]!, 95).toFixed(3)} | ${which === 0 ? '-' : (p50 - bareP50).toFixed(3)} |`);
  }
  await Promise.all([bare.close(), direct.close(), tools.close()]);
}

async function startup(lines: string[]): Promise<void> {
  const resolveScript = (name: string) => require.resolve(`@modelcontextprotocol/server-${name}/dist/index.js`);
  const upstreams: Record<string, Stdio> = {
    everything: { command: process.execPath, args: [resolveScript('everything')] },
    filesystem: { command: process.execPath, args: [resolveScript('filesystem'), work] },
    memory: { command: process.execPath, args: [resolveScript('memory')], env: { MEMORY_FILE_PATH: join(work, 'memory.jsonl') } },
    github: replay('github'),
    notion: replay('notion'),
  };
  const config = writeConfig('five.json5', upstreams);
  const none = writeConfig('none.json5', {});
  const timeToList = async (server: Stdio) => {
    const started = performance.now();
    const client = await connect(server);
    await client.listTools();
    const elapsed = performance.now() - started;
    return { elapsed, client };
  };
  // One query per upstream; the answer covers all five when each query's hits include a tool of its server.
  const coverage: Record<string, string> = {
    everything: 'echo back the message',
    filesystem: 'read a text file',
    memory: 'create entities in the knowledge graph',
    github: 'create a pull request',
    notion: 'notion page',
  };
  const firstSearch = async (client: Client) => {
    const result = await client.callTool({ name: 'tool_search', arguments: { queries: Object.values(coverage) } });
    const text = (result.content as { type: string; text?: string }[]).find((part) => part.type === 'text')?.text ?? '';
    const answers = JSON.parse(text) as { hits: { id: string }[] }[];
    const missed = Object.keys(coverage).filter((server, index) => !(answers[index]?.hits ?? []).some((hit) => hit.id.startsWith(`mcp:${server}:`)));
    if (missed.length > 0) throw new Error(`the first tool_search answer misses ${missed.join(', ')}`);
  };
  const slowest: number[] = [];
  const front: number[] = [];
  const modernFront: number[] = [];
  const searched: number[] = [];
  const empty: number[] = [];
  for (let run = 0; run < STARTS; run += 1) {
    // The upstreams as a direct MCP client starts them: all five at once.
    const bare = await Promise.all(Object.values(upstreams).map(timeToList));
    slowest.push(Math.max(...bare.map((entry) => entry.elapsed)));
    await Promise.all(bare.map((entry) => entry.client.close()));
    const spawned = performance.now();
    const through = await timeToList(serve(config, 'tools'));
    front.push(through.elapsed);
    await firstSearch(through.client);
    searched.push(performance.now() - spawned);
    await through.client.close();
    // The same start for a client on 2026-07-28: its first message (server/discover) picks the stateless front.
    const modernSpawned = performance.now();
    const modern = new ModernClient({ name: 'bench-modern', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new ModernStdioTransport(serve(config, 'tools')));
    await modern.listTools();
    modernFront.push(performance.now() - modernSpawned);
    await modern.close();
    const alone = await timeToList(serve(none, 'tools'));
    empty.push(alone.elapsed);
    await alone.client.close();
  }
  lines.push(`3. spawn to first tools/list answer, 5 stdio upstreams (server-everything, -filesystem, -memory, 2 replays), median of ${STARTS} (ms)`);
  lines.push('| measure | median | min | max |');
  lines.push('| --- | ---: | ---: | ---: |');
  const row = (label: string, samples: number[]) => `| ${label} | ${median(samples).toFixed(0)} | ${Math.min(...samples).toFixed(0)} | ${Math.max(...samples).toFixed(0)} |`;
  lines.push(row('slowest upstream, the 5 started at once by a bare SDK client', slowest));
  lines.push(row('tool-search serve with the 5, to its first tools/list (2025-era client)', front));
  lines.push(row('tool-search serve with the 5, to its first tools/list (client pinned to 2026-07-28)', modernFront));
  lines.push(row('tool-search serve with the 5, to its first tool_search answer that covers all five', searched));
  lines.push(row('tool-search serve with no upstream (its own start)', empty));
  lines.push(`| serve − slowest upstream (median) | ${(median(front) - median(slowest)).toFixed(0)} | | |`);
  lines.push(`| first covering tool_search − slowest upstream (median) | ${(median(searched) - median(slowest)).toFixed(0)} | | |`);
}

async function bothEras(lines: string[]): Promise<void> {
  const config = writeConfig('realmcp-http.json5', Object.fromEntries(sources.map((source) => [source, replay(source)])));
  const calls = Math.max(50, Math.floor(CALLS / 5));
  lines.push(`4. both protocol eras on one \`serve --http\` endpoint (${sources.length} replay servers): tools/list bytes, and ${calls} tool_call calls per era after ${WARMUP / 2} warm-up calls, alternating in batches of ${BATCH} (ms)`);
  lines.push('| mode | era | tools/list bytes | tool_call p50 | p95 |');
  lines.push('| --- | --- | ---: | ---: | ---: |');
  for (const mode of ['tools', 'direct']) {
    const started = await startServeHttp(bin, config, mode);
    const url = new URL(started.url);
    const child = started.child;
    const legacy = new Client({ name: 'bench-legacy', version: '0.0.0' });
    await legacy.connect(new StreamableHTTPClientTransport(url));
    const modern = new ModernClient({ name: 'bench-modern', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new ModernTransport(url));
    const eras = [
      { label: '2025-11-25 (session)', list: () => legacy.listTools(), call: () => (mode === 'direct' ? legacy.callTool({ name: 'echo', arguments: { message: 'hi' } }) : legacy.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: 'hi' } } })) },
      { label: '2026-07-28 (stateless)', list: () => modern.listTools(), call: () => (mode === 'direct' ? modern.callTool({ name: 'echo', arguments: { message: 'hi' } }) : modern.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: 'hi' } } })) },
    ];
    const samples = eras.map(() => [] as number[]);
    for (let index = 0; index < WARMUP / 2; index += 1) for (const era of eras) await era.call();
    for (let done = 0; done < calls; done += BATCH) {
      for (const [which, era] of eras.entries()) {
        for (let index = 0; index < BATCH; index += 1) {
          const started = performance.now();
          await era.call();
          samples[which]!.push(performance.now() - started);
        }
      }
    }
    for (const [which, era] of eras.entries()) {
      const { tools } = await era.list();
      lines.push(`| ${mode} | ${era.label} | ${kb(Buffer.byteLength(JSON.stringify(tools)))} | ${median(samples[which]!).toFixed(3)} | ${percentile(samples[which]!, 95).toFixed(3)} |`);
    }
    await Promise.all([legacy.close(), modern.close()]);
    child.kill('SIGTERM');
    await new Promise((resolveExit) => child.once('exit', resolveExit));
  }
}

async function main(): Promise<void> {
  const lines: string[] = [];
  try {
    await listBytes(lines);
    lines.push('');
    await callLatency(lines);
    lines.push('');
    await startup(lines);
    lines.push('');
    await bothEras(lines);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:mcp-front: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
