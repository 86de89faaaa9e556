// @tool-search/test-utils: the fixture MCP servers and helpers the packages' tests and benches share. Private:
// never published, never imported by shipped code.
export { ASKING_MCP_SERVER_PATH, EXIT_ON_PROBE_SERVER_PATH, MODERN_MCP_SERVER_PATH, PROMPTS_ONLY_SERVER_PATH, REPLAY_MCP_SERVER_PATH } from './fixture-servers.js';
export { MCP_FIXTURE_SERVER_PATH, mcpFixtureConfig } from './mcp-fixture.js';
export { REAL_MCP_SERVER_SCRIPTS, realMcpServerConfig } from './real-mcp-servers.js';
export { EMBEDDINGS_FIXTURE_SERVER_PATH, startEmbeddingsFixture } from './embeddings-fixture.js';
export type { EmbeddingsFixture } from './embeddings-fixture.js';
export { startScriptedMcpServer } from './scripted-mcp-server.js';
export type { ScriptedMcpExtras, ScriptedMcpServer, ScriptedMcpTool } from './scripted-mcp-server.js';
export { followAuthorizationRedirect, followAuthorizationRedirectQuery, startMcpOAuthFixture } from './mcp-oauth-fixture.js';
export type { McpOAuthFixture } from './mcp-oauth-fixture.js';
export type { HttpServerConfig, StdioServerConfig } from './server-config.js';
export { startCountingMcpServer } from './start-counting-mcp-server.js';
export type { CountingMcpServer } from './start-counting-mcp-server.js';
export { freePort, startRedisServer } from './start-redis-server.js';
export type { RedisServerFixture } from './start-redis-server.js';
export { until } from './until.js';
export { createModernServer } from '../servers/modern-mcp-server.mjs';
