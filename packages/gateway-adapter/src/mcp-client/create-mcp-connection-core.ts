// Wires the parts of one MCP connection (see McpConnectionCore): each concept's work is in its own module, which
// reads the core through its interface; this only builds them.
import type { Client, Transport, LoggingLevel } from '@modelcontextprotocol/client';
import { createPolicy, type Policy } from '@tool-search/policy';
import pino, { type Logger } from 'pino';
import type { ConnectMcpServerOptions } from './connect-mcp-server-options.js';
import type { McpRoot, McpServerFeatures } from './mcp-server-connection.js';
import type { McpServerConfig } from '../schemas.js';
import { createBoundedSchemaCompiler, type BoundedSchemaCompiler } from '../shared/index.js';
import { createConnectionAuth, type ConnectionAuth } from './create-connection-auth.js';
import { createHttpLivenessProbe } from './create-http-liveness-probe.js';
import { createMcpClientFactory } from './create-mcp-client-factory.js';
import { createServerTransport } from './create-server-transport.js';
import { createStderrTail, type StderrTail } from './create-stderr-tail.js';
import { createToolRelister } from './create-tool-relister.js';
import type { McpConnectionCore } from './mcp-connection-core.js';
import { McpConnectionState } from './mcp-connection-state.js';
import { readServerFeatures } from './read-server-features.js';
import { createSecretRedactor } from './redact-secrets.js';
import { stopMcpClient } from './stop-mcp-client.js';
import { TrackedStdioClientTransport } from './tracked-stdio-client-transport.js';

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const STDERR_LINES = 20;
const STDERR_BYTES = 2_048;

/** Builds one connection's settings, state, client and transport (not started: see `startMcpConnection`). */
export function createMcpConnectionCore(config: McpServerConfig, options: ConnectMcpServerOptions): McpConnectionCore {
  return new WiredMcpConnectionCore(config, options);
}

class WiredMcpConnectionCore implements McpConnectionCore {
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
  private readonly newClient: () => Client;
  private readonly probe: () => Promise<void>;
  private readonly relister: () => Promise<void>;

  constructor(
    readonly config: McpServerConfig,
    readonly options: ConnectMcpServerOptions,
  ) {
    this.log = (options.logger ?? pino({ level: 'silent' })).child({ component: 'mcp', server: config.name });
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.logLevel = options.logLevel ?? 'info';
    this.redact = createSecretRedactor(connectionSecrets(config), { names: Object.keys(passedValues(config)) });
    this.stderr = createStderrTail({ maxLines: STDERR_LINES, maxBytes: STDERR_BYTES, redact: this.redact });
    this.compiler = createBoundedSchemaCompiler();
    this.filter = createToolFilter(config);
    this.auth = createConnectionAuth(config, options);
    this.state = new McpConnectionState(config.name, this.log, options);
    this.roots = options.roots ?? [];
    this.probe = createHttpLivenessProbe(this);
    this.relister = createToolRelister(this);
    this.newClient = createMcpClientFactory(this);
    this.client = this.newClient();
    this.transport = createServerTransport(this, options.startedTransport);
  }

  /** What the server said it can do at `initialize` (nothing before). */
  features(): McpServerFeatures {
    return readServerFeatures(this.client);
  }

  /** Checks, once for everyone asking meanwhile, that an HTTP server that failed a request is still there. */
  confirmAlive(): Promise<void> {
    return this.probe();
  }

  /** Re-lists the tools after `notifications/tools/list_changed` (serialised). */
  relist(): Promise<void> {
    return this.relister();
  }

  /** No OAuth token could be had. */
  becomeUnauthorized(): void {
    this.state.becomeUnavailable('unauthorized', this.auth.unauthorizedReason());
  }

  /** Closes the current client and starts over with a new client and transport (after an authorization). */
  async replaceClient(): Promise<void> {
    await this.client.close().catch(() => undefined);
    this.client = this.newClient();
    this.transport = createServerTransport(this);
  }

  /** Closes the client and stops the server process and whatever it started. */
  async stop(): Promise<void> {
    const spawned = this.transport instanceof TrackedStdioClientTransport ? this.transport.spawnedPid : undefined;
    await stopMcpClient(this.client, this.state.pid ?? spawned);
    this.state.pid = undefined;
  }
}

/** Values that must never appear in a reason or log line: env (stdio) or header (HTTP) values, the OAuth client secret. */
function connectionSecrets(config: McpServerConfig): string[] {
  return [
    ...Object.values(passedValues(config)),
    ...('oauth' in config && typeof config.oauth === 'object' && config.oauth.clientSecret !== undefined ? [config.oauth.clientSecret] : []),
  ];
}

/** What the config passes to the server by name: its env (stdio) or its headers (HTTP). */
function passedValues(config: McpServerConfig): Record<string, string> {
  return config.transport === 'stdio' ? (config.env ?? {}) : (config.headers ?? {});
}

function createToolFilter(config: McpServerConfig): Policy | undefined {
  if (config.include === undefined && config.exclude === undefined) return undefined;
  return createPolicy({ allow: config.include, deny: config.exclude });
}
