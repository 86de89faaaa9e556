// Small text helpers shared by the directory and the name rules. Platform neutral (TextEncoder is global
// in Node, browsers and workers).

import { sanitizeText } from '@tool-search/catalog';

const encoder = new TextEncoder();

/** UTF-8 byte length: what providers bill and what the budgets count. */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/**
 * One line of prompt-safe text: the catalog's sanitiser (controls, bidi, zero-width, tag, private-use and
 * unassigned characters removed, whitespace collapsed), without a length cap. One sanitiser for every prompt
 * text: a name or description in the directory is cleaned exactly as in a search hit.
 */
export function collapseText(text: string): string {
  return sanitizeText(text, { maxLength: Number.MAX_SAFE_INTEGER });
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
