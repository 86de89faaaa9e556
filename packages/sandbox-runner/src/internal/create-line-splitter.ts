// Splits a byte stream into newline-terminated lines without ever buffering more than `maxLineBytes`.

/** Options of `createLineSplitter`. */
export interface LineSplitterOptions {
  /** The longest line accepted, in bytes, newline excluded. */
  maxLineBytes: number;
  /** A complete line, decoded, and its length in bytes. */
  onLine(line: string, bytes: number): void;
  /** Called once when a line grows past `maxLineBytes`; the splitter ignores all input afterwards. */
  onOverflow(bufferedBytes: number): void;
}

/** A push-based line splitter. */
export interface LineSplitter {
  push(chunk: Buffer): void;
  /** Bytes received after the last newline (a trailing partial line). */
  readonly pendingBytes: number;
}

/**
 * Creates a splitter that decodes each complete line as UTF-8 and hands it to `onLine`.
 *
 * Self-contained (no imports, no outer names, and no nested named functions, which a bundler may wrap in a
 * naming helper): the child-process host's worker embeds its source text with String(createLineSplitter).
 */
export function createLineSplitter(options: LineSplitterOptions): LineSplitter {
  let parts: Buffer[] = [];
  let pendingBytes = 0;
  let stopped = false;

  return {
    get pendingBytes() {
      return pendingBytes;
    },
    push(chunk: Buffer): void {
      let start = 0;
      while (!stopped) {
        const newline = chunk.indexOf(10, start);
        const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
        const lineBytes = pendingBytes + piece.length;
        if (lineBytes > options.maxLineBytes) {
          stopped = true;
          parts = [];
          options.onOverflow(lineBytes);
          return;
        }
        if (newline === -1) {
          if (piece.length > 0) parts.push(piece);
          pendingBytes = lineBytes;
          return;
        }
        const line = parts.length === 0 ? piece : Buffer.concat([...parts, piece], lineBytes);
        parts = [];
        pendingBytes = 0;
        start = newline + 1;
        options.onLine(line.toString('utf8'), lineBytes);
      }
    },
  };
}
