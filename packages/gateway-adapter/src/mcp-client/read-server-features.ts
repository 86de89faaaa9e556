import type { Client, ServerCapabilities } from '@modelcontextprotocol/client';
import type { McpServerFeatures } from './mcp-server-connection.js';

/** What a server said it can do at `initialize`, as the connection uses it (nothing before `initialize`). */
export function readServerFeatures(client: Client): McpServerFeatures {
  const server: ServerCapabilities = client.getServerCapabilities() ?? {};
  return {
    tools: server.tools !== undefined,
    resources: server.resources !== undefined,
    prompts: server.prompts !== undefined,
    completions: server.completions !== undefined,
    logging: server.logging !== undefined,
    toolTasks: server.tasks?.requests?.tools?.call !== undefined,
  };
}
