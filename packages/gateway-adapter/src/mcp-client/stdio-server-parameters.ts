import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { StdioServerParameters } from '@modelcontextprotocol/client/stdio';
import type { McpServerConfig } from '../schemas.js';

/** How a stdio server is spawned: its command, the SDK's default environment plus its own, its folder, stderr piped. */
export function stdioServerParameters(config: Extract<McpServerConfig, { transport: 'stdio' }>): StdioServerParameters {
  return {
    command: config.command,
    args: config.args ?? [],
    env: { ...getDefaultEnvironment(), ...(config.env ?? {}) },
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    stderr: 'pipe',
  };
}
