import type { ResolvedToolSearchConfig, ToolSearchMode } from './resolve-tool-search-config.js';

/** The part of `probeRuntime`'s result this decision reads. */
export type RuntimeProbe = { ok: true; nodePath: string; version: string; isolation: string } | { ok: false; reason: string };

/** The mode a session will render, decided before the surface is rendered. */
export interface ToolSearchModeDecision {
  mode: ToolSearchMode;
  requestedMode: ToolSearchMode;
  /** Why the requested mode was not used (code mode without a sandbox runtime). */
  fallbackReason?: string;
  /** The runtime the code mode runs on, when it does. */
  runtime?: { nodePath: string; version: string; isolation: string };
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
    runtime: { nodePath: probe.nodePath, version: probe.version, isolation: probe.isolation },
  };
}
