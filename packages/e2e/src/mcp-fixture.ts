// Where the MCP stdio server fixture lives, resolved from this file so it works from src and from dist.
import { fileURLToPath } from 'node:url';

/** Absolute path of the MCP stdio fixture server (`fixtures/mcp-server.mjs`), run with the system node. */
export const MCP_FIXTURE_PATH = fileURLToPath(new URL('../fixtures/mcp-server.mjs', import.meta.url));

/** The number of tools the MCP fixture serves. */
export const MCP_FIXTURE_TOOL_COUNT = 32;
