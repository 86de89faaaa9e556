import type { ProbeResult } from '@tool-search/sandbox-runner';
import type { ResolvedToolSearchConfig, ToolSearchMode } from './resolve-tool-search-config.js';

/** What the code-mode decision reads: sandbox-runner's `probeRuntime` result (its owner). */
export type RuntimeProbe = ProbeResult;

/** The mode a session will render, decided before the surface is rendered. */
export interface ToolSearchModeDecision {
  mode: ToolSearchMode;
  requestedMode: ToolSearchMode;
  /** Why the requested mode was not used (code mode without a sandbox runtime). */
  fallbackReason?: string;
  /** The runtime the code mode runs on, when it does: the engine (a Node child or QuickJS-WASM) and its isolation. */
  runtime?: Omit<Extract<ProbeResult, { ok: true }>, 'ok'>;
}

/**
 * Decides the rendered mode: code mode needs a working sandbox runtime; when `probe` fails (or throws), the
 * session falls back to `tools` mode and records why. Other modes never probe.
 */
export async function decideToolSearchMode(
  config: ResolvedToolSearchConfig,
  options: { probe: () => Promise<RuntimeProbe> },
): Promise<ToolSearchModeDecision> {
  if (config.mode !== 'code') return { mode: config.mode, requestedMode: config.mode };
  let probe: RuntimeProbe;
  try {
    probe = await options.probe();
  } catch (error) {
    probe = { ok: false, reason: `runtime probe threw: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!probe.ok) return { mode: 'tools', requestedMode: 'code', fallbackReason: probe.reason };
  return {
    mode: 'code',
    requestedMode: 'code',
    runtime: { engine: probe.engine, nodePath: probe.nodePath, version: probe.version, isolation: probe.isolation },
  };
}
