import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.js';
import { runCli } from './run-cli.js';
import { loadConfig } from './load-config.js';
import { createTestIo } from './testing-io.js';
import { freePort } from '@tool-search/test-utils';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function folder(): string {
  const created = mkdtempSync(join(tmpdir(), 'tool-search-cli-'));
  folders.push(created);
  return created;
}

describe('runCli: command line', () => {
  it('exits 2 naming an unknown command, an unknown flag, a flag of another command and a bad mode', async () => {
    const cases: Array<[string[], string]> = [
      [['frobnicate'], 'unknown command "frobnicate"'],
      [['serve', '--colour'], "Unknown option '--colour'"],
      [['search', 'x', '--http', '8080'], 'tool-search search does not take --http'],
      [['serve', '--mode', 'fast'], '--mode fast is not a mode; expected one of code, tools, directory, direct, auto'],
      [['search', 'x', '--mode', 'fast'], '--mode fast is not a mode; expected one of code, tools, directory, direct, auto'],
      [['list', '--mode', 'nonsense'], '--mode nonsense is not a mode; expected one of code, tools, directory, direct, auto'],
      [['search'], 'tool-search search needs a query'],
      [['serve', '--http', 'localhost:99999'], '--http localhost:99999: expected [HOST:]PORT'],
    ];
    for (const [argv, message] of cases) {
      const io = createTestIo({ env: { TOOL_SEARCH_CONFIG: join(folder(), 'none.json5') } });
      expect(await runCli(argv, io), argv.join(' ')).toBe(EXIT_CODES.usage);
      expect(io.err()).toContain(message);
    }
  });

  it('prints help with every command and the exit statuses, and the version', async () => {
    const io = createTestIo();
    expect(await runCli(['--help'], io)).toBe(0);
    for (const command of ['serve', 'search', 'list', 'doctor', 'init']) expect(io.out()).toContain(`  ${command} `);
    expect(io.out()).toContain('Exit status: 0 ok, 1 unexpected failure, 2 usage, 3 config, 4 a server unavailable (doctor), 5 a file or port cannot be used.');
    const version = createTestIo();
    expect(await runCli(['--version'], version)).toBe(0);
    expect(version.out()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('exits 3 with the path of the problem for a broken config, as JSON with --json', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'config.json5'), '{ mcpServers: { gh: { command: "x", exlude: [] } } }');
    const io = createTestIo({ cwd: dir });
    expect(await runCli(['list', '--config', 'config.json5', '--json'], io)).toBe(EXIT_CODES.config);
    expect(JSON.parse(io.out())).toEqual({ error: { code: 'config', message: expect.stringContaining('mcpServers.gh.exlude: unknown field "exlude"'), exitCode: 3 } });
    const doctor = createTestIo({ cwd: dir });
    expect(await runCli(['doctor', '--config', 'config.json5'], doctor)).toBe(EXIT_CODES.config);
    expect(doctor.out()).toContain('✗');
    expect(doctor.out()).toContain('mcpServers.gh.exlude');
  });
});

describe('runCli: serve', () => {
  it('passes --mode auto to the gateway, which picks the mode, and stops with exit 0 when stdin ends', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'config.json5'), '{ mcpServers: {} }');
    const io = createTestIo({ cwd: dir });
    io.stdin.end();
    expect(await runCli(['serve', '--config', 'config.json5', '--mode', 'auto'], io)).toBe(0);
    expect(io.err()).toMatch(/tool-search: serving MCP on stdio \(mode direct, chosen by auto: .+\)/);
  });
});

describe('runCli: serve for replicas', () => {
  it('exits 2 when TOOL_SEARCH_STATE_SECRET is shorter than 32 bytes, before anything starts', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'config.json5'), '{ mcpServers: {} }');
    const io = createTestIo({ cwd: dir, env: { TOOL_SEARCH_STATE_SECRET: 'too-short' } });
    expect(await runCli(['serve', '--config', 'config.json5', '--http', '0'], io)).toBe(EXIT_CODES.usage);
    expect(io.err()).toContain('TOOL_SEARCH_STATE_SECRET is 9 bytes long; it must be at least 32 (for example: openssl rand -base64 32)');
  });

  it('exits 2 when --store is given without TOOL_SEARCH_STATE_SECRET (it signs what replicas pass through Redis), before anything starts', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'config.json5'), '{ mcpServers: {} }');
    const io = createTestIo({ cwd: dir });
    expect(await runCli(['serve', '--config', 'config.json5', '--http', '0', '--store', 'redis://127.0.0.1:6379'], io)).toBe(EXIT_CODES.usage);
    expect(io.err()).toContain('--store needs TOOL_SEARCH_STATE_SECRET, the secret every replica shares');
    expect(io.err()).not.toContain('serving MCP');
  });

  it('exits 3 naming the URL when --store is not a Redis URL or nothing answers there', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'config.json5'), '{ mcpServers: {} }');
    const port = await freePort();
    const cases: Array<[string, string]> = [
      ['http://127.0.0.1:6379', '--store: Not a Redis URL: "http://127.0.0.1:6379"'],
      [`redis://127.0.0.1:${port}`, `--store: Redis at redis://127.0.0.1:${port} cannot be reached: `],
    ];
    for (const [url, message] of cases) {
      const io = createTestIo({ cwd: dir, env: { TOOL_SEARCH_STATE_SECRET: 'a-state-secret-of-at-least-32-bytes-long' } });
      expect(await runCli(['serve', '--config', 'config.json5', '--http', '0', '--store', url], io), url).toBe(EXIT_CODES.config);
      expect(io.err()).toContain(message);
      expect(io.err()).not.toContain('serving MCP');
    }
  });
});

describe('runCli: init', () => {
  it('writes a starter config that loads, and refuses to overwrite it without --force', async () => {
    const path = join(folder(), 'sub', 'config.json5');
    const io = createTestIo();
    expect(await runCli(['init', '--config', path], io)).toBe(0);
    expect(loadConfig(path, {}).resolved.mode).toBe('tools');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = createTestIo();
    expect(await runCli(['init', '--config', path], again)).toBe(EXIT_CODES.io);
    expect(again.err()).toContain('exists; pass --force to overwrite it');
    expect(await runCli(['init', '--config', path, '--force', '--mode', 'code'], createTestIo())).toBe(0);
    expect(loadConfig(path, {}).resolved.mode).toBe('code');
  });

  it('imports a Claude Desktop config: entries as written, variables unresolved, disabled ones and unknown fields left out with warnings', async () => {
    const dir = folder();
    const from = join(dir, 'claude_desktop_config.json');
    writeFileSync(
      from,
      JSON.stringify({
        mcpServers: {
          github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: '${env:GITHUB_TOKEN}' }, autoApprove: ['get_me'] },
          remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' }, flavour: 'x' },
          old: { command: 'old-mcp', disabled: true },
        },
        globalShortcut: 'Ctrl+Space',
      }),
    );
    const path = join(dir, 'config.json5');
    const io = createTestIo();
    expect(await runCli(['init', '--from', from, '--config', path, '--json'], io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ path, servers: ['github', 'remote'] });
    expect(io.err()).toContain('autoApprove is ignored');
    expect(io.err()).toContain('mcpServers.remote.flavour is not a field tool-search knows; not imported');
    expect(io.err()).toContain('old: disabled');
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('${env:GITHUB_TOKEN}');
    const loaded = loadConfig(path, { GITHUB_TOKEN: 'ghp_1', TOKEN: 't' });
    expect(loaded.servers).toEqual([
      { name: 'github', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_1' } },
      { name: 'remote', transport: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t' } },
    ]);
  });

  it('imports a VS Code mcp.json (servers), warning that inputs are not imported', async () => {
    const dir = folder();
    const from = join(dir, 'mcp.json');
    writeFileSync(from, JSON.stringify({ inputs: [{ id: 'key', type: 'promptString' }], servers: { fetch: { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] } } }));
    const io = createTestIo();
    expect(await runCli(['init', '--from', from, '--config', join(dir, 'out.json5')], io)).toBe(0);
    expect(io.err()).toContain('VS Code "inputs" are not imported');
    expect(loadConfig(join(dir, 'out.json5'), {}).servers).toEqual([{ name: 'fetch', transport: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] }]);
  });

  it('imports what it can of a Cursor or Claude Code config, naming each server and key it drops', async () => {
    const dir = folder();
    const from = join(dir, '.claude.json');
    writeFileSync(join(dir, '.env'), 'API_KEY=k-1\n');
    writeFileSync(
      from,
      JSON.stringify({
        mcpServers: {
          cursorish: { command: 'cursor-mcp', envFile: '.env', timeout: 60 },
          broken: { type: 'websocket', url: 'ws://localhost:1' },
          fine: { command: 'fine-mcp' },
        },
        projects: { '/home/me/app': { mcpServers: { local: { command: 'local-mcp' } } } },
      }),
    );
    const path = join(dir, 'config.json5');
    const io = createTestIo();
    expect(await runCli(['init', '--from', from, '--config', path, '--json'], io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ servers: ['cursorish', 'fine'] });
    expect(io.err()).toContain(`warning: local: a Claude Code server of the project /home/me/app (projects["/home/me/app"].mcpServers.local in ${from}), not imported`);
    expect(io.err()).toContain('warning: broken: not imported: mcpServers.broken.type: unknown server type "websocket"');
    expect(io.err()).toContain("mcpServers.cursorish.timeout is ignored (tool-search's own are timeoutMs, one call's timeout in milliseconds, and the top-level startupTimeoutMs); not imported");
    expect(io.err()).not.toContain('use policy for approvals');
    // The envFile is kept, made absolute, and read when the config loads.
    expect(loadConfig(path, {}).servers).toEqual([
      { name: 'cursorish', transport: 'stdio', command: 'cursor-mcp', env: { API_KEY: 'k-1' } },
      { name: 'fine', transport: 'stdio', command: 'fine-mcp' },
    ]);
  });

  it('exits 3 when --from has no servers in it', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'other.json'), '{"editor.fontSize": 12}');
    const io = createTestIo();
    expect(await runCli(['init', '--from', join(dir, 'other.json'), '--config', join(dir, 'c.json5')], io)).toBe(EXIT_CODES.config);
    expect(io.err()).toContain('no "mcpServers"');
  });
});
