// The runner behind `createRunner` (and, with `escapedForTests`, behind the adversarial suite's escaped runner).
import { pino, type Logger } from 'pino';
import { z } from 'zod';
import { SandboxRunnerError } from '../errors.js';
import { probeRuntimeDetailed, type DetailedProbeResult } from '../probe-runtime.js';
import { clampLimit, resolveLimits } from '../resolve-limits.js';
import { isCommonRunOptions, runnerOptionsSchema, runOptionsSchema } from '../schemas.js';
import type { Runner, RunnerOptions, RunOptions, RunResult } from '../types.js';
import { createQuickJsEngine, type QuickJsEngine } from './create-quickjs-engine.js';
import { createWarmPool, type WarmPool } from './create-warm-pool.js';
import { executeRun } from './execute-run.js';
import { spawnSandboxChild, type SandboxChild } from './spawn-sandbox-child.js';

/** Pool size when `pool` is not given. */
export const DEFAULT_POOL_SIZE = 2;

function formatIssues(error: z.ZodError): { message: string; path?: string } {
  const issue = error.issues[0];
  const path = issue === undefined ? '' : z.core.toDotPath(issue.path);
  return { ...(path === '' ? {} : { path }), message: issue === undefined ? 'invalid' : `${path || '(root)'}: ${issue.message}` };
}

/** Creates a runner. `escapedForTests` swaps in the test-only bootstrap (see create-escaped-runner-for-tests.ts). */
export function createSandboxRunner(options: RunnerOptions, internal: { escapedForTests: boolean }): Runner {
  const parsed = runnerOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const { message, path } = formatIssues(parsed.error);
    throw new SandboxRunnerError('invalid_options', `invalid runner options: ${message}`, path === undefined ? {} : { path });
  }
  const limits = resolveLimits(options.limits);
  const poolSize = options.pool?.size ?? DEFAULT_POOL_SIZE;
  const log: Logger = (options.logger ?? pino({ level: 'silent' })).child({ pkg: 'sandbox-runner' });
  // Each run in progress, as the function that ends it when the runner closes. (Not a runner-wide AbortSignal
  // combined with each caller's through AbortSignal.any: on Node 20 that source keeps an entry per run.)
  const openRuns = new Set<(message: string) => void>();
  let closed = false;
  let pool: WarmPool | undefined;
  let probe: Promise<DetailedProbeResult> | undefined;
  let runCount = 0;
  let quickjs: QuickJsEngine | undefined;

  function spawnChild(runtime: Extract<DetailedProbeResult, { ok: true }>): SandboxChild {
    if (runtime.engine === 'quickjs') {
      // One worker per pooled context plus one for a run the pool cannot serve.
      quickjs ??= createQuickJsEngine({
        limits,
        logger: log.child({ component: 'quickjs' }),
        idleWorkers: poolSize + 1,
        escapedForTests: internal.escapedForTests,
      });
      return quickjs.lease();
    }
    return spawnSandboxChild({
      nodePath: runtime.execPath,
      limits,
      osLayer: runtime.osLayer,
      dropPrivileges: runtime.dropPrivileges,
      escapedForTests: internal.escapedForTests,
      logger: log,
    });
  }

  function ensureProbe(): Promise<DetailedProbeResult> {
    if (probe === undefined) {
      probe = probeRuntimeDetailed({ engine: options.engine, nodePath: options.nodePath, isolation: options.isolation, logger: log }).then((runtime) => {
        if (runtime.ok && poolSize > 0 && !closed) {
          pool = createWarmPool({ size: poolSize, spawnChild: () => spawnChild(runtime), logger: log.child({ component: 'pool' }) });
        }
        if (!runtime.ok) log.warn({ reason: runtime.reason }, 'no sandbox runtime');
        return runtime;
      });
    }
    return probe;
  }

  // With a pool, start probing and pre-spawning right away; without one, on the first run.
  if (poolSize > 0) void ensureProbe();

  async function run(runOptions: RunOptions): Promise<RunResult> {
    if (closed) throw new SandboxRunnerError('runner_closed', 'run() was called after close()');
    const parsedRun = isCommonRunOptions(runOptions) ? undefined : runOptionsSchema.safeParse(runOptions);
    if (parsedRun !== undefined && !parsedRun.success) {
      const { message, path } = formatIssues(parsedRun.error);
      throw new SandboxRunnerError('invalid_run_options', `invalid run options: ${message}`, path === undefined ? {} : { path });
    }
    const startedAt = performance.now();
    const runtime = await ensureProbe();
    const emptyStats = () => ({ wallTimeMs: performance.now() - startedAt, calls: { search: 0, describe: 0, call: 0 }, warm: false });
    if (!runtime.ok) {
      return { ok: false, error: { code: 'unavailable', message: runtime.reason }, logs: [], stats: emptyStats() };
    }
    if (closed) return { ok: false, error: { code: 'aborted', message: 'the runner was closed' }, logs: [], stats: emptyStats() };
    const pooled = pool?.take();
    const child = pooled ?? spawnChild(runtime);
    runCount += 1;
    const result = await executeRun({
      child,
      // A child that dies before starting the body (e.g. a pooled one killed while idle) is replaced by a cold one.
      replaceChild: () => spawnChild(runtime),
      code: runOptions.code,
      bridge: runOptions.bridge,
      timeoutMs: clampLimit('timeoutMs', runOptions.timeoutMs ?? limits.timeoutMs),
      signal: runOptions.signal,
      openRuns,
      limits,
      warm: pooled !== undefined,
      startedAt,
      logger: log,
      runId: runCount,
    });
    pool?.refill();
    return result;
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    for (const end of [...openRuns]) end('the runner was closed');
    pool?.close();
    quickjs?.close();
  }

  return { run, close };
}
