import { createRequire } from 'node:module';
import type { StdioServerConfig } from './server-config.js';

const require = createRequire(import.meta.url);

/** Entry scripts of the MCP servers from npm the tests run against (pinned dependencies of this package). */
export const REAL_MCP_SERVER_SCRIPTS = {
  everything: () => require.resolve('@modelcontextprotocol/server-everything/dist/index.js'),
  filesystem: () => require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'),
  memory: () => require.resolve('@modelcontextprotocol/server-memory/dist/index.js'),
} as const;

/** A stdio config that runs one of the real servers with the running Node; `args` follow the script. */
export function realMcpServerConfig(
  server: keyof typeof REAL_MCP_SERVER_SCRIPTS,
  options: { name?: string; args?: string[]; env?: Record<string, string>; extra?: Partial<Omit<StdioServerConfig, 'transport'>> } = {},
): StdioServerConfig {
  return {
    name: options.name ?? server,
    transport: 'stdio',
    command: process.execPath,
    args: [REAL_MCP_SERVER_SCRIPTS[server](), ...(options.args ?? [])],
    ...(options.env === undefined ? {} : { env: options.env }),
    ...options.extra,
  };
}
