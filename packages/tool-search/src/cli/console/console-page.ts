// The console's one page: its HTML here, its script and style as checked files in page/ (inlined verbatim by
// scripts/generate-console-sources.ts into console-page-sources.ts). No framework and no build step of its own
// (why: the README, "console"). The CSP admits exactly the inlined script and style, by their sha256: no
// 'unsafe-inline', so nothing injected into the page would run.
import { createHash } from 'node:crypto';
import { CONSOLE_SCRIPT, CONSOLE_STYLE } from './console-page-sources.js';

/** `text` as the body of an inline `<tag>` element: refused when it would end the element early. */
function inlineBody(text: string, tag: 'script' | 'style'): string {
  if (text.toLowerCase().includes(`</${tag}`)) throw new Error(`the console's inline ${tag} holds "</${tag}", which would end the element early`);
  return text;
}

/** A CSP source expression for an inline element whose text is `text`: `'sha256-<base64>'`. */
export function cspHashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The HTML of the console, served at `/`. */
export const CONSOLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>tool-search console</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${inlineBody(CONSOLE_STYLE, 'style')}</style>
</head>
<body>
<header><h1>tool-search console</h1>
<nav id="nav">
  <button data-view="servers">Servers</button><button data-view="catalog">Catalog</button><button data-view="search">Search</button>
  <button data-view="policy">Policy</button><button data-view="activity">Activity</button><button data-view="bytes">Bytes</button>
</nav></header>
<main id="main"></main>
<script type="module">${inlineBody(CONSOLE_SCRIPT, 'script')}</script>
</body>
</html>
`;

/**
 * The page's Content-Security-Policy: its one script and one style by hash, API calls to itself, downloads and
 * images from blob: URLs (the activity export), and nothing else (no plugins, no <base>, no framing).
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  `script-src ${cspHashSource(CONSOLE_SCRIPT)}`,
  `style-src ${cspHashSource(CONSOLE_STYLE)}`,
  "img-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');
