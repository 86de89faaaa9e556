// Keeps one MCP server running for a long-lived host: connects it, and when it fails to start, exits or (HTTP)
// ends its session, connects a fresh one after a backoff (1, 2, 4 … 30 s, then every 30 s). Every connection
// is replaced, never revived, so a dead child or transport leaves nothing behind.
import type { Transport } from '@modelcontextprotocol/client';
import type { Logger } from 'pino';
import { connectMcpServer, type ConnectMcpServerOptions } from './connect-mcp-server.js';
import { createEraVerdictCache } from './create-era-verdict-cache.js';
import { combineSignals } from '../shared/index.js';
import type { RunSlots } from '../shared/index.js';
import type { McpCallOptions, McpCallResult, McpFailureKind, McpServerConnection, McpToolDefinition, McpWithheldTool } from './mcp-server-connection.js';
import type { McpServerConfig } from '../schemas.js';

/** Where a supervised server is: first start, connected, reconnecting, or down until the next attempt. */
export type McpServerState = 'starting' | 'ready' | 'restarting' | 'unavailable';

/** Backoff between reconnect attempts; `false` never reconnects. */
export type RestartBackoff = { initialMs?: number; maxMs?: number } | false;

/** How much of an exited server's stderr its reason quotes (the connection keeps more, for `host.status()`). */
const STDERR_LINES_IN_REASON = 5;
const STDERR_CHARS_IN_REASON = 600;

/**
 * Connection attempts a host makes at once (`maxConcurrentStarts`), and stdio servers spawned ahead of it: a hundred
 * servers started together share the cores, so each is slower and the first ones are ready later than in turns.
 */
export const DEFAULT_MAX_CONCURRENT_STARTS = 8;
/** How long an attempt waits for a start slot before it connects anyway. */
const START_SLOT_WAIT_MS = 10 * 60_000;

/** Defaults of the reconnect backoff: the delay doubles from 1 s up to 30 s, then stays there. */
export const DEFAULT_RESTART_BACKOFF = Object.freeze({ initialMs: 1_000, maxMs: 30_000 });

/** What the supervisor tells its host. */
export interface SupervisorListener {
  /** Connected (again): the new connection, its tools listed. */
  onReady(connection: McpServerConnection): void;
  /** The connected server changed its list (`notifications/tools/list_changed`). */
  onToolsChanged(change: { added: McpToolDefinition[]; removed: string[] }): void;
  /** The connected server went away (exited, closed, ended its session). */
  onDown(reason: string): void;
  /** Any state change, for status and logs. */
  onState(state: McpServerState, reason: string | undefined): void;
}

export interface McpServerSupervisorOptions extends SupervisorListener {
  logger: Logger;
  requestTimeoutMs?: number | undefined;
  backoff?: RestartBackoff | undefined;
  /** The first connection's transport, already started (a stdio server spawned ahead); later ones start their own. */
  firstTransport?: Transport | undefined;
  /** Slots shared by the host's servers: an attempt connects once it holds one (see `DEFAULT_MAX_CONCURRENT_STARTS`). */
  startSlots?: RunSlots | undefined;
  /** Options every connection gets (roots, elicitation, sampling, server logs, OAuth). */
  connect?: Pick<ConnectMcpServerOptions, 'roots' | 'onElicitation' | 'onSampling' | 'onLog' | 'logLevel' | 'oauth' | 'clientInfo' | 'onListChanged'> | undefined;
}

/** One supervised server; the first connection attempt starts in the constructor. */
export class McpServerSupervisor {
  readonly name: string;
  /** Settles when the first connection attempt has (connected or failed). */
  readonly firstAttempt: Promise<void>;
  private currentState: McpServerState = 'starting';
  private currentReason: string | undefined;
  private restartCount = 0;
  private failures = 0;
  private readySince = 0;
  private connection: McpServerConnection | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Bumped per connection, so callbacks of a replaced connection are ignored. */
  private generation = 0;
  /** The attempt in progress (or the last one), so `close` can wait for a child still being started. */
  private pending: Promise<void>;
  /** Aborts an attempt still connecting when the supervisor closes. */
  private readonly closing = new AbortController();
  private readonly backoff: { initialMs: number; maxMs: number } | false;
  /** The server's era as the last probing connect found it: a restart does not probe again. */
  private readonly eraVerdicts = createEraVerdictCache();

  constructor(
    private readonly config: McpServerConfig,
    private readonly options: McpServerSupervisorOptions,
  ) {
    this.name = config.name;
    this.backoff = options.backoff === false ? false : { ...DEFAULT_RESTART_BACKOFF, ...options.backoff };
    this.firstAttempt = this.attempt();
    this.pending = this.firstAttempt;
  }

  get state(): McpServerState {
    return this.currentState;
  }

  /** Why the server is not ready (the last failure), when it is not. */
  get reason(): string | undefined {
    return this.currentReason;
  }

  /** Connections made after the first. */
  get restarts(): number {
    return this.restartCount;
  }

  tools(): McpToolDefinition[] {
    return this.currentState === 'ready' && this.connection ? this.connection.tools() : [];
  }

  /** Tools the server lists that are not offered (filtered out, needing tasks it lacks, schemas over the limits), with why. */
  withheld(): McpWithheldTool[] {
    return this.live()?.withheldTools() ?? [];
  }

  /** The live connection while ready (for resources, prompts and completions). */
  live(): McpServerConnection | undefined {
    return this.currentState === 'ready' ? this.connection : undefined;
  }

  /** Calls a tool on the live connection; the server's own `timeoutMs` wins over the caller's. */
  async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions): Promise<McpCallResult> {
    const live = this.connection;
    if (this.currentState !== 'ready' || live === undefined) {
      return { ok: false, code: 'unavailable', message: `MCP server "${this.name}" is unavailable: ${this.currentReason ?? this.currentState}` };
    }
    const timeoutMs = this.config.timeoutMs ?? options.timeoutMs;
    return live.callTool(name, args, { ...options, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.generation += 1;
    this.closing.abort(new Error(`MCP server "${this.name}" was closed while starting`));
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const live = this.connection;
    this.connection = undefined;
    await live?.close();
    await this.pending.catch(() => undefined);
    this.currentState = 'unavailable';
    this.currentReason = 'closed by the host';
  }

  private setState(state: McpServerState, reason: string | undefined): void {
    this.currentState = state;
    this.currentReason = reason;
    this.options.onState(state, reason);
  }

  private scheduleReconnect(): void {
    if (this.closed || this.backoff === false) return;
    const delay = Math.min(this.backoff.initialMs * 2 ** Math.min(this.failures, 30), this.backoff.maxMs);
    this.failures += 1;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.restartCount += 1;
      this.setState('restarting', this.currentReason);
      this.pending = this.attempt();
    }, delay);
    // A host that is never closed must not keep its process alive for a reconnect.
    this.timer.unref();
  }

  private async attempt(): Promise<void> {
    const current = ++this.generation;
    const live = { started: false };
    let next: McpServerConnection;
    // A signal of this attempt's own, so the listeners a connect leaves on it go with it (one per restart would
    // otherwise pile up on the supervisor's closing signal).
    const attemptSignal = combineSignals([this.closing.signal]);
    const startedTransport = current === 1 ? this.options.firstTransport : undefined;
    // In turns with the host's other servers; a supervisor closed meanwhile connects nothing.
    const slot = await this.options.startSlots?.acquire({ waitMs: START_SLOT_WAIT_MS, signal: this.closing.signal });
    if (this.closed) {
      if (slot?.ok === true) slot.release();
      attemptSignal.dispose();
      return;
    }
    try {
      next = await connectMcpServer(this.config, {
        ...this.options.connect,
        ...(startedTransport === undefined ? {} : { startedTransport }),
        logger: this.options.logger,
        eraVerdicts: this.eraVerdicts,
        signal: attemptSignal.signal,
        ...(this.options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: this.options.requestTimeoutMs }),
        onToolsChanged: (change) => {
          if (current === this.generation && this.currentState === 'ready') this.options.onToolsChanged(change);
        },
        // A failure while connecting is reported by the connect result below.
        onUnavailable: (why, kind) => {
          if (!live.started || current !== this.generation || this.closed) return;
          // The last lines a process wrote before it exited usually say why.
          const tail = kind === 'exited' ? next.stderrTail().slice(-STDERR_LINES_IN_REASON).join(' | ').slice(-STDERR_CHARS_IN_REASON) : '';
          this.wentDown(tail === '' ? why : `${why}; its last stderr lines: ${tail}`, kind);
        },
      });
    } catch (error) {
      // connectMcpServer reports failures as values; anything thrown is treated the same way.
      this.setState('unavailable', `MCP server "${this.name}" failed to start: ${error instanceof Error ? error.message : String(error)}`);
      this.scheduleReconnect();
      return;
    } finally {
      attemptSignal.dispose();
      if (slot?.ok === true) slot.release();
    }
    if (this.closed || current !== this.generation) {
      await next.close();
      return;
    }
    if (next.status !== 'connected') {
      this.setState('unavailable', next.failure ?? `MCP server "${this.name}" failed to start`);
      // No token, no point in retrying on a timer: that needs the user (or a new token in the store).
      if (next.status !== 'unauthorized') this.scheduleReconnect();
      return;
    }
    live.started = true;
    this.connection = next;
    this.readySince = Date.now();
    this.setState('ready', undefined);
    this.options.onReady(next);
  }

  private wentDown(reason: string, kind: McpFailureKind): void {
    const dead = this.connection;
    this.connection = undefined;
    // Replaced, never revived: whatever is left of the old connection is closed.
    void dead?.close().catch(() => undefined);
    // A server that stayed up for a whole backoff period starts its backoff over.
    if (this.backoff !== false && Date.now() - this.readySince >= this.backoff.maxMs) this.failures = 0;
    this.setState('unavailable', reason);
    this.options.onDown(reason);
    // A lost token needs the user; a connection closed on purpose stays closed.
    if (kind !== 'unauthorized' && kind !== 'closed') this.scheduleReconnect();
  }
}
