// Writes a gateway JSON5 config file for a scenario: the fake plugin, the MCP fixture, a mode, a policy.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { MODES } from '@tool-search/modes';
import JSON5 from 'json5';
import type { GatewayProviderConfig } from './load-gateway-config.js';
import { MCP_FIXTURE_PATH } from './mcp-fixture.js';

/** The modes the comparison runs, in report order. */
export const COMPARISON_MODES = MODES;

/** One of the comparison's modes. */
export type ComparisonMode = (typeof COMPARISON_MODES)[number];

/** Options for `writeGatewayConfig`. */
export interface WriteGatewayConfigOptions {
  path: string;
  /** The provider: its base URL as the official client of `api` takes it (`MockProvider.baseURLFor(api)`). */
  provider: { baseURL: string; api: GatewayProviderConfig['api']; stream?: boolean };
  mode: ComparisonMode;
  /** Plugin module paths (absolute, or relative to the config file). */
  plugins: string[];
  /** Start the MCP fixture as server `fixture` (default true). `pidFile` lets a test find and kill it. */
  mcp?: { pidFile?: string } | false | undefined;
  policy?: unknown | undefined;
  context?: Record<string, string | boolean> | undefined;
  /** Relative to the config file. */
  stateDir: string;
  /** Extra `tools.toolSearch` keys for the tool-search modes. */
  toolSearch?: Record<string, unknown> | undefined;
  /** Runtime override for the code-mode probe (a path that is not Node makes the probe fail). */
  sandboxNodePath?: string | undefined;
}

/** The `tools.toolSearch` value for a mode: `false` for direct, `true` for code, the object form otherwise. */
export function toolSearchSetting(mode: ComparisonMode, extra: Record<string, unknown> = {}): unknown {
  if (mode === 'direct') return false;
  if (mode === 'code' && Object.keys(extra).length === 0) return true;
  return { mode, ...extra };
}

/** Writes the config (JSON5) and returns its path. */
export async function writeGatewayConfig(options: WriteGatewayConfigOptions): Promise<string> {
  const mcp = options.mcp ?? {};
  const config = {
    provider: { baseURL: options.provider.baseURL, api: options.provider.api, model: 'mock-model', stream: options.provider.stream ?? false },
    plugins: options.plugins,
    mcp: {
      servers:
        mcp === false
          ? []
          : [
              {
                name: 'fixture',
                transport: 'stdio',
                command: process.execPath,
                args: [MCP_FIXTURE_PATH],
                ...(mcp.pidFile ? { env: { MCP_FIXTURE_PID_FILE: mcp.pidFile } } : {}),
              },
            ],
    },
    tools: { toolSearch: toolSearchSetting(options.mode, options.toolSearch) },
    policy: options.policy,
    ...(options.context ? { context: options.context } : {}),
    ...(options.sandboxNodePath ? { sandbox: { nodePath: options.sandboxNodePath } } : {}),
    stateDir: options.stateDir,
  };
  await mkdir(dirname(options.path), { recursive: true });
  await writeFile(options.path, `// Gateway config written by @tool-search/e2e (${options.mode} mode).\n${JSON5.stringify(config, null, 2)}\n`, 'utf8');
  return options.path;
}
