// tools/call overhead of our MCP connection against a bare SDK client, on the same real stdio servers (the
// package's fixture server and @modelcontextprotocol/server-everything). Calls alternate between the two
// clients in small batches so drift hits both alike. Prints a table; asserts nothing.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { connectMcpServer } from '../src/mcp-client/index.js';
import type { McpServerConfig } from '../src/index.js';
import { mcpFixtureConfig, realMcpServerConfig } from '@tool-search/test-utils';
import { percentile } from '@tool-search/bench-stats';

const CALLS = Number(process.env['BENCH_CALLS'] ?? '2000');
const WARMUP = 200;
const BATCH = 50;

interface Row {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  config: McpServerConfig & { transport: 'stdio' };
}

const rows: Row[] = [
  { server: 'fixture', tool: 'echo_text', args: { text: 'hello' }, config: mcpFixtureConfig('fixture') as Row['config'] },
  { server: 'fixture', tool: 'add_numbers', args: { a: 2, b: 3 }, config: mcpFixtureConfig('fixture') as Row['config'] },
  { server: 'everything', tool: 'get-tiny-image', args: {}, config: realMcpServerConfig('everything') as Row['config'] },
];

const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), mean: samples.reduce((sum, value) => sum + value, 0) / samples.length };
};

async function bareClient(config: Row['config']): Promise<Client> {
  const client = new Client({ name: 'bench-bare', version: '0.0.0' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command: config.command, args: config.args ?? [], env: { ...process.env, ...(config.env ?? {}) } as Record<string, string>, stderr: 'ignore' }));
  return client;
}

async function main(): Promise<void> {
  const lines: string[] = [];
  lines.push(`tools/call, ${CALLS} calls per client after ${WARMUP} warm-up calls (ms)`);
  lines.push('| server | tool | bare SDK p50 | ours p50 | added p50 | bare p95 | ours p95 | added mean |');
  lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) {
    const bare = await bareClient(row.config);
    const ours = await connectMcpServer(row.config, { requestTimeoutMs: 30_000 });
    if (ours.status !== 'connected') throw new Error(`${row.server}: ${ours.failure}`);
    const bareSamples: number[] = [];
    const ourSamples: number[] = [];
    for (let index = 0; index < WARMUP; index += 1) {
      await bare.callTool({ name: row.tool, arguments: row.args });
      await ours.callTool(row.tool, row.args);
    }
    for (let done = 0; done < CALLS; done += BATCH) {
      for (let index = 0; index < BATCH; index += 1) {
        const start = performance.now();
        await bare.callTool({ name: row.tool, arguments: row.args });
        bareSamples.push(performance.now() - start);
      }
      for (let index = 0; index < BATCH; index += 1) {
        const start = performance.now();
        const result = await ours.callTool(row.tool, row.args);
        ourSamples.push(performance.now() - start);
        if (!result.ok) throw new Error(`${row.tool}: ${result.message}`);
      }
    }
    await bare.close();
    await ours.close();
    const b = stats(bareSamples);
    const o = stats(ourSamples);
    const f = (value: number) => value.toFixed(3);
    lines.push(`| ${row.server} | ${row.tool} | ${f(b.p50)} | ${f(o.p50)} | ${f(o.p50 - b.p50)} | ${f(b.p95)} | ${f(o.p95)} | ${f(o.mean - b.mean)} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:mcp-call: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
