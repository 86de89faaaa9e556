import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { StdioServerParameters } from '@modelcontextprotocol/client/stdio';
import { BoundedReadBuffer, DEFAULT_MAX_RESULT_BYTES } from './bounded-read-buffer.js';

/** Options of a `TrackedStdioClientTransport`. */
export interface TrackedStdioClientOptions {
  /** Largest message (one line) read from the server; a larger answer fails its one request. Default 8 MiB. */
  maxResultBytes?: number | undefined;
}

/**
 * The SDK's stdio transport, remembering its server's process id once spawned, and reading through a buffer bounded
 * per message. The SDK forgets the process when a client's `initialize` fails (it closes the transport without
 * waiting), so a server closed while starting would otherwise be left to exit on its own after the host is gone.
 * The SDK has no option to bound one message without closing the connection (its `ReadBuffer` throws past
 * `maxBufferSize` and the transport then closes), and no hook for another reader: its `_readBuffer` (same
 * interface: `append`, `readMessage`, `clear`) is replaced by ours, checked here so that an SDK without it fails
 * loudly instead of going unbounded.
 */
export class TrackedStdioClientTransport extends StdioClientTransport {
  /** The id of the process this transport spawned (kept after the SDK lets go of it). */
  spawnedPid: number | undefined;

  constructor(server: StdioServerParameters, options: TrackedStdioClientOptions = {}) {
    super(server);
    const sdk = this as unknown as { _readBuffer?: { append?: unknown; readMessage?: unknown } };
    if (typeof sdk._readBuffer?.append !== 'function' || typeof sdk._readBuffer.readMessage !== 'function') {
      throw new Error('the MCP SDK stdio client transport no longer has the read buffer tool-search bounds (_readBuffer); update TrackedStdioClientTransport');
    }
    const buffer = new BoundedReadBuffer(options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES, (bytes) => {
      this.onerror?.(new Error(`a message of ${bytes} bytes from the server answered no request and was over the limit: discarded`));
    });
    const readMessage = buffer.readMessage.bind(buffer);
    buffer.readMessage = () => {
      const message = readMessage();
      if (message !== null && 'id' in message && message.id !== undefined && this.unansweredProbes.delete(message.id)) this.probeAnswered = true;
      return message;
    };
    sdk._readBuffer = buffer as unknown as { append: unknown; readMessage: unknown };
  }

  /** Ids of `server/discover` probes sent and not answered yet. */
  private readonly unansweredProbes = new Set<string | number>();
  private probeAnswered = false;
  /**
   * True when the era probe went unanswered and the SDK went on with `initialize`: on stdio the SDK reads a probe's
   * timeout as a 2025-era server, but a slow 2026-07-28 server on a loaded machine times out too. Such a connect
   * says nothing about the era (it is not a verdict to keep).
   */
  probeTimedOut = false;

  override async send(message: Parameters<StdioClientTransport['send']>[0]): Promise<void> {
    if ('method' in message && 'id' in message) {
      if (message.method === 'server/discover') this.unansweredProbes.add(message.id);
      else if (message.method === 'initialize' && this.unansweredProbes.size > 0 && !this.probeAnswered) this.probeTimedOut = true;
    }
    return super.send(message);
  }

  override async start(): Promise<void> {
    const starting = super.start();
    // The SDK spawns inside `start`, synchronously: the pid is known at once, so a close that comes before the
    // process reports it spawned (a host closing during the era probe) still knows what to stop.
    this.spawnedPid = this.pid ?? undefined;
    await starting;
    this.spawnedPid ??= this.pid ?? undefined;
  }
}
