// The read side of a stdio connection, one message per line, with a limit per message. The SDK's own buffer keeps
// a line whole until its newline and, past its `maxBufferSize` (10 MiB), throws: its transport then closes the
// connection, so one oversized result broke the server for every session. Here a line past the limit is never
// buffered (only its first and last bytes are kept, to read the response's id), and it becomes a JSON-RPC error
// answer to the one request it answered: that call fails with `result_too_large`, the connection stays up.
import { deserializeMessage } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/** The JSON-RPC error code of an answer discarded for its size (server-error range, not one the SDK uses). */
export const RESULT_TOO_LARGE_CODE = -32050;
/** What a discarded answer's error carries in `data`. */
export interface ResultTooLargeData {
  reason: 'result_too_large';
  bytes: number;
  limit: number;
}

/** Default limit of one message from a stdio server: under the SDK's 10 MiB buffer, over any sane tool result. */
export const DEFAULT_MAX_RESULT_BYTES = 8 * 1024 * 1024;
const KEPT_BYTES = 1024;

interface Oversized {
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

/** Same interface as the SDK's `ReadBuffer` (`append`, `readMessage`, `clear`), bounded per line. */
export class BoundedReadBuffer {
  private readonly lines: Array<Buffer | Oversized> = [];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding: Oversized | undefined;

  /** `onDropped` hears of an oversized line that answered no request (a notification, a request of the server). */
  constructor(
    private readonly maxLineBytes: number,
    private readonly onDropped: (bytes: number) => void = () => undefined,
  ) {}

  append(chunk: Buffer): void {
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) return;
      if (this.discarding !== undefined) this.lines.push(this.discarding);
      else this.lines.push(this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending));
      this.discarding = undefined;
      this.pending = [];
      this.pendingBytes = 0;
      start = newline + 1;
    }
  }

  readMessage(): JSONRPCMessage | null {
    for (let line = this.lines.shift(); line !== undefined; line = this.lines.shift()) {
      if (Buffer.isBuffer(line)) {
        const text = line.toString('utf8').replace(/\r$/, '');
        if (text.trim() === '') continue;
        return deserializeMessage(text);
      }
      const answered = tooLargeAnswer(line, this.maxLineBytes);
      if (answered !== undefined) return answered;
      this.onDropped(line.bytes);
    }
    return null;
  }

  clear(): void {
    this.lines.length = 0;
    this.pending = [];
    this.pendingBytes = 0;
    this.discarding = undefined;
  }

  /** Adds a piece of the current line: kept while the line fits, else only its first and last bytes. */
  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.discarding === undefined && this.pendingBytes + piece.length <= this.maxLineBytes) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      return;
    }
    if (this.discarding === undefined) {
      const kept = Buffer.concat(this.pending);
      this.discarding = { bytes: this.pendingBytes, head: Buffer.from(kept.subarray(0, KEPT_BYTES)), tail: Buffer.alloc(0) };
      this.pending = [];
      this.pendingBytes = 0;
      if (this.discarding.head.length < KEPT_BYTES) this.discarding.head = Buffer.concat([this.discarding.head, piece.subarray(0, KEPT_BYTES - this.discarding.head.length)]);
    }
    this.discarding.bytes += piece.length;
    const tail = Buffer.concat([this.discarding.tail, piece.subarray(Math.max(0, piece.length - KEPT_BYTES))]);
    this.discarding.tail = Buffer.from(tail.subarray(Math.max(0, tail.length - KEPT_BYTES)));
  }
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,200}")`;
/** A response starts with its result or error (after `jsonrpc` and `id`, in whatever order a server writes them). */
const RESPONSE_START = /^\s*\{\s*(?:"(?:jsonrpc|id)"\s*:\s*(?:-?\d+|"(?:[^"\\]|\\.){0,200}")\s*,\s*){0,2}"(?:result|error)"\s*:/;
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

/** The JSON-RPC error answer standing for a discarded response, or undefined when the line answered no request. */
function tooLargeAnswer(line: Oversized, limit: number): JSONRPCMessage | undefined {
  const head = line.head.toString('utf8');
  if (!RESPONSE_START.test(head)) return undefined;
  const raw = ID_FIRST.exec(head)?.[1] ?? ID_LAST.exec(line.tail.toString('utf8'))?.[1];
  if (raw === undefined) return undefined;
  const id = JSON.parse(raw) as string | number;
  const data: ResultTooLargeData = { reason: 'result_too_large', bytes: line.bytes, limit };
  return {
    jsonrpc: '2.0',
    id,
    error: { code: RESULT_TOO_LARGE_CODE, message: `the answer was ${line.bytes} bytes, over the limit of ${limit} bytes (maxResultBytes); it was discarded`, data },
  } as JSONRPCMessage;
}
