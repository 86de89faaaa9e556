// What `host.status()` and `host.mcpServers()` answer: each configured server as the host sees it.
import type { ToolSource } from '@tool-search/catalog';
import type { McpServerConnection, McpServerState } from '../mcp-client/index.js';
import type { PolicyCacheStatus } from './policy-cache.js';

/** One MCP server as the host sees it. */
export interface HostServerStatus {
  name: string;
  state: McpServerState;
  /** Its tools in the catalog now (0 unless ready; tools the catalog rejected are not counted). */
  tools: number;
  /** Why it is not ready. */
  reason?: string;
  /** Connections made after the first. */
  restarts: number;
  /** Tools the server lists that are not catalogued, with why (include/exclude, tasks it cannot run, schemas over the limits). */
  withheld: Array<{ name: string; reason: string }>;
}

/** What `host.status()` reports. */
export interface HostStatus {
  servers: HostServerStatus[];
  catalog: { size: number; sources: Record<ToolSource, number> };
  /** Sessions open now. */
  sessions: number;
  /** What the host keeps by policy content (see `policyCacheSize`). */
  policyCache: PolicyCacheStatus;
}

/**
 * One configured MCP server's resources, prompts and completions, for fronts that pass them through (an MCP
 * server front). Each answers `{ ok: false, code: 'unavailable' }` while the server is not ready. These do not
 * go through a session's policy: the front applies its own (for example the policy's verdict on the server's
 * `read_resource` tool).
 */
export type HostMcpServer = Pick<
  McpServerConnection,
  'listResources' | 'listResourceTemplates' | 'readResource' | 'listPrompts' | 'getPrompt' | 'complete'
> & { readonly name: string; readonly state: McpServerState; readonly instructions: string | undefined };
