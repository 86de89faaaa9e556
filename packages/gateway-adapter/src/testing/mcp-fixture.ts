import { fileURLToPath } from 'node:url';
import type { McpServerConfig } from '../schemas.js';

/** Path of the stdio MCP fixture server used by this package's integration tests. */
export const MCP_FIXTURE_SERVER_PATH = fileURLToPath(new URL('../../test-fixtures/mcp-fixture-server.mjs', import.meta.url));

/** A stdio config that starts the fixture server with the running Node (`pageSize` tools per list page). */
export function mcpFixtureConfig(name = 'fixture', options: { pageSize?: number } = {}): McpServerConfig {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [MCP_FIXTURE_SERVER_PATH],
    env: { FIXTURE_PAGE_SIZE: String(options.pageSize ?? 3) },
  };
}
