import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfigPath, loadConfig, withMode } from './load-config.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function file(text: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'tool-search-config-'));
  folders.push(folder);
  const path = join(folder, 'config.json5');
  writeFileSync(path, text);
  return path;
}
function problem(text: string, env: NodeJS.ProcessEnv = {}): { message: string; path: string | undefined; code: string } {
  const path = file(text);
  try {
    loadConfig(path, env);
  } catch (error) {
    const failure = error as { message: string; path?: string; code: string };
    return { message: failure.message.replace(path, '<file>'), path: failure.path, code: failure.code };
  }
  throw new Error('expected a config error');
}

describe('loadConfig', () => {
  it('reads JSON5 with comments, the standard mcpServers map, our per-server options and ${env:…} values', () => {
    const path = file(`// a comment
      { mcpServers: { gh: { command: 'gh-mcp', env: { TOKEN: '\${env:GH}' }, exclude: ['delete_*'], trusted: true, }, },
        toolSearch: { mode: 'directory' }, policy: { deny: ['hint:destructive'] }, context: { isOwner: true }, visible: ['mcp:gh:get_me'] }`);
    const config = loadConfig(path, { GH: 'token-1' });
    expect(config.servers).toEqual([{ name: 'gh', transport: 'stdio', command: 'gh-mcp', env: { TOKEN: 'token-1' }, exclude: ['delete_*'], trusted: true }]);
    expect(config.resolved.mode).toBe('directory');
    expect(config.context).toEqual({ isOwner: true });
    expect(config.visible).toEqual(['mcp:gh:get_me']);
  });

  it('defaults to tools mode when the file has no toolSearch', () => {
    expect(loadConfig(file('{}'), {}).resolved.mode).toBe('tools');
  });

  it('names the line and column of a JSON5 syntax error', () => {
    expect(problem('{\n  mcpServers: {\n    a: { command: "x" ,, }\n}')).toEqual({ code: 'config', path: undefined, message: "<file>:3:24: not valid JSON5: invalid character ',' at 3:24" });
  });

  it('names an unknown key at the top, in toolSearch, in a server entry and in the policy', () => {
    expect(problem('{ toolsearch: {} }')).toMatchObject({ code: 'config', path: 'toolsearch', message: '<file>: toolsearch: unknown key "toolsearch"' });
    expect(problem('{ toolSearch: { mode: "tools", limit: 3 } }')).toMatchObject({ path: 'toolSearch', message: expect.stringContaining('limit') });
    expect(problem('{ mcpServers: { gh: { command: "x", exlude: ["a"] } } }')).toMatchObject({ path: 'mcpServers.gh.exlude', message: expect.stringContaining('unknown field "exlude"') });
    expect(problem('{ policy: { dney: ["x"] } }')).toMatchObject({ code: 'config', message: expect.stringContaining('dney') });
    expect(problem('{ http: { allowedHost: [] } }')).toMatchObject({ path: 'http.allowedHost' });
  });

  it('names a wrong value by path', () => {
    expect(problem('{ toolSearch: { mode: "fast" } }')).toMatchObject({ path: 'toolSearch.mode' });
    expect(problem('{ startupTimeoutMs: -1 }')).toMatchObject({ path: 'startupTimeoutMs' });
  });

  it('reads the start-up and pending-round settings (startingWaitMs, maxConcurrentStarts, the pending input-call caps)', () => {
    const config = loadConfig(file('{ startingWaitMs: 250, maxConcurrentStarts: 16, http: { maxPendingInputCalls: 500, maxPendingInputCallsPerClient: 8 } }'), {});
    expect(config).toMatchObject({ startingWaitMs: 250, maxConcurrentStarts: 16, http: { maxPendingInputCalls: 500, maxPendingInputCallsPerClient: 8 } });
    // Absent: the host's and the handler's own defaults apply.
    expect(loadConfig(file('{}'), {})).toMatchObject({ startingWaitMs: undefined, maxConcurrentStarts: undefined, http: {} });
  });

  it('names the key of a bad start-up or pending-round setting', () => {
    expect(problem('{ startingWaitMs: -5 }')).toMatchObject({ code: 'config', path: 'startingWaitMs', message: expect.stringMatching(/^<file>: startingWaitMs: .*>=0/) });
    expect(problem('{ startingWaitMs: "3s" }')).toMatchObject({ path: 'startingWaitMs', message: expect.stringContaining('expected number') });
    expect(problem('{ maxConcurrentStarts: 0 }')).toMatchObject({ path: 'maxConcurrentStarts', message: expect.stringMatching(/^<file>: maxConcurrentStarts: .*>=1/) });
    expect(problem('{ maxConcurrentStarts: 2.5 }')).toMatchObject({ path: 'maxConcurrentStarts', message: expect.stringContaining('expected int') });
    expect(problem('{ http: { maxPendingInputCalls: 0 } }')).toMatchObject({ path: 'http.maxPendingInputCalls', message: expect.stringMatching(/^<file>: http\.maxPendingInputCalls: .*>=1/) });
    expect(problem('{ http: { maxPendingInputCallsPerClient: -1 } }')).toMatchObject({ path: 'http.maxPendingInputCallsPerClient' });
    expect(problem('{ http: { maxPendingCalls: 10 } }')).toMatchObject({ path: 'http.maxPendingCalls', message: '<file>: http.maxPendingCalls: unknown key "maxPendingCalls"' });
  });

  it('leaves out only the server with an unset variable, naming its path and what to do', () => {
    const config = loadConfig(file('{ mcpServers: { gh: { command: "x", env: { T: "${GITHUB_TOKEN}" } }, fs: { command: "fs-mcp" } } }'), {});
    expect(config.servers.map((server) => server.name)).toEqual(['fs']);
    expect(config.failedServers).toEqual([
      { name: 'gh', reason: 'not started: mcpServers.gh.env.T refers to ${GITHUB_TOKEN}, which is not set; set GITHUB_TOKEN in the environment tool-search runs in, or remove the server' },
    ]);
  });

  it('says how to create the file when it does not exist', () => {
    expect(() => loadConfig('/nonexistent/tool-search.json5', {})).toThrow('Config file /nonexistent/tool-search.json5 does not exist (create one with: tool-search init)');
  });
});

describe('withMode', () => {
  it('turns tool search off for direct, and replaces the mode otherwise', () => {
    expect(withMode({ mode: 'code', codeTimeoutMs: 5_000 }, 'direct')).toBe(false);
    expect(withMode({ mode: 'code', codeTimeoutMs: 5_000, enabled: false }, 'tools')).toEqual({ mode: 'tools', codeTimeoutMs: 5_000 });
    expect(withMode(false, 'auto')).toEqual({ mode: 'auto' });
    expect(withMode({ mode: 'code' }, undefined)).toEqual({ mode: 'code' });
  });
});

describe('defaultConfigPath', () => {
  it('uses TOOL_SEARCH_CONFIG, else XDG_CONFIG_HOME, else ~/.config', () => {
    expect(defaultConfigPath({ TOOL_SEARCH_CONFIG: '/etc/ts.json5' })).toBe('/etc/ts.json5');
    expect(defaultConfigPath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/tool-search/config.json5');
    expect(defaultConfigPath({ HOME: '/home/me' })).toBe('/home/me/.config/tool-search/config.json5');
  });
});
