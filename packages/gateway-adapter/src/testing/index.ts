// Test helpers of @tool-search/gateway-adapter (not shipped in the build: package tests only).
export { MCP_FIXTURE_SERVER_PATH, mcpFixtureConfig } from './mcp-fixture.js';
export { REAL_MCP_SERVER_SCRIPTS, realMcpServerConfig } from './real-mcp-servers.js';
export { EMBEDDINGS_FIXTURE_SERVER_PATH, startEmbeddingsFixture } from './embeddings-fixture.js';
export type { EmbeddingsFixture } from './embeddings-fixture.js';
export { startScriptedMcpServer } from './scripted-mcp-server.js';
export type { ScriptedMcpExtras, ScriptedMcpServer, ScriptedMcpTool } from './scripted-mcp-server.js';
