// What one MCP connection is right now, and the one place where it stops being connected: one log line per
// transition, and the owner told once when a started server goes away.
import type { Logger } from 'pino';
import type { McpCallFailureCode, McpFailureKind, McpServerStatus, McpToolDefinition, McpWithheldTool } from './mcp-server-connection.js';

/** A request that produced no result, as a value. */
export interface McpRequestFailure {
  ok: false;
  code: McpCallFailureCode;
  message: string;
}

/** The one log line per transition, by what the connection became. */
const TRANSITION_LOG: Record<McpFailureKind, { level: 'info' | 'warn'; message: string }> = {
  start_failed: { level: 'warn', message: 'mcp server failed to start' },
  exited: { level: 'warn', message: 'mcp server unavailable' },
  unreachable: { level: 'warn', message: 'mcp server unavailable' },
  unauthorized: { level: 'warn', message: 'mcp server needs authorization' },
  closed: { level: 'info', message: 'mcp server closed' },
};

/** The mutable state of one connection, shared by the parts that make it up. */
export class McpConnectionState {
  status: McpServerStatus = 'connected';
  failure: string | undefined;
  failureKind: McpFailureKind | undefined;
  /** Set once the start listed the tools: before that, a failure is reported by the start itself. */
  started = false;
  /** Set by `close()` and by a failed start: what happens after is not the server going away. */
  closedByUs = false;
  /** The offered tools by name (empty while not connected). */
  tools = new Map<string, McpToolDefinition>();
  withheld: McpWithheldTool[] = [];
  /** Process id of a stdio server while it runs. */
  pid: number | undefined;

  constructor(
    private readonly server: string,
    private readonly log: Logger,
    private readonly owner: { onUnavailable?: ((reason: string, kind: McpFailureKind) => void) | undefined },
  ) {}

  /** Leaves `connected` for good (later calls do nothing): logs it and tells the owner, unless it never started or was closed. */
  becomeUnavailable(kind: McpFailureKind, reason: string): void {
    if (this.status !== 'connected') return;
    this.status = kind === 'unauthorized' ? 'unauthorized' : 'unavailable';
    this.failure = reason;
    this.failureKind = kind;
    this.tools = new Map();
    const line = TRANSITION_LOG[kind];
    this.log[line.level]({ reason, kind }, line.message);
    if (this.started && kind !== 'closed' && !this.closedByUs) this.owner.onUnavailable?.(reason, kind);
  }

  /** The failure of any request while not connected. */
  notConnected(): McpRequestFailure {
    return {
      ok: false,
      code: this.status === 'unauthorized' ? 'unauthorized' : 'unavailable',
      message: this.failure ?? `MCP server "${this.server}" is unavailable`,
    };
  }
}
