// Makes text from tool authors (possibly untrusted MCP servers) safe to put into a prompt.

// Any whitespace, including line and paragraph separators, collapses to one space.
const WHITESPACE = /[\s\p{Z}]+/gu;
// Controls (C0, DEL, C1), format characters (bidi overrides and isolates, zero-width characters, the
// invisible "tag" block used for ASCII smuggling, soft hyphens), private-use, unassigned and lone surrogates.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}]/gu;

/** Options for `sanitizeText`. */
export interface SanitizeTextOptions {
  /** Maximum length in characters (code points), the ellipsis included. */
  maxLength: number;
}

/**
 * Collapses whitespace, strips control, format (bidi, zero-width, tag) and unassigned characters, and cuts the
 * text to `maxLength` code points (at a word boundary where one is near, ending in `…`).
 */
export function sanitizeText(text: string, options: SanitizeTextOptions): string {
  const clean = text
    .normalize('NFC')
    .replace(WHITESPACE, ' ')
    .replace(INVISIBLE, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  return truncateCodePoints(clean, options.maxLength);
}

/** Cuts `text` to at most `maxLength` code points, ending in `…` when cut. */
export function truncateCodePoints(text: string, maxLength: number): string {
  const chars = Array.from(text);
  if (chars.length <= maxLength) return text;
  if (maxLength < 1) return '';
  let cut = chars.slice(0, maxLength - 1).join('');
  // Prefer a word boundary when it costs less than a fifth of the room.
  const lastSpace = cut.lastIndexOf(' ');
  if (lastSpace > 0 && Array.from(cut.slice(lastSpace)).length <= Math.floor(maxLength / 5)) {
    cut = cut.slice(0, lastSpace);
  }
  return `${cut.trimEnd()}…`;
}
