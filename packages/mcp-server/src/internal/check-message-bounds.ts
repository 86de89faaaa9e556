// The shape bounds of a JSON-RPC message, checked on the body's text before it is parsed and before any schema
// runs. Parsing alone is not cheap: `JSON.parse` of a `_meta` with 250,000 keys takes most of a second, and the
// SDK's schemas then walk `_meta` and `params` several times, recursively (one nested 5,000 levels overflows the
// stack). So the text is scanned once, without recursion, stopping at the first bound passed: a message past a bound
// is refused at once, with a message naming the bound, whatever its size up to the body limit.

/** The bounds of one message, of its `params` (or a response's `result`) and of their `_meta`. */
export interface MessageBounds {
  /** Keys and array items in `_meta`, at every depth. */
  metaEntries: number;
  /** Nesting of objects and arrays inside `_meta` (`_meta` itself is depth 1). */
  metaDepth: number;
  /** `_meta` as sent, in bytes. */
  metaBytes: number;
  /** Keys and array items in `params` (or `result`), at every depth, `_meta` included. */
  paramsEntries: number;
  /** Nesting of objects and arrays inside `params` (or `result`; itself depth 1). */
  paramsDepth: number;
}

/**
 * The default bounds: far above what a client sends (a `_meta` holds a progress token, trace context, the
 * 2026-07-28 envelope), far below what stalls a process.
 */
export const DEFAULT_MESSAGE_BOUNDS: MessageBounds = { metaEntries: 1_000, metaDepth: 16, metaBytes: 64 * 1024, paramsEntries: 50_000, paramsDepth: 64 };

/** Room for a message's own fields (jsonrpc, id, method, params) above the bounds of its params. */
const MESSAGE_FIELDS = 16;

/** A part of a message whose size is bounded: the message, its params (or result), their `_meta`. */
interface Scope {
  name: string;
  maxEntries: number;
  maxDepth: number;
  maxBytes: number | undefined;
  entries: number;
  /** Absolute depth of the scope's own container. */
  baseDepth: number;
  /** Offset of the scope's opening bracket. */
  start: number;
}

/** An object or array being scanned. */
interface Frame {
  kind: 'object' | 'array';
  depth: number;
  /** The scopes this frame lies in, innermost first (the first is the frame's own when it opened one). */
  scopes: Scope[];
  role: 'batch' | 'message' | 'params' | 'other';
  /** The last key read, in an object. */
  key: string | undefined;
  /** In an object: the next string is a key. In an array: the next value is a new item. */
  awaiting: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * The bound a JSON-RPC body (one message or a batch, as text) passes, named for an error message; undefined when
 * it keeps within every bound. Text that is not JSON passes (its parse fails next, with the parser's message).
 */
export function checkMessageBounds(text: string, bounds: MessageBounds = DEFAULT_MESSAGE_BOUNDS): string | undefined {
  const stack: Frame[] = [];
  const count = (frame: Frame | undefined): string | undefined => {
    if (frame === undefined) return undefined;
    for (const scope of frame.scopes) {
      scope.entries += 1;
      if (scope.entries > scope.maxEntries) return `${scope.name} has more than ${scope.maxEntries} keys and items (the limit)`;
    }
    return undefined;
  };
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (isSpace(code) || code === COLON) continue;
    const top = stack.at(-1);
    if (code === QUOTE) {
      const end = stringEnd(text, index);
      if (end < 0) return undefined;
      if (top?.kind === 'object' && top.awaiting) {
        const raw = text.slice(index + 1, end);
        top.key = raw.includes('\\') ? decodeKey(raw) : raw;
        top.awaiting = false;
        const passed = count(top);
        if (passed !== undefined) return passed;
      } else if (top?.kind === 'array' && top.awaiting) {
        top.awaiting = false;
        const passed = count(top);
        if (passed !== undefined) return passed;
      }
      index = end;
      continue;
    }
    if (code === COMMA) {
      if (top !== undefined) top.awaiting = true;
      continue;
    }
    if (code === 0x7d || code === 0x5d) {
      // `}` or `]`: a `_meta` that closes is measured in bytes as sent.
      const closed = stack.pop();
      const own = closed?.scopes[0];
      if (closed !== undefined && own !== undefined && own.baseDepth === closed.depth && own.maxBytes !== undefined) {
        const bytes = Buffer.byteLength(text.slice(own.start, index + 1), 'utf8');
        if (bytes > own.maxBytes) return `${own.name} is ${bytes} bytes; the limit is ${own.maxBytes}`;
      }
      continue;
    }
    // A value starts: in an array it is a new item.
    if (top?.kind === 'array' && top.awaiting) {
      top.awaiting = false;
      const passed = count(top);
      if (passed !== undefined) return passed;
    }
    if (code !== 0x7b && code !== 0x5b) continue;
    // `{` or `[`: a new frame, in its parent's scopes and perhaps one of its own.
    const frame = open(top, code === 0x7b ? 'object' : 'array', index, bounds);
    for (const scope of frame.scopes) {
      if (frame.depth - scope.baseDepth + 1 > scope.maxDepth) return `${scope.name} is nested more than ${scope.maxDepth} levels deep (the limit)`;
    }
    stack.push(frame);
  }
  return undefined;
}

/** The frame a bracket at `start` opens inside `parent`, with the scope it starts when it is a message, params or `_meta`. */
function open(parent: Frame | undefined, kind: Frame['kind'], start: number, bounds: MessageBounds): Frame {
  const depth = (parent?.depth ?? 0) + 1;
  const frame: Frame = { kind, depth, scopes: parent?.scopes ?? [], role: 'other', key: undefined, awaiting: true };
  const scope = (name: string, maxEntries: number, maxDepth: number, maxBytes?: number) => {
    frame.scopes = [{ name, maxEntries, maxDepth, maxBytes, entries: 0, baseDepth: depth, start }, ...frame.scopes];
  };
  if (kind === 'array' && parent === undefined) frame.role = 'batch';
  else if (kind === 'object' && (parent === undefined || parent.role === 'batch')) {
    frame.role = 'message';
    scope('the message', bounds.paramsEntries + MESSAGE_FIELDS, bounds.paramsDepth + 1);
  } else if (parent?.role === 'message' && (parent.key === 'params' || parent.key === 'result')) {
    frame.role = 'params';
    scope(parent.key, bounds.paramsEntries, bounds.paramsDepth);
  } else if (parent?.role === 'params' && parent.kind === 'object' && parent.key === '_meta') {
    scope(`${parent.scopes[0]!.name}._meta`, bounds.metaEntries, bounds.metaDepth, bounds.metaBytes);
  }
  return frame;
}

/** Index of the quote closing the string that opens at `start`, or -1 when it never closes. */
function stringEnd(text: string, start: number): number {
  let at = start;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return at;
  }
}

/** A key written with escapes (`"\u005fmeta"` is `_meta` to the parser too). */
function decodeKey(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
