// The last lines a child wrote to stderr, bounded in lines and bytes, redacted as they are completed: what a
// failure reason quotes ("Please set SLACK_BOT_TOKEN") without keeping or repeating everything it printed.

/** A bounded, redacted tail of a stream of text. */
export interface StderrTail {
  push(chunk: string): void;
  /** Complete lines so far plus the unfinished one, oldest first. */
  lines(): string[];
}

/** Creates a tail keeping at most `maxLines` lines and `maxBytes` characters (a longer line keeps its end). */
export function createStderrTail(options: { maxLines: number; maxBytes: number; redact: (text: string) => string }): StderrTail {
  const kept: string[] = [];
  let keptBytes = 0;
  let partial = '';

  const keep = (line: string) => {
    const trimmed = line.replace(/\r$/, '');
    if (trimmed.trim() === '') return;
    const redacted = options.redact(trimmed);
    const bounded = redacted.length > options.maxBytes ? `…${redacted.slice(redacted.length - options.maxBytes + 1)}` : redacted;
    kept.push(bounded);
    keptBytes += bounded.length;
    while (kept.length > options.maxLines || keptBytes > options.maxBytes) keptBytes -= kept.shift()!.length;
  };

  return {
    push(chunk) {
      const pieces = (partial + chunk).split('\n');
      partial = pieces.pop() ?? '';
      // An endless line without a newline must not grow without bound.
      if (partial.length > options.maxBytes * 2) partial = partial.slice(partial.length - options.maxBytes);
      for (const piece of pieces) keep(piece);
    },
    lines() {
      if (partial.trim() === '') return [...kept];
      const last = options.redact(partial).slice(-options.maxBytes);
      const out = [...kept, last];
      let bytes = out.reduce((sum, line) => sum + line.length, 0);
      while (out.length > options.maxLines || (bytes > options.maxBytes && out.length > 1)) bytes -= out.shift()!.length;
      return out;
    },
  };
}
