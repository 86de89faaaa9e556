// Spawns stdio MCP servers before the host exists, so a command that needs the host can load it while the
// servers start (a server's own start, usually Node loading its modules, is then not added to the command's).
import type { Transport } from '@modelcontextprotocol/client';
import type { StdioServerParameters } from '@modelcontextprotocol/client/stdio';
import { stdioServerParameters } from './stdio-server-parameters.js';
import { TrackedStdioClientTransport, type TrackedStdioClientOptions } from './tracked-stdio-client-transport.js';
import type { McpServerConfig } from '../schemas.js';
import { DEFAULT_MAX_CONCURRENT_STARTS } from './mcp-server-supervisor.js';

/** Stdio servers spawned ahead of the host: `createToolSearchHost({ spawnedAhead })` takes each one's process for its first connection. */
export interface StdioServersAhead {
  /** The names of the servers spawned and not taken yet. */
  readonly names: readonly string[];
  /**
   * Hands over the started transport of `config`'s server (once): only when it was spawned with exactly the
   * command, arguments, environment and folder `config` gives, else `undefined` (the host spawns its own).
   */
  take(config: McpServerConfig): Transport | undefined;
  /** Stops the servers nobody took (their stdin ends, then SIGTERM and SIGKILL as the SDK does); idempotent. */
  close(): Promise<void>;
}

/**
 * Spawns the first `limit` stdio servers of `servers` now (default `DEFAULT_MAX_CONCURRENT_STARTS`, the host's own
 * default of connections at once, so they are the ones it connects first; HTTP and SSE servers are left to the host)
 * and returns them for the host; it spawns the others in turns. A server that cannot be spawned or exits before the
 * host connects fails that first connection with its reason and stderr, as it would have without spawning ahead.
 */
export function spawnStdioServersAhead(servers: readonly McpServerConfig[], options: { limit?: number } = {}): StdioServersAhead {
  const limit = options.limit ?? DEFAULT_MAX_CONCURRENT_STARTS;
  const spawned = new Map<string, { key: string; transport: AheadStdioClientTransport }>();
  for (const config of servers) {
    if (config.transport !== 'stdio' || spawned.has(config.name)) continue;
    if (spawned.size >= limit) break;
    const parameters = stdioServerParameters(config);
    spawned.set(config.name, { key: parametersKey(parameters), transport: new AheadStdioClientTransport(parameters, { maxResultBytes: config.maxResultBytes }) });
  }
  return {
    get names() {
      return [...spawned.keys()];
    },
    take(config) {
      const entry = spawned.get(config.name);
      if (entry === undefined || config.transport !== 'stdio' || entry.key !== parametersKey(stdioServerParameters(config))) return undefined;
      spawned.delete(config.name);
      return entry.transport;
    },
    async close() {
      const left = [...spawned.values()];
      spawned.clear();
      await Promise.all(left.map((entry) => entry.transport.close().catch(() => undefined)));
    },
  };
}

function parametersKey(parameters: StdioServerParameters): string {
  const env = Object.entries(parameters.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([parameters.command, parameters.args ?? [], env, parameters.cwd ?? null]);
}

/**
 * The SDK's stdio transport, spawned at construction: `start()` (which the client calls when it connects) then
 * waits for that spawn. What happens before the client connects is kept for it: a spawn error fails `start()`,
 * and so does an exit (the client would otherwise send `initialize` to a process that is gone). The server's
 * stderr is the SDK's buffered pipe, read when the connection attaches to it. A server speaks only after the
 * client's `initialize`, so no message can arrive before the client listens.
 */
class AheadStdioClientTransport extends TrackedStdioClientTransport {
  private readonly spawned: Promise<void>;
  private exitedEarly = false;
  private spawnError: Error | undefined;

  constructor(parameters: StdioServerParameters, options: TrackedStdioClientOptions) {
    super(parameters, options);
    // Kept first in the chain the client builds on connect (it calls what it finds here before its own).
    this.onclose = () => {
      this.exitedEarly = true;
    };
    this.onerror = (error) => {
      this.spawnError ??= error;
    };
    this.spawned = super.start();
    this.spawned.catch(() => undefined);
  }

  override async start(): Promise<void> {
    await this.spawned;
    if (this.exitedEarly) throw new Error(`the server process exited before the client connected${this.spawnError === undefined ? '' : `: ${this.spawnError.message}`}`);
  }
}
