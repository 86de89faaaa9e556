import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema } from '@tool-search/catalog';
import pino, { type Logger } from 'pino';
import type { McpServerConfig } from './schemas.js';

/** One tool as an MCP server lists it (only the fields we read). */
export interface McpToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
}

/** A `tools/call` outcome, as a value: the server's result, or why there is none. */
export type McpCallResult =
  | { ok: true; result: unknown; isError: boolean }
  | { ok: false; code: 'unavailable' | 'timeout' | 'failed'; message: string };

/** A live connection to one MCP server. Never throws for an unreachable or dead server: it reports it. */
export interface McpServerConnection {
  readonly name: string;
  /** `connected` while usable; `unavailable` once it failed to start, exited or closed, or (HTTP) stopped answering. */
  readonly status: 'connected' | 'unavailable';
  /** Why the server is unavailable. */
  readonly failure: string | undefined;
  /** The tools currently listed (empty while unavailable). */
  tools(): McpToolDefinition[];
  /** Calls a tool with a timeout; fails fast (naming the server) when the server is unavailable. */
  callTool(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<McpCallResult>;
  close(): Promise<void>;
}

/** Options for `connectMcpServer`. */
export interface ConnectMcpServerOptions {
  logger?: Logger;
  /** Timeout of every MCP request (connect, list, call). Default 30,000 ms. */
  requestTimeoutMs?: number;
  /** Aborts connecting: the connect fails at once and the child or transport is closed. */
  signal?: AbortSignal;
  /** Called after a `notifications/tools/list_changed` re-list, with what changed. */
  onToolsChanged?: (change: { added: McpToolDefinition[]; removed: string[] }) => void;
  /**
   * Called once when a connected server exits or closes (stdio), or stops answering over HTTP: a request or
   * stream fails below JSON-RPC (connection refused or reset, HTTP 404 for an ended session, any other HTTP
   * error status) and one `ping` right after fails the same way.
   */
  onUnavailable?: (reason: string) => void;
}

const MAX_LIST_PAGES = 200;
/** Ceiling of the `ping` that decides whether an HTTP server that failed a request is still there. */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * Connects to one MCP server (stdio child or Streamable HTTP), lists its tools across every page and keeps
 * the list current on `notifications/tools/list_changed`. A server that fails to start comes back
 * `unavailable` with the reason rather than throwing.
 */
export async function connectMcpServer(config: McpServerConfig, options: ConnectMcpServerOptions = {}): Promise<McpServerConnection> {
  const log = (options.logger ?? pino({ level: 'silent' })).child({ component: 'mcp', server: config.name });
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  let status: 'connected' | 'unavailable' = 'connected';
  let failure: string | undefined;
  let closedByUs = false;
  let current = new Map<string, McpToolDefinition>();

  const client = new Client({ name: 'tool-search-gateway', version: '0.0.0' }, { capabilities: {} });
  const transport: Transport =
    config.transport === 'stdio'
      ? new StdioClientTransport({
          command: config.command,
          args: config.args ?? [],
          env: { ...getDefaultEnvironment(), ...(config.env ?? {}) },
          ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
          stderr: 'pipe',
        })
      : new StreamableHTTPClientTransport(new URL(config.url), {
          requestInit: config.headers === undefined ? {} : { headers: config.headers },
        });
  if (transport instanceof StdioClientTransport) {
    // Drain the server's stderr (an undrained pipe would block it) into debug logs, line-capped.
    transport.stderr?.on('data', (chunk: Buffer) => log.debug({ stderr: chunk.toString('utf8').slice(0, 2_000) }, 'mcp server stderr'));
  }

  const markUnavailable = (reason: string): void => {
    if (status === 'unavailable') return;
    status = 'unavailable';
    failure = reason;
    current = new Map();
    log.warn({ reason }, 'mcp server unavailable');
    if (!closedByUs) options.onUnavailable?.(reason);
  };

  // While connecting, a close is reported by the failed connect itself (as "failed to start").
  let started = false;
  client.onclose = () => {
    if (started) markUnavailable(closedByUs ? 'closed by the session' : `MCP server "${config.name}" exited or closed its connection`);
  };
  // Over HTTP nothing closes when the server dies or forgets the session: requests fail (fetch errors, HTTP
  // 404) and streams drop, each reported through `onerror` or a rejected request. Any such failure is checked
  // with one `ping`; if that fails below JSON-RPC too, the server is unavailable and the client is closed, which
  // also fails every request still waiting for an answer. A JSON-RPC answer (even an error) or a ping timeout
  // means the server is still there. No reconnect: like a stdio server that exited, it stays unavailable.
  let probing: Promise<void> | undefined;
  const confirmHttpServerAlive = (): Promise<void> => {
    if (config.transport !== 'http' || !started || status !== 'connected' || closedByUs) return Promise.resolve();
    probing ??= client
      .ping({ timeout: Math.min(requestTimeoutMs, PROBE_TIMEOUT_MS) })
      .then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof McpError || status !== 'connected' || closedByUs) return;
          markUnavailable(describeHttpFailure(config.name, error));
          void client.close().catch(() => undefined);
        },
      )
      .finally(() => {
        probing = undefined;
      });
    return probing;
  };
  client.onerror = (error) => {
    log.debug({ err: error.message }, 'mcp transport error');
    void confirmHttpServerAlive();
  };

  const listAll = async (): Promise<Map<string, McpToolDefinition>> => {
    const tools = new Map<string, McpToolDefinition>();
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: requestTimeoutMs,
        ...(options.signal === undefined || started ? {} : { signal: options.signal }),
      });
      for (const tool of result.tools) {
        const definition: McpToolDefinition = {
          name: tool.name,
          description: tool.description ?? '',
          inputSchema: tool.inputSchema as JsonSchema,
        };
        if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema as JsonSchema;
        tools.set(tool.name, definition);
      }
      cursor = result.nextCursor;
      if (cursor === undefined || seenCursors.has(cursor)) break;
      seenCursors.add(cursor);
    }
    return tools;
  };

  // Re-lists are serialised: a burst of notifications yields one consistent diff each.
  let refreshing: Promise<void> = Promise.resolve();
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    refreshing = refreshing.then(async () => {
      // Before the first full list, that list is what counts; after a close there is nothing to update.
      if (!started || status !== 'connected') return;
      try {
        const next = await listAll();
        const added: McpToolDefinition[] = [];
        const removed: string[] = [];
        for (const [name, definition] of current) {
          const replacement = next.get(name);
          if (replacement === undefined || JSON.stringify(replacement) !== JSON.stringify(definition)) removed.push(name);
        }
        for (const [name, definition] of next) {
          const previous = current.get(name);
          if (previous === undefined || JSON.stringify(previous) !== JSON.stringify(definition)) added.push(definition);
        }
        current = next;
        log.info({ added: added.length, removed: removed.length }, 'mcp tool list changed');
        if (added.length > 0 || removed.length > 0) options.onToolsChanged?.({ added, removed });
      } catch (error) {
        log.warn({ err: error instanceof Error ? error.message : String(error) }, 'mcp re-list failed');
      }
    });
    return refreshing;
  });

  try {
    await client.connect(transport, { timeout: requestTimeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) });
    current = await listAll();
    started = true;
    log.info({ tools: current.size }, 'mcp server connected');
  } catch (error) {
    const reason = `MCP server "${config.name}" failed to start: ${error instanceof Error ? error.message : String(error)}`;
    markUnavailable(reason);
    closedByUs = true;
    await client.close().catch(() => undefined);
  }

  return {
    name: config.name,
    get status() {
      return status;
    },
    get failure() {
      return failure;
    },
    tools: () => [...current.values()],
    async callTool(name, args, callOptions = {}) {
      if (status !== 'connected') {
        return { ok: false, code: 'unavailable', message: failure ?? `MCP server "${config.name}" is unavailable` };
      }
      const timeoutMs = callOptions.timeoutMs ?? requestTimeoutMs;
      try {
        const result = await client.callTool({ name, arguments: args }, undefined, {
          timeout: timeoutMs,
          ...(callOptions.signal === undefined ? {} : { signal: callOptions.signal }),
        });
        return { ok: true, result: simplifyCallResult(result), isError: result.isError === true };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // A failure below JSON-RPC (not a server's error answer, not our own abort) may mean the server is gone.
        if (status === 'connected' && !(error instanceof McpError) && callOptions.signal?.aborted !== true) await confirmHttpServerAlive();
        if (status !== 'connected') {
          return { ok: false, code: 'unavailable', message: `MCP server "${config.name}" became unavailable during the call: ${failure ?? message}` };
        }
        if (/timed out|timeout/i.test(message)) {
          return { ok: false, code: 'timeout', message: `MCP server "${config.name}" did not answer tools/call ${name} within ${timeoutMs} ms` };
        }
        return { ok: false, code: 'failed', message: `MCP server "${config.name}" failed tools/call ${name}: ${message}` };
      }
    },
    async close() {
      closedByUs = true;
      await client.close().catch(() => undefined);
      markUnavailable('closed by the session');
    },
  };
}

/** Why an HTTP MCP server counts as gone, from the error of the request that confirmed it (no payloads). */
function describeHttpFailure(server: string, error: unknown): string {
  if (error instanceof StreamableHTTPError && error.code === 404) return `MCP server "${server}" ended the session (HTTP 404)`;
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0) return `MCP server "${server}" answered HTTP ${error.code}`;
  // fetch() rejects with "fetch failed"; the socket-level reason (e.g. "connect ECONNREFUSED …") is its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  const detail = cause ?? (error instanceof Error ? error.message : String(error));
  return `MCP server "${server}" is unreachable: ${detail.slice(0, 200)}`;
}

/** A call result as the model should see it: structured content when given, else the text, else the content list. */
function simplifyCallResult(result: Record<string, unknown>): unknown {
  if (result['structuredContent'] !== undefined) return result['structuredContent'];
  const content = result['content'];
  if (Array.isArray(content)) {
    const texts = content.filter((part): part is { type: 'text'; text: string } => part?.type === 'text' && typeof part.text === 'string');
    if (texts.length === content.length) return texts.map((part) => part.text).join('\n');
    return content;
  }
  return result['toolResult'] ?? null;
}
