// One server's problem stays that server's: `doctor` and `search` of the real CLI code with the official memory
// MCP server from npm next to servers that cannot start (a variable that is not set, a VS Code input, an envFile
// that is not there, a command that does not exist, a server that exits at once).
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.js';
import { runCli } from './run-cli.js';
import { createTestIo } from './testing-io.js';

const MEMORY_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const SLOW = { timeout: 90_000 };

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function setUp(servers: Record<string, unknown>): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'cli-server-problems-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const memory = { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } };
  writeFileSync(join(dir, 'config.json5'), JSON.stringify({ mcpServers: { memory, ...servers }, startupTimeoutMs: 10_000 }));
  return { dir, env: { XDG_CACHE_HOME: join(dir, 'cache') } };
}

describe('a server that cannot start', () => {
  it('doctor shows each one ✗ with what to do, every other server starts, and it exits 4', SLOW, async () => {
    const { dir, env } = setUp({
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}' } },
      vscode: { command: 'npx', args: ['-y', 'some-server'], env: { API_KEY: '${input:api-key}' } },
      cursor: { command: process.execPath, args: [MEMORY_SERVER], envFile: '.env.missing' },
      missing: { command: 'tool-search-no-such-command' },
      crashing: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
    });
    const io = createTestIo({ cwd: dir, env });
    expect(await runCli(['doctor', '--config', 'config.json5'], io)).toBe(EXIT_CODES.unavailable);
    const out = io.out();
    expect(out).toMatch(/✓ memory\s+\d+ tools/);
    expect(out).toContain(
      '✗ github                   not started: mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN refers to ${GITHUB_TOKEN}, which is not set; set GITHUB_TOKEN in the environment tool-search runs in, or remove the server',
    );
    expect(out).toContain('✗ vscode                   not started: mcpServers.vscode.env.API_KEY needs the VS Code input "api-key", which has no value; replace ${input:api-key} with ${env:NAME} and set NAME in the environment tool-search runs in, or remove the server');
    expect(out).toContain(`✗ cursor                   not started: mcpServers.cursor.envFile: ${join(dir, '.env.missing')} does not exist; fix the path or put the variables in "env", or remove the server`);
    expect(out).toContain('✗ missing                  unavailable: MCP server "missing" failed to start: the command "tool-search-no-such-command" was not found (not installed, or not on the PATH tool-search runs with)');
    expect(out).toMatch(/✗ crashing +(unavailable|restarting): MCP server "crashing" failed to start: the server closed the connection before it answered \(it exited as it started\)/);
    // No SDK internals, no library options a CLI user does not have.
    expect(out).not.toMatch(/options\.env|StdioClientTransport|sibling probe|probed in place/);
  });

  it('reads a Cursor envFile into the server environment; search answers from the servers that started', SLOW, async () => {
    const { dir, env } = setUp({ github: { command: 'gh-mcp', env: { TOKEN: '${GITHUB_TOKEN}' } } });
    writeFileSync(join(dir, 'config.json5'), JSON.stringify({ mcpServers: { memory: { command: process.execPath, args: [MEMORY_SERVER], envFile: 'memory.env' }, github: { command: 'gh-mcp', env: { TOKEN: '${GITHUB_TOKEN}' } } } }));
    writeFileSync(join(dir, 'memory.env'), `# the memory server's file\nexport MEMORY_FILE_PATH="${join(dir, 'memory.jsonl')}"\n`);
    const io = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', 'create entities', '--config', 'config.json5'], io)).toBe(EXIT_CODES.ok);
    expect(io.out()).toContain('mcp:memory:create_entities');
    expect(io.err()).toContain('✗ github: not started: mcpServers.github.env.TOKEN refers to ${GITHUB_TOKEN}, which is not set; set GITHUB_TOKEN in the environment tool-search runs in, or remove the server');
  });

  it('doctor with no servers prints no ratio against a direct surface of nothing', SLOW, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-no-servers-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'config.json5'), '{ mcpServers: {} }');
    const io = createTestIo({ cwd: dir, env: { XDG_CACHE_HOME: join(dir, 'cache') } });
    expect(await runCli(['doctor', '--config', 'config.json5'], io)).toBe(EXIT_CODES.ok);
    expect(io.out()).toContain('(none configured)');
    expect(io.out()).not.toContain('%');
    expect(io.out()).toContain('(no tools in the catalog: each mode lists only its own control tools, so there is nothing to compare)');
  });
});
