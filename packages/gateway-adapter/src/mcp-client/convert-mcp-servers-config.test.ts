import { describe, expect, it } from 'vitest';
import { convertMcpServersConfig } from './convert-mcp-servers-config.js';
import { isGatewayAdapterError } from '../errors.js';

function failure(run: () => unknown): { message: string; path: string | undefined } {
  try {
    run();
  } catch (error) {
    if (isGatewayAdapterError(error)) return { message: error.message, path: error.path };
    throw error;
  }
  throw new Error('expected a GatewayAdapterError');
}

describe('convertMcpServersConfig', () => {
  it('converts a Claude Desktop config (command, args, env)', () => {
    const converted = convertMcpServersConfig({
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp/work'] },
        slack: { command: 'npx', args: ['-y', 'slack-mcp'], env: { SLACK_BOT_TOKEN: 'xoxb-1', RETRIES: 3 } },
      },
    });
    expect(converted).toEqual({
      servers: [
        { name: 'filesystem', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp/work'] },
        { name: 'slack', transport: 'stdio', command: 'npx', args: ['-y', 'slack-mcp'], env: { SLACK_BOT_TOKEN: 'xoxb-1', RETRIES: '3' } },
      ],
      skipped: [],
      warnings: [],
      failed: [],
    });
  });

  it('converts Cursor and Claude Code remote entries by url or type', () => {
    const converted = convertMcpServersConfig({
      mcpServers: {
        linear: { url: 'https://mcp.linear.app/mcp' },
        sentry: { type: 'http', url: 'https://mcp.sentry.dev/mcp', headers: { Authorization: 'Bearer ${SENTRY_TOKEN}' } },
        legacy: { type: 'sse', url: 'https://example.com/sse' },
        cursorStyle: { type: 'streamable-http', url: 'https://example.com/mcp', oauth: { clientId: 'abc', callbackPort: 8976 } },
      },
    }, { env: { SENTRY_TOKEN: 's3cret' } });
    expect(converted.servers).toEqual([
      { name: 'linear', transport: 'http', url: 'https://mcp.linear.app/mcp' },
      { name: 'sentry', transport: 'http', url: 'https://mcp.sentry.dev/mcp', headers: { Authorization: 'Bearer s3cret' } },
      { name: 'legacy', transport: 'sse', url: 'https://example.com/sse' },
      { name: 'cursorStyle', transport: 'http', url: 'https://example.com/mcp', oauth: { clientId: 'abc', redirectUrl: 'http://localhost:8976/callback' } },
    ]);
  });

  it('converts a VS Code mcp.json with servers and inputs', () => {
    const converted = convertMcpServersConfig(
      {
        inputs: [{ type: 'promptString', id: 'api-key', description: 'API key', password: true }],
        servers: {
          memory: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { KEY: '${input:api-key}' } },
          github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' },
          local: { command: 'node', args: ['${workspaceFolder}/server.js'], cwd: '${workspaceFolder}' },
        },
      },
      { inputs: { 'api-key': 'k-123' }, variables: { workspaceFolder: '/repo' } },
    );
    expect(converted.servers).toEqual([
      { name: 'memory', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { KEY: 'k-123' } },
      { name: 'github', transport: 'http', url: 'https://api.githubcopilot.com/mcp/' },
      { name: 'local', transport: 'stdio', command: 'node', args: ['/repo/server.js'], cwd: '/repo' },
    ]);
  });

  it('reads the servers under "mcp" of a VS Code settings.json', () => {
    const converted = convertMcpServersConfig({ mcp: { servers: { fetch: { command: 'uvx', args: ['mcp-server-fetch'] } } } });
    expect(converted.servers).toEqual([{ name: 'fetch', transport: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] }]);
  });

  it('skips disabled entries and warns about fields of other clients', () => {
    const converted = convertMcpServersConfig({
      mcpServers: {
        off: { command: 'x', disabled: true },
        on: { command: 'y', autoApprove: ['read'], flavour: 'vanilla', trusted: true, exclude: ['delete_*'] },
      },
    });
    expect(converted).toEqual({
      servers: [{ name: 'on', transport: 'stdio', command: 'y', trusted: true, exclude: ['delete_*'] }],
      skipped: [{ name: 'off', reason: 'disabled in mcpServers.off' }],
      warnings: [
        'mcpServers.on.autoApprove is ignored (use policy for approvals and allow/deny lists)',
        'mcpServers.on.flavour is not a known field and is ignored',
      ],
      failed: [],
    });
  });

  it('throws for a field no client uses when strict, and still only warns for other clients\' fields', () => {
    expect(failure(() => convertMcpServersConfig({ mcpServers: { on: { command: 'y', exlude: ['delete_*'] } } }, { strict: true }))).toEqual({
      message: 'mcpServers.on.exlude: unknown field "exlude"; expected command, args, env, cwd, trusted, include, exclude, visible, timeoutMs, maxTotalTimeoutMs, maxResultBytes, type, disabled',
      path: 'mcpServers.on.exlude',
    });
    const converted = convertMcpServersConfig({ mcpServers: { on: { command: 'y', autoApprove: ['read'] } } }, { strict: true });
    expect(converted.warnings).toEqual(['mcpServers.on.autoApprove is ignored (use policy for approvals and allow/deny lists)']);
  });

  it('resolves ${NAME:-default} and ${env:NAME}', () => {
    const converted = convertMcpServersConfig({ mcpServers: { a: { command: '${BIN:-node}', args: ['${env:ARG}'] } } }, { env: { ARG: 'x' } });
    expect(converted.servers).toEqual([{ name: 'a', transport: 'stdio', command: 'node', args: ['x'] }]);
  });

  it('names the path of an unset variable', () => {
    expect(failure(() => convertMcpServersConfig({ mcpServers: { gh: { command: 'gh-mcp', env: { TOKEN: '${GITHUB_TOKEN}' } } } }))).toEqual({
      message: 'mcpServers.gh.env.TOKEN: refers to ${GITHUB_TOKEN}, which is not set (pass it in options.env or options.variables)',
      path: 'mcpServers.gh.env.TOKEN',
    });
    expect(failure(() => convertMcpServersConfig({ servers: { m: { command: 'x', env: { K: '${input:key}' } } } })).path).toBe('servers.m.env.K');
  });

  it('with isolateServerProblems, leaves out only the server with an unset variable, an unanswered input or an envFile, saying why', () => {
    const converted = convertMcpServersConfig(
      {
        mcpServers: {
          github: { command: 'gh-mcp', env: { TOKEN: '${GITHUB_TOKEN}', OTHER: '${env:ALSO_UNSET}' } },
          memory: { command: 'memory-mcp', env: { PATH_HINT: '${HOME_DIR:-/tmp}' } },
          vscode: { command: 'x', env: { KEY: '${input:api-key}' } },
          cursor: { command: 'y', envFile: '.env' },
        },
      },
      { env: {}, isolateServerProblems: true },
    );
    expect(converted.servers.map((server) => server.name)).toEqual(['memory']);
    expect(converted.failed).toEqual([
      {
        name: 'github',
        path: 'mcpServers.github.env.TOKEN',
        reason: 'mcpServers.github.env.TOKEN refers to ${GITHUB_TOKEN}, which is not set; mcpServers.github.env.OTHER refers to ${env:ALSO_UNSET}, which is not set',
        unsetVariables: ['GITHUB_TOKEN', 'ALSO_UNSET'],
        unansweredInputs: [],
      },
      { name: 'vscode', path: 'mcpServers.vscode.env.KEY', reason: 'mcpServers.vscode.env.KEY needs the VS Code input "api-key", which has no value', unsetVariables: [], unansweredInputs: ['api-key'] },
      { name: 'cursor', path: 'mcpServers.cursor.envFile', reason: 'envFile is not supported: put the variables in "env"', unsetVariables: [], unansweredInputs: [] },
    ]);
  });

  it('says why each ignored field of another client is ignored (a timeout is not an approval list)', () => {
    const converted = convertMcpServersConfig({ mcpServers: { a: { command: 'x', timeout: 60, autoApprove: ['read'], description: 'mine' } } });
    expect(converted.warnings).toEqual([
      "mcpServers.a.timeout is ignored (tool-search's own are timeoutMs, one call's timeout in milliseconds, and the top-level startupTimeoutMs)",
      'mcpServers.a.autoApprove is ignored (use policy for approvals and allow/deny lists)',
      "mcpServers.a.description is ignored (another client's metadata, not config)",
    ]);
  });

  it('names the path of a wrong type, an unknown server type and a missing command or url', () => {
    expect(failure(() => convertMcpServersConfig({ mcpServers: { a: { command: 'x', args: 'not-a-list' } } }))).toEqual({
      message: 'mcpServers.a.args: expected an array of strings, got the string "not-a-list"',
      path: 'mcpServers.a.args',
    });
    expect(failure(() => convertMcpServersConfig({ mcpServers: { a: { type: 'websocket', url: 'ws://x' } } })).path).toBe('mcpServers.a.type');
    expect(failure(() => convertMcpServersConfig({ mcpServers: { a: { args: [] } } })).message).toBe(
      'mcpServers.a: expected "command" (a local server) or "url" (a remote server)',
    );
    expect(failure(() => convertMcpServersConfig({ mcpServers: { a: { command: 'x', url: 'https://x' } } })).message).toBe(
      'mcpServers.a.url: not used by a stdio server',
    );
    expect(failure(() => convertMcpServersConfig({ servers: { a: { command: 'x', envFile: '.env' } } })).path).toBe('servers.a.envFile');
  });

  it('rejects a server name that cannot be an owner, and a bad url, naming the path', () => {
    expect(failure(() => convertMcpServersConfig({ mcpServers: { 'my server': { command: 'x' } } }))).toEqual({
      message:
        'Invalid MCP server config: mcpServers["my server"].name: expected 1-64 letters, digits, "_", "." or "-" (it becomes the owner in tool ids)',
      path: 'mcpServers["my server"].name',
    });
    expect(failure(() => convertMcpServersConfig({ mcpServers: { web: { url: 'not a url' } } })).path).toBe('mcpServers.web.url');
  });

  it('rejects input without a servers map', () => {
    expect(failure(() => convertMcpServersConfig({ tools: {} })).message).toBe(
      'config: expected "mcpServers" (Claude Desktop, Claude Code, Cursor) or "servers" (VS Code)',
    );
    expect(failure(() => convertMcpServersConfig('nope', { path: 'claude_desktop_config.json' })).path).toBe('claude_desktop_config.json');
  });
});
