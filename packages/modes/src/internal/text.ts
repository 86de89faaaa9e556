// Small text helpers shared by the directory and the name rules. Platform neutral (TextEncoder is global
// in Node, browsers and workers).

const encoder = new TextEncoder();

/** UTF-8 byte length: what providers bill and what the budgets count. */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

// C0/C1 controls, zero-width and bidi controls, line/paragraph separators: nothing that could break a line
// or hide text in a prompt survives.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;

/** One line of plain text: control and invisible characters become spaces, whitespace runs collapse. */
export function collapseText(text: string): string {
  return text.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
}

/** At most `maxChars` code points; a cut text ends with `…` (counted in `maxChars`). */
export function cutText(text: string, maxChars: number): string {
  const codePoints = Array.from(text);
  if (codePoints.length <= maxChars) return text;
  if (maxChars <= 1) return '';
  return `${codePoints.slice(0, maxChars - 1).join('').trimEnd()}…`;
}

/** FNV-1a 32-bit as 8 hex digits: a short, stable tag for rewritten names. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Code-point order comparison: locale independent, so output is byte-stable on every machine. */
export function compareStrings(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
