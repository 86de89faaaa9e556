// Unit tests import sibling packages from source, so they run without a build: every package's exports map has a
// `@tool-search/source` condition (its `src` entry), which tsc and the IDE resolve too (`customConditions` in
// tsconfig.base.json), so a test, the typecheck and the editor all see the same files.
// The e2e project does not use this: it runs against built output.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from 'vitest/node';
import { scaledTimeout } from './tooling/property-settings/test-timeouts.js';

export { scaledTimeout, timeoutScale } from './tooling/property-settings/test-timeouts.js';

/**
 * A project's `testTimeout` and `hookTimeout`: its base (vitest's defaults, 5 s and 10 s, unless the project's tests
 * need more on an idle machine) times the suite's one timeout scale (`timeoutScale()`: TOOL_SEARCH_TIMEOUT_SCALE, or
 * the machine's load when the run starts). Every project takes its timeouts from here.
 */
export function testTimeouts(base: { test?: number; hook?: number } = {}): { testTimeout: number; hookTimeout: number } {
  return { testTimeout: scaledTimeout(base.test ?? 5_000), hookTimeout: scaledTimeout(base.hook ?? 10_000) };
}

/**
 * The test isolation of a project whose test files keep no state outside themselves (no `vi.mock`, no globals or
 * environment left changed, no module-level registries a test fills): its files share one module graph per worker
 * instead of importing the packages again for each file (about 0.8 s of import a file, most of a small file's time).
 * A project that cannot say so keeps vitest's default (a fresh module graph per file): gateway-adapter (a `vi.mock` of
 * modes), mcp-server and sandbox-runner (some of their tests fail when the files share a graph), ai-sdk (the AI SDK's
 * telemetry registration is global), tool-search (not tried) and the one-file projects.
 */
export const sharedModules = { isolate: false } as const;

/** The export condition that points a workspace package at its source (see `customConditions` in tsconfig.base.json). */
export const SOURCE_CONDITION = '@tool-search/source';

/**
 * A unit-test project's `ssr.resolve` (vitest's node environment resolves through Vite's `ssr` environment): sibling
 * packages from their source, everything else with Vite's default server conditions.
 */
export const sourceResolution = { conditions: [SOURCE_CONDITION, ...defaultServerConditions] };

/**
 * The test pool of a project whose code needs Node >= `minimumMajor` (the AI SDK and the OpenAI Agents SDK need
 * 22) while the repo's tests run on Node 20: its test files run in forked workers on the binary of the
 * `node-<platform>-<arch>` package (a devDependency of the project, resolved from `from`, its config's URL);
 * vitest itself stays on this Node. On a new enough Node the default pool is kept. Throws, saying what to
 * install, when there is no such binary.
 */
export function poolForNode(minimumMajor: number, from: string): { pool?: PoolRunnerInitializer } {
  const binary = nodeBinaryFor(minimumMajor, from);
  return binary === process.execPath ? {} : { pool: forksOnNode(binary) };
}

/**
 * A Node binary of major `minimumMajor` or later: this one when it is new enough, else the binary of the
 * `node-<platform>-<arch>` package resolved from `from` (a package's or config's URL). Throws, saying what to
 * install, when there is no such binary.
 */
export function nodeBinaryFor(minimumMajor: number, from: string): string {
  if (Number(process.versions.node.split('.')[0]) >= minimumMajor) return process.execPath;
  const name = `node-${process.platform}-${process.arch}`;
  let binary: string | undefined;
  try {
    binary = join(dirname(createRequire(from).resolve(`${name}/package.json`)), 'bin', 'node');
  } catch {
    binary = undefined;
  }
  if (binary === undefined || !existsSync(binary)) {
    throw new Error(
      `${fileURLToPath(from)}: these tests need Node >= ${minimumMajor} and this is Node ${process.versions.node}; ` +
        `install the ${name} package as a devDependency of the project, or run vitest on Node ${minimumMajor} or later`,
    );
  }
  return binary;
}

/** Vitest's `forks` pool with the workers on another Node binary (`execPath`). */
function forksOnNode(execPath: string): PoolRunnerInitializer {
  const name = `forks:${execPath}`;
  return { name, createPoolWorker: (options) => new ForksOnNodeWorker(name, options, execPath) };
}

const SIGKILL_AFTER_MS = 500;

// The same as vitest's ForksPoolWorker (v4), whose fork options cannot name a binary.
class ForksOnNodeWorker implements PoolWorker {
  readonly cacheFs = true;
  private child: ChildProcess | undefined;

  constructor(
    readonly name: string,
    private readonly options: PoolOptions,
    private readonly execPath: string,
  ) {}

  on(event: string, callback: (arg: unknown) => void): void {
    this.process().on(event, callback);
  }

  off(event: string, callback: (arg: unknown) => void): void {
    this.process().off(event, callback);
  }

  send(message: WorkerRequest): void {
    this.process().send(message);
  }

  async start(): Promise<void> {
    if (this.child !== undefined) return;
    const child = fork(resolve(this.options.distPath, 'workers/forks.js'), [], {
      env: this.options.env,
      execArgv: this.options.execArgv,
      execPath: this.execPath,
      stdio: 'pipe',
      serialization: 'advanced',
    });
    // Every worker pipes into the same two streams: raise their listener ceiling per worker, as vitest does.
    for (const [from, to] of this.streams(child)) {
      to.setMaxListeners(to.getMaxListeners() + 1);
      from.pipe(to, { end: false });
    }
    this.child = child;
  }

  async stop(): Promise<void> {
    const child = this.process();
    const exited = new Promise<void>((done) => (child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', () => done())));
    const killer = setTimeout(() => child.kill('SIGKILL'), SIGKILL_AFTER_MS);
    child.kill();
    await exited;
    clearTimeout(killer);
    for (const [from, to] of this.streams(child)) {
      from.unpipe(to);
      to.setMaxListeners(to.getMaxListeners() - 1);
    }
    this.child = undefined;
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  private streams(child: ChildProcess): Array<[NodeJS.ReadableStream, NodeJS.WritableStream & { setMaxListeners(n: number): unknown; getMaxListeners(): number }]> {
    const { outputStream, errorStream } = this.options.project.vitest.logger;
    const pairs: Array<[NodeJS.ReadableStream | null, typeof outputStream]> = [
      [child.stdout, outputStream],
      [child.stderr, errorStream],
    ];
    return pairs.flatMap(([from, to]) => (from === null ? [] : [[from, to]]));
  }

  private process(): ChildProcess {
    if (this.child === undefined) throw new Error(`The test worker on ${this.execPath} was never started or is already stopped`);
    return this.child;
  }
}
