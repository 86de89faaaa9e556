import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from '../create-tool-search-host.js';
import type { McpServerConfig } from '../schemas.js';
import { spawnStdioServersAhead, type StdioServersAhead } from './spawn-stdio-servers-ahead.js';
import { MCP_FIXTURE_SERVER_PATH, mcpFixtureConfig } from '@tool-search/test-utils';
import { scaledTimeout } from '@tool-search/property-settings';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
function ahead(servers: McpServerConfig[]): StdioServersAhead {
  const spawned = spawnStdioServersAhead(servers);
  cleanups.push(() => spawned.close());
  return spawned;
}
async function host(options: Parameters<typeof createToolSearchHost>[0]): Promise<ToolSearchHost> {
  const created = await createToolSearchHost({ restartBackoff: false, ...options });
  cleanups.push(() => created.close());
  return created;
}
/** The child processes of this process whose command line contains `text`. */
function childrenRunning(text: string): number {
  const lines = execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' }).split('\n');
  return lines.filter((line) => line.includes(text)).length;
}
const until = async (check: () => boolean, what: string) => {
  for (const deadline = performance.now() + scaledTimeout(10_000); performance.now() < deadline; ) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
};
/** Each test starts real server processes. */
const SLOW = { timeout: scaledTimeout(30_000) };
const failing = (name: string, script: string): McpServerConfig => ({ name, transport: 'stdio', command: process.execPath, args: ['-e', script] });

describe('spawnStdioServersAhead', () => {
  it('spawns at once, and the host connects to that process instead of spawning another', SLOW, async () => {
    const config = mcpFixtureConfig('fixture');
    const spawned = ahead([config, { name: 'remote', transport: 'http', url: 'http://127.0.0.1:9/mcp' }]);
    expect(spawned.names).toEqual(['fixture']);
    expect(childrenRunning(MCP_FIXTURE_SERVER_PATH)).toBe(1);
    const shared = await host({ sources: { mcp: [config] }, spawnedAhead: spawned });
    expect(spawned.names).toEqual([]);
    await until(() => shared.status().servers[0]?.state === 'ready', 'the server to be ready');
    expect(shared.status().servers[0]).toMatchObject({ name: 'fixture', state: 'ready', restarts: 0 });
    expect(shared.status().servers[0]!.tools).toBeGreaterThan(0);
    expect(childrenRunning(MCP_FIXTURE_SERVER_PATH)).toBe(1);
    await shared.close();
    await until(() => childrenRunning(MCP_FIXTURE_SERVER_PATH) === 0, 'the server to exit with the host');
  });

  it('keeps a server spawned with other settings from the host, which spawns its own, and close() stops it', SLOW, async () => {
    const spawned = ahead([mcpFixtureConfig('fixture', { pageSize: 2 })]);
    const shared = await host({ sources: { mcp: [mcpFixtureConfig('fixture', { pageSize: 5 })] }, spawnedAhead: spawned });
    expect(spawned.names).toEqual(['fixture']);
    await until(() => shared.status().servers[0]?.state === 'ready', 'the server to be ready');
    expect(childrenRunning(MCP_FIXTURE_SERVER_PATH)).toBe(2);
    await spawned.close();
    expect(spawned.names).toEqual([]);
    await until(() => childrenRunning(MCP_FIXTURE_SERVER_PATH) === 1, 'the unused server to exit');
    expect(shared.status().servers[0]?.state).toBe('ready');
  });

  it('fails the first start of a server that exited before the host connected, with its stderr', SLOW, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'spawn-ahead-'));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    const exited = join(folder, 'exited');
    const config = failing('slack', `console.error("Please set SLACK_BOT_TOKEN"); process.on("exit", () => require("fs").writeFileSync(${JSON.stringify(exited)}, "")); process.exit(1)`);
    const spawned = ahead([config]);
    await until(() => existsSync(exited), 'the server to exit');
    // The exit reaches this process's event loop before the host connects.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const shared = await host({ sources: { mcp: [config] }, spawnedAhead: spawned });
    await until(() => shared.status().servers[0]?.state === 'unavailable', 'the start to fail');
    const reason = shared.status().servers[0]?.reason ?? '';
    expect(reason).toContain('MCP server "slack" failed to start: the server process exited before the client connected');
    expect(reason).toContain('Please set SLACK_BOT_TOKEN');
  });

  it('fails the first start of a command that cannot be spawned, naming the command', SLOW, async () => {
    const config: McpServerConfig = { name: 'missing', transport: 'stdio', command: '/nonexistent/mcp-server' };
    const shared = await host({ sources: { mcp: [config] }, spawnedAhead: ahead([config]) });
    await until(() => shared.status().servers[0]?.state === 'unavailable', 'the start to fail');
    const reason = shared.status().servers[0]?.reason ?? '';
    expect(reason).toContain('MCP server "missing" failed to start: the command "/nonexistent/mcp-server" was not found');
    expect(reason).not.toContain('ENOENT');
  });
});
