/**
 * @tool-search/sandbox-runner: the public contract. Adding an export here makes it public API.
 */
export { createRunner } from './create-runner.js';
export { isSandboxRunnerError, SandboxRunnerError } from './errors.js';
export type { SandboxRunnerErrorCode } from './errors.js';
export { probeRuntime } from './probe-runtime.js';
export { DEFAULT_LIMITS, LIMIT_BOUNDS } from './resolve-limits.js';
export { clampLimit } from './resolve-limits.js';
export type {
  Bridge,
  BridgeContext,
  EngineRequest,
  IsolationLevel,
  IsolationRequest,
  ProbeOptions,
  ProbeResult,
  RunErrorCode,
  RunLog,
  Runner,
  RunnerLimits,
  RunnerOptions,
  RunOptions,
  RunResult,
  RunStats,
  SandboxEngine,
} from './types.js';
