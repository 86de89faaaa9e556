// The stdio transport of a front: the SDK's `StdioServerTransport`, guarded. A line that is not JSON, or not
// JSON-RPC, is answered with a JSON-RPC error (id null) instead of being dropped in silence; a line longer than
// the limit is discarded without being buffered and answered the same way; a second `initialize` (another
// client on the same pipe) is refused, naming the client already served. The connection stays up throughout.
// Back-pressure: no request is read while the answers the client has not read exceed `maxUnreadBytes`, or while
// `maxInFlight` requests are being answered; a client that writes without reading then blocks on its own pipe
// instead of growing this process's memory.
import { Transform, type Readable, type Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import pino, { type Logger } from 'pino';
import { createRequestLedger } from './internal/create-request-ledger.js';

/** Options of `createGuardedStdioTransport`. */
export interface GuardedStdioTransportOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** Longest accepted message (one line). Default 4 MiB. */
  maxMessageBytes?: number;
  /** Reading stops while the answers written and not yet read by the client exceed this. Default 4 MiB. */
  maxUnreadBytes?: number;
  /**
   * Reading stops while this many requests are being answered. Default 8. Nothing is read meanwhile (a cancellation
   * either): raise it for a client that keeps many long calls open at once.
   */
  maxInFlight?: number;
  logger?: Logger;
}

/** The guarded transport: an SDK `Transport` that can also drain before it closes. */
export interface GuardedStdioTransport extends Transport {
  /**
   * Stops taking requests (each new one is answered with a shutting-down error), waits up to `timeoutMs` for the
   * requests in flight, then answers each one left with a JSON-RPC error (`-32000`). Close the server after it.
   */
  drain(timeoutMs: number): Promise<{ finished: number; cut: number }>;
}

const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_UNREAD_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_IN_FLIGHT = 8;

/** Creates the guarded transport (connect a front's `server` to it). */
export function createGuardedStdioTransport(options: GuardedStdioTransportOptions = {}): GuardedStdioTransport {
  const log = (options.logger ?? pino({ level: 'silent' })).child({ pkg: 'mcp-server', component: 'stdio' });
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const reply = (id: string | number | null, code: number, message: string) => {
    // JSON-RPC answers a message whose id could not be read with id null, which the SDK's message type leaves out.
    void inner.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage).catch(() => undefined);
  };
  const limited = (options.stdin ?? process.stdin).pipe(
    createLineLimit(maxBytes, {
      onOversized: (bytes) => {
        log.warn({ bytes, limit: maxBytes }, 'stdio message too large, discarded');
        reply(null, -32600, `Request too large: a message of more than ${maxBytes} bytes was discarded (the limit is ${maxBytes} bytes)`);
      },
      // The SDK skips a line that is not JSON without a word: the client is told here instead.
      onNotJson: (error) => reply(null, -32700, `Parse error: ${error.message.slice(0, 200)}`),
    }),
  );
  const output = options.stdout ?? process.stdout;
  const inner: StdioServerTransport = new StdioServerTransport(limited, output, { maxBufferSize: maxBytes * 2 });
  let client: string | undefined;
  const ledger = createRequestLedger((id, error) => {
    void inner.send({ jsonrpc: '2.0', id, error }).catch(() => undefined);
    regulate();
  });
  const backPressure = createBackPressure({ input: limited, output, inFlight: () => ledger.inFlight.size, maxUnread: options.maxUnreadBytes ?? DEFAULT_MAX_UNREAD_BYTES, maxInFlight: options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT, log });
  const regulate = backPressure.regulate;
  output.on('drain', regulate);

  const guarded: GuardedStdioTransport = {
    start: () => inner.start(),
    send: (message) => {
      if (!ledger.sending(message)) return Promise.resolve();
      const sent = inner.send(message);
      regulate();
      return sent;
    },
    close: () => {
      output.off('drain', regulate);
      return inner.close();
    },
    drain: (timeoutMs) => {
      const drained = ledger.drain(timeoutMs);
      backPressure.draining();
      return drained;
    },
  };
  inner.onclose = () => guarded.onclose?.();
  inner.onerror = (error) => {
    // The SDK reports a JSON line that is not JSON-RPC and drops it; the client gets told what was wrong.
    reply(null, -32600, 'Invalid Request: the message is not JSON-RPC 2.0');
    guarded.onerror?.(error);
  };
  inner.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && message.method === 'initialize' && 'id' in message) {
      if (client !== undefined) {
        reply(message.id, -32600, `Invalid Request: this tool-search server already serves a client ("${client}") on this stdio connection; start another tool-search serve for a second client`);
        return;
      }
      const info = (message.params as { clientInfo?: { name?: unknown } } | undefined)?.clientInfo;
      client = typeof info?.name === 'string' ? info.name.slice(0, 100) : 'unnamed client';
    }
    if (ledger.received(message)) guarded.onmessage?.(message);
    regulate();
  };
  return guarded;
}

/**
 * Pauses reading while the client is behind (unread answers, requests being answered), resumes after. While
 * draining, requests are refused as they are read, so the count in flight does not stop reading: every request
 * the client sent is answered before the server closes.
 */
function createBackPressure(parts: { input: Readable; output: Writable; inFlight: () => number; maxUnread: number; maxInFlight: number; log: Logger }) {
  const { input, output, log } = parts;
  let paused = false;
  let draining = false;
  const regulate = () => {
    const behind = output.writableLength > parts.maxUnread || (!draining && parts.inFlight() >= parts.maxInFlight);
    if (behind === paused) return;
    paused = behind;
    if (behind) input.pause();
    else input.resume();
    log.debug({ paused, unreadBytes: output.writableLength, inFlight: parts.inFlight() }, paused ? 'stdio reading paused' : 'stdio reading resumed');
  };
  return {
    regulate,
    /** Requests are refused from now on: reading goes on whatever is in flight. */
    draining() {
      draining = true;
      regulate();
    },
  };
}

/**
 * Passes whole lines of at most `maxBytes` that are JSON; a longer line is dropped (never buffered past the limit)
 * and reported, and so is a line that is not JSON.
 */
function createLineLimit(maxBytes: number, report: { onOversized: (bytes: number) => void; onNotJson: (error: Error) => void }): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let discarding = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let start = 0;
      for (let newline = chunk.indexOf(10, start); ; newline = chunk.indexOf(10, start)) {
        const end = newline === -1 ? chunk.length : newline;
        const piece = chunk.subarray(start, end);
        if (discarding > 0 || pendingBytes + piece.length > maxBytes) {
          discarding += (discarding === 0 ? pendingBytes : 0) + piece.length;
          pending = [];
          pendingBytes = 0;
        } else if (piece.length > 0) {
          pending.push(piece);
          pendingBytes += piece.length;
        }
        if (newline === -1) break;
        if (discarding > 0) {
          report.onOversized(discarding);
          discarding = 0;
        } else {
          const line = Buffer.concat([...pending, Buffer.from('\n')]);
          const notJson = jsonError(line);
          if (notJson === undefined) this.push(line);
          else report.onNotJson(notJson);
          pending = [];
          pendingBytes = 0;
        }
        start = newline + 1;
      }
      done();
    },
  });
}

/** Why a line is not JSON, or undefined when it is. */
function jsonError(line: Buffer): Error | undefined {
  try {
    JSON.parse(line.toString('utf8'));
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
