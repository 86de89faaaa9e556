import { callMcpTool } from './call-mcp-tool.js';
import type { ConnectMcpServerOptions } from './connect-mcp-server-options.js';
import { createMcpConnectionCore } from './create-mcp-connection-core.js';
import { createServerFeatureRequests } from './create-server-feature-requests.js';
import type { McpConnectionCore } from './mcp-connection-core.js';
import { startMcpConnection } from './start-mcp-connection.js';
import type { McpServerConnection } from './mcp-server-connection.js';
import type { McpServerConfig } from '../schemas.js';

// The connection's contract lives in mcp-server-connection.ts; it is re-exported here, where it is made.
export type {
  McpCallFailureCode,
  McpCallOptions,
  McpCallResult,
  McpCompleteResult,
  McpFailureKind,
  McpGetPromptResult,
  McpListResult,
  McpLogEntry,
  McpProgress,
  McpPrompt,
  McpReadResourceResult,
  McpResource,
  McpResourceTemplate,
  McpRoot,
  McpServerConnection,
  McpServerFeatures,
  McpServerStatus,
  McpToolAnnotations,
  McpToolDefinition,
  McpWithheldTool,
} from './mcp-server-connection.js';

// The options' types live in connect-mcp-server-options.ts (the connection's parts read them); re-exported here.
export type { ConnectMcpServerOptions, McpElicitationHandler, McpOAuthOptions, McpSamplingHandler } from './connect-mcp-server-options.js';

export { DEFAULT_MAX_TOTAL_TIMEOUT_MS } from './total-timeout.js';

/**
 * Connects to one MCP server (stdio child, Streamable HTTP, or legacy SSE), lists its tools across every page and
 * keeps the list current on `notifications/tools/list_changed`. A server that fails to start comes back
 * `unavailable` (or `unauthorized`) with the reason rather than throwing.
 */
export async function connectMcpServer(config: McpServerConfig, options: ConnectMcpServerOptions = {}): Promise<McpServerConnection> {
  const core = createMcpConnectionCore(config, options);
  await startMcpConnection(core);
  return exposeConnection(core);
}

/** The connection as its contract shows it: a view of the core, each method handed to the module that owns it. */
function exposeConnection(core: McpConnectionCore): McpServerConnection {
  const { config, state } = core;
  return {
    name: config.name,
    config,
    get status() {
      return state.status;
    },
    get failure() {
      return state.failure;
    },
    get failureKind() {
      return state.failureKind;
    },
    get instructions() {
      return state.status === 'connected' || state.started ? core.client.getInstructions() : undefined;
    },
    get serverInfo() {
      const info = core.client.getServerVersion();
      if (info === undefined) return undefined;
      const description = (info as { description?: unknown }).description;
      return { name: info.name, version: info.version, ...(info.title === undefined ? {} : { title: info.title }), ...(typeof description === 'string' ? { description } : {}) };
    },
    get features() {
      return core.features();
    },
    get pid() {
      return state.pid;
    },
    get protocolVersion() {
      return core.client.getNegotiatedProtocolVersion();
    },
    stderrTail: () => core.stderr.lines(),
    tools: () => [...state.tools.values()],
    withheldTools: () => state.withheld.map((tool) => ({ ...tool })),
    callTool: (name, args, callOptions = {}) => callMcpTool(core, name, args, callOptions),
    ...createServerFeatureRequests(core),
    async setRoots(next) {
      if (core.options.roots === undefined) throw new Error(`MCP connection "${config.name}" was created without roots; pass options.roots to offer them`);
      core.roots = next.map((root) => ({ ...root }));
      if (state.status === 'connected') await core.client.sendRootsListChanged().catch(() => undefined);
    },
    async close() {
      if (state.closedByUs) return;
      state.closedByUs = true;
      await core.stop();
      state.becomeUnavailable('closed', `MCP server "${config.name}" was closed`);
    },
  };
}
