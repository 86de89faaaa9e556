// The parts of one MCP connection and what they share: the settings read from its config and options, its state,
// and the current SDK client with its transport. The modules that do the work read the core through this
// interface; createMcpConnectionCore builds it from them, so no module imports the one that wires it.
import type { Client, Transport, LoggingLevel } from '@modelcontextprotocol/client';
import type { Policy } from '@tool-search/policy';
import type { Logger } from 'pino';
import type { McpServerConfig } from '../schemas.js';
import type { ConnectMcpServerOptions } from './connect-mcp-server-options.js';
import type { BoundedSchemaCompiler } from '../shared/index.js';
import type { ConnectionAuth } from './create-connection-auth.js';
import type { StderrTail } from './create-stderr-tail.js';
import type { McpConnectionState } from './mcp-connection-state.js';
import type { McpRoot, McpServerFeatures } from './mcp-server-connection.js';

/** One connection's settings, state, client and transport. */
export interface McpConnectionCore {
  readonly config: McpServerConfig;
  readonly options: ConnectMcpServerOptions;
  readonly log: Logger;
  readonly requestTimeoutMs: number;
  readonly logLevel: LoggingLevel;
  readonly redact: (text: string) => string;
  readonly stderr: StderrTail;
  readonly compiler: BoundedSchemaCompiler;
  /** The server's include/exclude patterns, when it has any. */
  readonly filter: Policy | undefined;
  readonly auth: ConnectionAuth;
  readonly state: McpConnectionState;
  /** The roots offered to the server (replaced by `setRoots`). */
  roots: McpRoot[];
  /** The current client and its transport: replaced once when an interactive authorization restarts the start. */
  client: Client;
  transport: Transport;
  /** What the server said it can do at `initialize` (nothing before). */
  features(): McpServerFeatures;
  /** Checks, once for everyone asking meanwhile, that an HTTP server that failed a request is still there. */
  confirmAlive(): Promise<void>;
  /** Re-lists the tools after `notifications/tools/list_changed` (serialised). */
  relist(): Promise<void>;
  /** No OAuth token could be had. */
  becomeUnauthorized(): void;
  /** Closes the current client and starts over with a new client and transport (after an authorization). */
  replaceClient(): Promise<void>;
  /** Closes the client and stops the server process and whatever it started. */
  stop(): Promise<void>;
}
