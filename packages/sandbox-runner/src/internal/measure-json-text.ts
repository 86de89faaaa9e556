// Sizes up JSON text without parsing it: how many array elements and object members it holds and how deep it
// nests. JSON.parse cost grows with the number of members (bench/RESULTS.md), so a value from the sandbox is
// measured first and parsed only when it is within the caps. Strings are skipped with indexOf, and the walk stops
// at the first cap it passes, so refusing a hostile value costs a fraction of parsing it.
//
// The function is self-contained (no imports, no outer names): the Node child's bootstrap and the QuickJS
// worker embed its source text with String(measureJsonText), so every side counts exactly the same way.

/** `measureJsonText` verdicts. */
export const JSON_TEXT_OK = 0;
export const JSON_TEXT_TOO_MANY_MEMBERS = 1;
export const JSON_TEXT_TOO_DEEP = 2;
export const JSON_TEXT_MALFORMED = 3;

/**
 * Counts array elements plus object members in `text` (outside strings) and its nesting depth. Returns 0 when
 * both are within `maxMembers` / `maxDepth`, 1 for too many members, 2 for too deep, 3 for an unterminated
 * string. It is not a validator: JSON.parse still decides whether the text is JSON. `text` may also be its
 * UTF-8 bytes, which count the same: every character the walk looks at is ASCII, and no byte of a multi-byte
 * character is (the QuickJS worker measures the realm's text where QuickJS wrote it, without decoding it).
 */
export function measureJsonText(text: string | Uint8Array, maxMembers: number, maxDepth: number): number {
  const bytes = typeof text === 'string' ? undefined : text;
  const chars = text as string;
  const length = text.length;
  let members = 0;
  let depth = 0;
  // Just after `[` or `{`: the next token, if any, is the container's first element or member.
  let expectFirst = false;
  let index = 0;
  while (index < length) {
    const code = bytes === undefined ? chars.charCodeAt(index) : (bytes[index] as number);
    if (code === 34) {
      let end = index;
      for (;;) {
        end = bytes === undefined ? chars.indexOf('"', end + 1) : bytes.indexOf(34, end + 1);
        if (end === -1) return 3;
        let backslashes = 0;
        for (let back = end - 1; (bytes === undefined ? chars.charCodeAt(back) : bytes[back]) === 92; back -= 1) backslashes += 1;
        if ((backslashes & 1) === 0) break;
      }
      if (expectFirst) {
        members += 1;
        expectFirst = false;
      }
      index = end + 1;
      continue;
    }
    if (code === 123 || code === 91) {
      if (expectFirst) members += 1;
      depth += 1;
      if (depth > maxDepth) return 2;
      expectFirst = true;
    } else if (code === 125 || code === 93) {
      depth -= 1;
      expectFirst = false;
    } else if (code === 44) {
      members += 1;
    } else if (code > 32 && expectFirst) {
      members += 1;
      expectFirst = false;
    }
    if (members > maxMembers) return 1;
    index += 1;
  }
  return 0;
}

/** The deepest nesting a result or call argument may have when it crosses from the sandbox. */
export const MAX_JSON_DEPTH = 256;

/**
 * The most array elements plus object members a result or the arguments of one call may hold. Parsing 1 MiB at
 * this cap still costs the parent's main thread milliseconds (bench/RESULTS.md); a real tool call holds far fewer.
 */
export const MAX_JSON_MEMBERS = 10_000;
