// A hint rule on a server that declares no annotations: MCP's default destructiveHint is true, so
// `deny: ['hint:destructive']` refuses every tool of it. `doctor` warns and says why; `search --explain` says why the
// refused matches are refused. The servers: GitHub's recorded tools replayed as they are listed (no annotations) and
// the official memory server from npm (which annotates each tool).
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPLAY_MCP_SERVER_PATH } from '@tool-search/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.js';
import { runCli } from './run-cli.js';
import { createTestIo } from './testing-io.js';

const MEMORY_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const SLOW = { timeout: 90_000 };
const GITHUB_TOOLS = [
  { name: 'get_me', description: 'Get details of the authenticated GitHub user.', parameters: null, source: 'github' },
  { name: 'list_issues', description: 'List issues in a GitHub repository.', parameters: null, source: 'github' },
  { name: 'create_issue', description: 'Create a new issue in a GitHub repository.', parameters: null, source: 'github' },
];
const NO_ANNOTATIONS = "denied by 'hint:destructive' in global (no annotations: MCP's default destructiveHint is true)";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function setUp(policy: Record<string, unknown> = { deny: ['hint:destructive'] }): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'cli-policy-annotations-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'github.jsonl'), GITHUB_TOOLS.map((tool) => JSON.stringify(tool)).join('\n'));
  const config = {
    mcpServers: {
      github: { command: process.execPath, args: [REPLAY_MCP_SERVER_PATH], env: { REPLAY_TOOLS_FILE: join(dir, 'github.jsonl') } },
      memory: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } },
    },
    policy,
    // Searches wait for the servers' first start up to this long (a loaded machine is slow to spawn them).
    startupTimeoutMs: 30_000,
  };
  writeFileSync(join(dir, 'config.json5'), JSON.stringify(config));
  return { dir, env: { XDG_CACHE_HOME: join(dir, 'cache') } };
}

describe('a hint rule and tools without annotations', () => {
  it('doctor warns that the rule refuses every tool of the server, and why; counts what it refuses of the others', SLOW, async () => {
    const { dir, env } = setUp();
    const io = createTestIo({ cwd: dir, env });
    expect(await runCli(['doctor', '--config', 'config.json5'], io)).toBe(EXIT_CODES.ok);
    const out = io.out();
    expect(out).toContain(`  ! the policy refuses all 3 tools of github: ${NO_ANNOTATIONS}`);
    expect(out).toMatch(/✓ memory +\d+ tools, 3 refused by the policy/);
    expect(out).not.toMatch(/refuses all \d+ tools of memory/);
  });

  it('doctor says a requireApproval hint rule puts every call to the server before an approval, and why', SLOW, async () => {
    const { dir, env } = setUp({ requireApproval: ['hint:destructive'] });
    const io = createTestIo({ cwd: dir, env });
    expect(await runCli(['doctor', '--config', 'config.json5'], io)).toBe(EXIT_CODES.ok);
    const out = io.out();
    expect(out).toContain(
      "  ! a call to all 3 tools of github needs approval (no approval provider: these calls are blocked; approvals: 'client' asks the MCP client): requires approval by 'hint:destructive' in global (no annotations: MCP's default destructiveHint is true)",
    );
    expect(out).toMatch(/✓ github +3 tools, 3 need approval/);
    // The memory server states its hints: its destructive tools need approval, with no word about defaults.
    expect(out).toMatch(/ {2}- a call to 3 of \d+ tools of memory needs approval \(no approval provider[^\n]*: requires approval by 'hint:destructive' in global\n/);
  });

  it('search --explain says which hits a call to needs approval, and why, with the note on missing annotations', SLOW, async () => {
    const { dir, env } = setUp({ requireApproval: ['hint:destructive'] });
    const io = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', 'list issues in a github repository', '--explain', '--config', 'config.json5'], io)).toBe(EXIT_CODES.ok);
    const unanswered = "(no approval provider: these calls are blocked; approvals: 'client' asks the MCP client)";
    expect(io.out()).toMatch(/^ 1\. mcp:github:list_issues {2}\(score [^\n]*\n {4}a call to it needs approval: (.*)$/m);
    expect(io.out()).toContain(`    a call to it needs approval: requires approval by 'hint:destructive' in global (no annotations: MCP's default destructiveHint is true) ${unanswered}\n`);
    // --json carries the same, by tool id.
    const json = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', 'list issues in a github repository', '--explain', '--json', '--config', 'config.json5'], json)).toBe(EXIT_CODES.ok);
    expect((JSON.parse(json.out()) as { approvals: unknown }).approvals).toContainEqual({
      id: 'mcp:github:list_issues',
      reason: `requires approval by 'hint:destructive' in global (no annotations: MCP's default destructiveHint is true) ${unanswered}`,
    });
  });

  it('search --explain says why the refused matches are refused, without naming them', SLOW, async () => {
    const { dir, env } = setUp();
    const io = createTestIo({ cwd: dir, env });
    expect(await runCli(['search', 'list issues in a github repository', '--explain', '--config', 'config.json5'], io)).toBe(EXIT_CODES.ok);
    expect(io.out()).toMatch(new RegExp(`Also: \\d+ tools? the policy refuses match(es)? these words \\(not named here; see the policy\\): ${NO_ANNOTATIONS.replace(/[()]/g, '\\$&')}\\.`));
    expect(io.out()).not.toContain('mcp:github:list_issues');
  });
});
