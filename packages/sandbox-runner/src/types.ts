// The public types of the runner. Values crossing the sandbox boundary are JSON only.
import type { Logger } from 'pino';

/**
 * What a bridge handler receives as its last argument. `signal` belongs to this one call and aborts when the run
 * ends (result, timeout, kill), so listeners a handler adds to it never pile up across calls.
 */
export interface BridgeContext {
  signal: AbortSignal;
}

/**
 * The parent-side handlers behind `tools.search/describe/call` in the body. They return JSON-able values or
 * throw; a throw becomes a rejected promise in the body carrying the message only. A `search` answer shaped
 * `{ hits: [...], ...more }` reaches the body as the `hits` array with `more`'s fields on it (not enumerable).
 */
export interface Bridge {
  search(query: string, options: Record<string, unknown> | undefined, ctx: BridgeContext): unknown;
  describe(id: string, ctx: BridgeContext): unknown;
  call(id: string, args: unknown, ctx: BridgeContext): unknown;
}

/** The budgets of one run. Every field has a default in `DEFAULT_LIMITS` and a hard range (see README). */
export interface RunnerLimits {
  /** Wall-clock budget of a run, from the moment a child is assigned to it. Clamped to 1–60 s. */
  timeoutMs: number;
  /** V8 old-space size of the child (`--max-old-space-size`), in MB. */
  heapMb: number;
  /** Total bytes of log text plus raw stdout/stderr a run may produce. */
  outputBytes: number;
  /** Number of `console.*` lines a run may produce. */
  logLines: number;
  /** Bytes of one `console.*` line. */
  logLineBytes: number;
  /** Bytes of the JSON text of the returned value (and of the JSON arguments of one bridge call). */
  resultBytes: number;
  /** Bridge calls (search + describe + call) per run. */
  toolCalls: number;
  /** Bridge calls awaiting the parent at once; the body's extra calls wait in the child. */
  inFlightCalls: number;
}

/** Options of `runner.run()`. */
export interface RunOptions {
  /** The body of an async function: `return await tools.call(...)`. Runs in strict mode. */
  code: string;
  bridge: Bridge;
  /** Overrides the runner's `limits.timeoutMs` for this run; clamped to 1–60 s. */
  timeoutMs?: number;
  /** Aborting it kills the child; the run reports `aborted`. */
  signal?: AbortSignal;
}

/** Why a run failed. Every one of these is a value, never a throw. */
export type RunErrorCode =
  | 'timeout'
  | 'aborted'
  | 'syntax'
  | 'runtime'
  | 'output_limit'
  | 'result_too_large'
  | 'too_many_calls'
  | 'crashed'
  | 'protocol'
  | 'unavailable';

/** One `console.*` line of the body. */
export interface RunLog {
  level: 'log' | 'warn' | 'error';
  text: string;
}

/** Figures of one run. */
export interface RunStats {
  /** From `run()` being called to the result (includes waiting for a child). */
  wallTimeMs: number;
  /** Bridge calls that reached the parent's handlers, per method. */
  calls: { search: number; describe: number; call: number };
  /** True when a pre-spawned child from the warm pool served the run. */
  warm: boolean;
}

/** The outcome of a run: a value for every expected outcome. */
export type RunResult =
  | { ok: true; value: unknown; logs: RunLog[]; stats: RunStats }
  | { ok: false; error: { code: RunErrorCode; message: string }; logs: RunLog[]; stats: RunStats };

/**
 * Which layers protect a run. Node engine: `os` adds namespaces, rlimits and a dropped uid to the Node-level
 * layers, `node-only` has the Node-level layers alone. QuickJS engine: `wasm`, a QuickJS context in
 * WebAssembly memory on a worker thread of this process, with no OS layer (see DESIGN.md).
 */
export type IsolationLevel = 'os' | 'node-only' | 'wasm';

/** The engine that runs bodies: a locked-down Node child process, or QuickJS compiled to WebAssembly. */
export type SandboxEngine = 'node' | 'quickjs';

/** `auto` takes the Node engine when its runtime passes the probe and QuickJS otherwise. */
export type EngineRequest = 'auto' | SandboxEngine;

/**
 * `auto` takes `os` where it works and falls back to `node-only` (or `wasm`); `os` refuses to run without it
 * (so it never gets the QuickJS engine); `node-only` skips the OS layer.
 */
export type IsolationRequest = 'auto' | 'os' | 'node-only';

/** Options of `probeRuntime()`. */
export interface ProbeOptions {
  /** Defaults to `auto`. */
  engine?: EngineRequest | undefined;
  /** An explicit Node binary; otherwise `TOOL_SEARCH_NODE`, `process.execPath` (if ≥ 26.12.1), the npm binary. */
  nodePath?: string | undefined;
  isolation?: IsolationRequest | undefined;
  logger?: Logger;
}

/**
 * What `probeRuntime()` found: a runtime that passed the canary self-test, or why none did. For the QuickJS
 * engine `nodePath` is this process's own binary (the engine runs in it) and `version` names the QuickJS build.
 */
export type ProbeResult =
  | { ok: true; engine: SandboxEngine; nodePath: string; version: string; isolation: IsolationLevel }
  | { ok: false; reason: string };

/** Options of `createRunner()`. */
export interface RunnerOptions {
  /** Defaults to `auto` (see `EngineRequest`). */
  engine?: EngineRequest;
  /** The Node binary of the Node engine's children. */
  nodePath?: string;
  /** Defaults to `auto`. */
  isolation?: IsolationRequest;
  logger?: Logger;
  /** Pre-spawned single-use children kept ready. `size: 0` disables the pool. Defaults to 2. */
  pool?: { size: number };
  limits?: Partial<RunnerLimits>;
}

/** Runs bodies, each in a fresh single-use child. */
export interface Runner {
  /** Runs one body in a fresh child; resolves with a `RunResult` for every expected outcome, never rejects for one. */
  run(options: RunOptions): Promise<RunResult>;
  /** Kills idle children and aborts runs in progress. Further `run()` calls throw `runner_closed`. */
  close(): Promise<void>;
}
