// pnpm bench:host [--data <dir>] [--opens 300] [--concurrent 200]
// What a long-lived host costs per run: openSession + surface at 10,957 host tools (the bench data's `mixed`
// set) with a policy that denies about half by pattern (one policy object; a fresh config object with the same
// rules per session, as a runtime that resolves its policy per run; a different policy per session), the heap the
// host's policy cache keeps per config, the same over 322 real MCP tool definitions replayed by
// 21 fixture MCP servers, 200 concurrent sessions on one host, the host's heap, and tools/call through the
// host next to the same call on a bare MCP SDK client. Prints tables; asserts nothing.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createPolicy, type Policy, type PolicyConfig } from '@tool-search/policy';
import { createToolSearchHost, type ExecutableTool, type McpServerConfig, type ToolSearchHost } from '../src/index.js';
import { benchFile, percentile, readJsonLines } from '@tool-search/bench-stats';
import { REPLAY_MCP_SERVER_PATH } from '@tool-search/test-utils';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const replayServer = REPLAY_MCP_SERVER_PATH;

const { values } = parseArgs({ options: { data: { type: 'string' }, opens: { type: 'string' }, concurrent: { type: 'string' } } });
// The dev data kept in the repository (packages/catalog/bench/data, see its README), or --data <dir> of that layout.
const dataDir = resolve(values.data ?? join(repoRoot, 'packages', 'catalog', 'bench', 'data'));
/** A set's tools file, plain or gzipped. */
const toolsFileOf = (set: string) => benchFile(join(dataDir, set), 'tools.jsonl');
/** The sets whose tools make up `mixed` (its `union.json`), or `mixed` itself when it has a tools file. */
const mixedSets = existsSync(join(dataDir, 'mixed', 'union.json')) ? (JSON.parse(readFileSync(join(dataDir, 'mixed', 'union.json'), 'utf8')) as { sets: string[] }).sets : ['mixed'];
if (mixedSets.some((set) => toolsFileOf(set) === undefined) || toolsFileOf('realmcp') === undefined) {
  console.error(`No benchmark data at ${dataDir} (pass --data <dir> holding mixed/ and realmcp/).`);
  process.exit(1);
}
const opens = Number(values.opens ?? 300);
const concurrent = Number(values.concurrent ?? 200);

interface BenchTool {
  name: string;
  description?: string;
  parameters?: Record<string, unknown> | null;
  source: string;
}
const readTools = (file: string): BenchTool[] => readJsonLines<BenchTool>(file);

const ms = (n: number) => n.toFixed(2).padStart(8);
const heapMb = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/** The mixed set as host (OpenClaw) tools, owner = benchmark; names made unique per owner. */
function mixedTools(): ExecutableTool[] {
  const seen = new Set<string>();
  return mixedSets.flatMap((set) => readTools(toolsFileOf(set) as string)).map((tool) => {
    const owner = tool.source.replace(/[^A-Za-z0-9_.@/-]/g, '_');
    const base = tool.name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 120) || 'tool';
    let name = base;
    for (let n = 2; seen.has(`${owner}:${name}`); n += 1) name = `${base}_${n}`;
    seen.add(`${owner}:${name}`);
    const schema = tool.parameters && typeof tool.parameters === 'object' ? { type: 'object', ...tool.parameters } : undefined;
    return { name, owner, description: tool.description ?? '', ...(schema ? { inputSchema: schema } : {}), execute: (args) => ({ ok: true, args }) };
  });
}

/** p50/p95 of openSession + surface + close, `opens` times, sessions one after the other. */
async function measureOpens(host: ToolSearchHost, label: string, config: unknown, policyFor: (index: number) => Policy | PolicyConfig): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < opens + 20; i += 1) {
    const started = performance.now();
    const session = await host.openSession({ config, policy: policyFor(i), context: { sessionId: `run-${i}` } });
    session.surface('openai-responses');
    const elapsed = performance.now() - started;
    await session.close();
    if (i >= 20) times.push(elapsed);
  }
  return `| ${label.padEnd(60)} | ${ms(percentile(times, 50))} | ${ms(percentile(times, 95))} |`;
}

async function hostAtMixed(): Promise<void> {
  const tools = mixedTools();
  const before = heapMb();
  const built = performance.now();
  const host = await createToolSearchHost({ sources: { openclaw: tools } });
  const buildMs = performance.now() - built;
  const hostHeap = heapMb() - before;
  const sameRules = (): PolicyConfig => ({ deny: ['openclaw:sealtools:*', 'openclaw:toolret-toolink:*'] });
  const policy = createPolicy(sameRules());
  const first = performance.now();
  const probe = await host.openSession({ config: { mode: 'tools' }, policy });
  probe.surface('openai-responses');
  const firstMs = performance.now() - first;
  const allowed = probe.telemetry().catalog.size;
  await probe.close();
  console.log(`\nhost over ${tools.length} tools (bench data mixed): built in ${buildMs.toFixed(0)} ms, heap ${hostHeap.toFixed(1)} MB; policy admits ${allowed}`);
  console.log(`first session of the policy (view built): ${firstMs.toFixed(2)} ms`);
  console.log('| openSession + surface (openai-responses) + close | p50 ms | p95 ms |');
  console.log('| --- | ---: | ---: |');
  console.log(await measureOpens(host, 'tools mode, one policy object', { mode: 'tools' }, () => policy));
  // A runtime that resolves its policy per run: a new config object with the same rules every time.
  console.log(await measureOpens(host, 'tools mode, openSession, fresh equal config', { mode: 'tools' }, () => sameRules()));
  console.log(await measureOpens(host, 'directory mode, one policy object', { mode: 'directory' }, () => policy));
  console.log(await measureOpens(host, 'directory mode, openSession, fresh equal config', { mode: 'directory' }, () => sameRules()));
  // Honest worst case: every session brings its own compiled policy, so no view is shared.
  const fresh = (i: number) => createPolicy({ deny: ['openclaw:sealtools:*', 'openclaw:toolret-toolink:*', `openclaw:none:run_${i}`] });
  console.log(await measureOpens(host, 'tools mode, a new policy object per session (no view reuse)', { mode: 'tools' }, fresh));
  await policyCacheHeap(host);
  await concurrentSessions(host, policy);
  await host.close();
}

const CACHE_PROBE = 32;
/**
 * What the host's policy cache holds per entry: sessions of `CACHE_PROBE` distinct configs (each a compiled policy
 * and its view), opened and closed, the heap after a GC against before, per entry.
 */
async function policyCacheHeap(host: ToolSearchHost): Promise<void> {
  const before = heapMb();
  for (let i = 0; i < CACHE_PROBE; i += 1) {
    const session = await host.openSession({ config: { mode: 'tools' }, policy: { deny: ['openclaw:sealtools:*', `openclaw:none:probe_${i}`] } });
    session.surface('openai-responses');
    // One search, so the view holds what a used one does (its ranking statistics), not only its admitted set.
    await session.execute({ name: 'tool_search', args: { query: 'calculate age in past years' }, toolCallId: `probe-${i}` });
    await session.close();
  }
  const perEntry = ((heapMb() - before) * 1024) / CACHE_PROBE;
  console.log(`policy cache: ${CACHE_PROBE} distinct configs opened, searched once and closed, heap kept per config (compiled policy + view): ${perEntry.toFixed(1)} KB`);
}

/** `concurrent` sessions at once, each: open, 3 searches, 1 describe, 1 call, close. */
async function concurrentSessions(host: ToolSearchHost, policy: Policy): Promise<void> {
  const queries = mixedSets.flatMap((set) => readTools(toolsFileOf(set) as string))
    .slice(0, 600)
    .map((tool) => (tool.description ?? tool.name).split(/\s+/).slice(0, 8).join(' '));
  const resourcesBefore = process.getActiveResourcesInfo().length;
  const heapBefore = heapMb();
  const searchTimes: number[] = [];
  const searchWork: number[] = [];
  let finished = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrent }, async (_, index) => {
      const session = await host.openSession({ config: { mode: 'tools' }, policy, context: { sessionId: `c${index}` } });
      const execute = (name: string, args: unknown) => session.execute({ name, args, toolCallId: `${index}-${name}-${Math.random()}` });
      let firstHit: string | undefined;
      for (let s = 0; s < 3; s += 1) {
        const t0 = performance.now();
        // A search runs synchronously inside execute: the time until execute returns its promise is its work;
        // the time until the promise settles adds the wait behind the other sessions' work.
        const pending = execute('tool_search', { query: queries[(index * 3 + s) % queries.length] });
        searchWork.push(performance.now() - t0);
        const outcome = await pending;
        searchTimes.push(performance.now() - t0);
        firstHit ??= (JSON.parse(outcome.content) as Array<{ id: string }>)[0]?.id;
      }
      if (firstHit) {
        await execute('tool_describe', { id: firstHit });
        await execute('tool_call', { id: firstHit, args: {} });
      }
      await session.close();
      finished += 1;
    }),
  );
  const wallMs = performance.now() - started;
  const heapAfter = heapMb();
  const resourcesAfter = process.getActiveResourcesInfo().length;
  console.log(`\n${concurrent} concurrent sessions (open, 3 searches, 1 describe, 1 call, close): ${finished} finished in ${wallMs.toFixed(0)} ms`);
  console.log('| measure | value |');
  console.log('| --- | ---: |');
  console.log(`| search p50 / p95 ms (its own work) | ${percentile(searchWork, 50).toFixed(2)} / ${percentile(searchWork, 95).toFixed(2)} |`);
  console.log(`| search p50 / p95 ms (until the answer, queued behind ${concurrent - 1} other sessions' work) | ${percentile(searchTimes, 50).toFixed(2)} / ${percentile(searchTimes, 95).toFixed(2)} |`);
  console.log(`| heap after close − before (MB) | ${(heapAfter - heapBefore).toFixed(2)} |`);
  console.log(`| active handles and requests before → after | ${resourcesBefore} → ${resourcesAfter} |`);
  console.log(`| sessions still open on the host | ${host.status().sessions} |`);
}

/** The 322 realmcp tools replayed by one fixture MCP server per source (21 stdio children). */
async function hostAtRealMcp(): Promise<void> {
  const file = toolsFileOf('realmcp') as string;
  const sources = [...new Set(readTools(file).map((tool) => tool.source))].sort();
  const servers: McpServerConfig[] = sources.map((source) => ({
    name: source,
    transport: 'stdio',
    command: process.execPath,
    args: [replayServer],
    env: { REPLAY_TOOLS_FILE: file, REPLAY_SOURCE: source },
  }));
  const host = await createToolSearchHost({ sources: { mcp: servers }, startupTimeoutMs: 60_000 });
  const probe = await host.openSession({ config: { mode: 'tools' } });
  const size = probe.telemetry().catalog.size;
  await probe.close();
  const denied = ['mcp:github:*', 'mcp:notion:*', 'mcp:chrome-devtools:*', 'mcp:mongodb:*', 'mcp:hubspot:*', 'mcp:firecrawl:*'];
  const policy = createPolicy({ deny: denied });
  console.log(`\nhost over ${size} MCP tools from ${servers.length} replaying servers (bench data realmcp)`);
  console.log('| openSession + surface (openai-responses) + close | p50 ms | p95 ms |');
  console.log('| --- | ---: | ---: |');
  console.log(await measureOpens(host, 'tools mode, policy denying 6 servers', { mode: 'tools' }, () => policy));
  console.log(await measureOpens(host, 'tools mode, openSession, fresh equal config', { mode: 'tools' }, () => ({ deny: [...denied] })));
  console.log(await measureOpens(host, 'directory mode, policy denying 6 servers', { mode: 'directory' }, () => policy));
  await callOverhead(host, file);
  await host.close();
}

/** tools/call of one replayed tool through a host session, next to the same call on a bare SDK client. */
async function callOverhead(host: ToolSearchHost, file: string): Promise<void> {
  const client = new Client({ name: 'bench', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [replayServer], env: { ...process.env, REPLAY_TOOLS_FILE: file, REPLAY_SOURCE: 'everything' } as Record<string, string> }));
  const session = await host.openSession({ config: { mode: 'tools' } });
  const bare: number[] = [];
  const hosted: number[] = [];
  for (let i = 0; i < 520; i += 1) {
    const t0 = performance.now();
    await client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
    const t1 = performance.now();
    await session.execute({ name: 'tool_call', args: { id: 'mcp:everything:echo', args: { message: `m${i}` } }, toolCallId: `o${i}` });
    const t2 = performance.now();
    if (i >= 20) {
      bare.push(t1 - t0);
      hosted.push(t2 - t1);
    }
  }
  await session.close();
  await client.close();
  console.log('\n| tools/call `everything:echo` (500 calls, alternating) | p50 ms | p95 ms |');
  console.log('| --- | ---: | ---: |');
  console.log(`| bare MCP SDK client | ${ms(percentile(bare, 50))} | ${ms(percentile(bare, 95))} |`);
  console.log(`| through the host (tool_call: policy, validation, render) | ${ms(percentile(hosted, 50))} | ${ms(percentile(hosted, 95))} |`);
  console.log(`| added, p50 | ${ms(percentile(hosted, 50) - percentile(bare, 50))} | |`);
}

console.log(`node ${process.version}; data ${dataDir}`);
await hostAtMixed();
await hostAtRealMcp();
