// The root README's "Use it with your MCP servers", step by step, as a newcomer runs it from a clone: a scratch
// folder as the working directory, a Claude Desktop config with a real MCP server (the memory server from npm),
// `pnpm tool-search init --from ./that-file`, `doctor`, `search`, then an MCP client started the way the README's
// Claude Code / Cursor entries start it (the built CLI by its absolute path, and the pnpm script).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BUILT_CLI = join(ROOT, 'packages', 'tool-search', 'dist', 'cli.js');
const MEMORY = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
/** The first step may build every package (turbo: minutes on a busy 2-core machine, a cache hit after \`pnpm test\`'s build). */
const SLOW = { timeout: 900_000 };

let scratch: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'tool-search-newcomer-'));
  // The config goes where `init` puts it by default; nothing of the machine's own config is read.
  const { TOOL_SEARCH_CONFIG: _ignored, ...rest } = process.env;
  env = { ...rest, XDG_CONFIG_HOME: join(scratch, 'config') };
  writeFileSync(
    join(scratch, 'claude_desktop_config.json'),
    JSON.stringify({ mcpServers: { memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') } } } }),
  );
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `pnpm --dir <clone> tool-search <args>`, run from the scratch folder. */
function pnpmToolSearch(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('pnpm', ['--silent', '--dir', ROOT, 'tool-search', ...args], { cwd: scratch, env }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

async function connect(command: string, args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command, args, cwd: tmpdir(), env: env as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'newcomer', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('pnpm tool-search from a clone (the root README steps)', () => {
  it('imports the client config from a relative path, checks it, searches it, and serves it to an MCP client', SLOW, async () => {
    const init = await pnpmToolSearch(['init', '--from', './claude_desktop_config.json']);
    expect(init.code, init.stderr).toBe(0);
    const written = join(scratch, 'config', 'tool-search', 'config.json5');
    expect(init.stdout).toContain(`Wrote ${written} with 1 server: memory`);
    expect(readFileSync(written, 'utf8')).toContain(MEMORY);

    const doctor = await pnpmToolSearch(['doctor']);
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(/✓ memory\s+\d+ tools/);

    const search = await pnpmToolSearch(['search', 'create entities in the knowledge graph', '--limit', '3']);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('create_entities');

    for (const [command, args] of [
      [process.execPath, [BUILT_CLI, 'serve']],
      ['pnpm', ['--silent', '--dir', ROOT, 'tool-search', 'serve']],
    ] as const) {
      const client = await connect(command, [...args]);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort(), command).toEqual(['tool_call', 'tool_describe', 'tool_search']);
        const found = await client.callTool({ name: 'tool_search', arguments: { query: 'create entities' } });
        expect(JSON.stringify(found.content)).toContain('create_entities');
      } finally {
        await client.close();
      }
    }
  });
});
