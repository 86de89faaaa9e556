import type { ProbeResult } from '@tool-search/sandbox-runner';
import type { Mode } from '@tool-search/modes';
import type { ResolvedToolSearchConfig, ToolSearchMode } from './resolve-tool-search-config.js';

/**
 * What the code-mode decision reads: sandbox-runner's `ProbeResult`, under the name this package first gave it.
 * sandbox-runner owns the type; this is an alias, never a restatement, and new code names `ProbeResult`.
 */
export type RuntimeProbe = ProbeResult;

/** The mode a session will render, decided before the surface is rendered. */
export interface ToolSearchModeDecision {
  mode: Mode;
  requestedMode: ToolSearchMode;
  /** Why the requested mode was not used (code mode without a sandbox runtime). */
  fallbackReason?: string;
  /** What `auto` measured and chose (`auto` only). */
  autoReason?: string;
  /** The runtime the code mode runs on, when it does: the engine (a Node child or QuickJS-WASM) and its isolation. */
  runtime?: Omit<Extract<ProbeResult, { ok: true }>, 'ok'>;
}

/** The direct surface `auto` would render: how many tools, and (measured only when asked) their bytes. */
export interface DirectMeasure {
  tools: number;
  bytes(): number;
}

/**
 * Decides the rendered mode. `auto` renders direct while the direct surface is within its thresholds (tool count
 * first, so a large catalog is never rendered just to be measured) and its search mode above them. Code mode
 * needs a working sandbox runtime: when `probe` fails (or throws), the session falls back to `tools` mode and
 * records why. Other modes never probe.
 */
export async function decideToolSearchMode(
  config: ResolvedToolSearchConfig,
  options: { probe: () => Promise<ProbeResult>; measureDirect?: (() => DirectMeasure) | undefined },
): Promise<ToolSearchModeDecision> {
  let mode: Mode;
  let autoReason: string | undefined;
  if (config.mode === 'auto') {
    ({ mode, autoReason } = decideAuto(config, options.measureDirect?.()));
  } else mode = config.mode;
  const auto = autoReason === undefined ? {} : { autoReason };
  if (mode !== 'code') return { mode, requestedMode: config.mode, ...auto };
  let probe: ProbeResult;
  try {
    probe = await options.probe();
  } catch (error) {
    probe = { ok: false, reason: `runtime probe threw: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!probe.ok) return { mode: 'tools', requestedMode: config.mode, fallbackReason: probe.reason, ...auto };
  return {
    mode: 'code',
    requestedMode: config.mode,
    ...auto,
    runtime: { engine: probe.engine, nodePath: probe.nodePath, version: probe.version, isolation: probe.isolation },
  };
}

function decideAuto(config: ResolvedToolSearchConfig, measure: DirectMeasure | undefined): { mode: Mode; autoReason: string } {
  const { maxTools, maxBytes, searchMode } = config.auto;
  if (measure === undefined) return { mode: searchMode, autoReason: `no catalog to measure: ${searchMode}` };
  if (measure.tools > maxTools) return { mode: searchMode, autoReason: `${measure.tools} tools > ${maxTools}: ${searchMode}` };
  const bytes = measure.bytes();
  if (bytes > maxBytes) return { mode: searchMode, autoReason: `${measure.tools} tools, ${bytes} bytes > ${maxBytes}: ${searchMode}` };
  return { mode: 'direct', autoReason: `${measure.tools} tools, ${bytes} bytes within ${maxTools} tools and ${maxBytes} bytes: direct` };
}
