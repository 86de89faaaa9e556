import { fileURLToPath } from 'node:url';
import type { StdioServerConfig } from './server-config.js';

/** Path of the stdio MCP fixture server used by integration tests. */
export const MCP_FIXTURE_SERVER_PATH = fileURLToPath(new URL('../servers/mcp-fixture-server.mjs', import.meta.url));

/**
 * A stdio config that starts the fixture server with the running Node (`pageSize` tools per list page;
 * `startDelayMs`: the server answers nothing until then; `instructions`, `title`: what its `initialize` answers; `timedOutErrors`: add a tool and a resource whose
 * failures say "timed out" without being timeouts).
 */
export function mcpFixtureConfig(name = 'fixture', options: { pageSize?: number; startDelayMs?: number; instructions?: string; title?: string; timedOutErrors?: boolean } = {}): StdioServerConfig {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [MCP_FIXTURE_SERVER_PATH],
    env: {
      FIXTURE_PAGE_SIZE: String(options.pageSize ?? 3),
      FIXTURE_START_DELAY_MS: String(options.startDelayMs ?? 0),
      ...(options.instructions === undefined ? {} : { FIXTURE_INSTRUCTIONS: options.instructions }),
      ...(options.title === undefined ? {} : { FIXTURE_TITLE: options.title }),
      ...(options.timedOutErrors === true ? { FIXTURE_TIMED_OUT_ERRORS: '1' } : {}),
    },
  };
}
