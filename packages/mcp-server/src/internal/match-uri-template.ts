// Does a URI fit an RFC 6570 template? Enough to route a read to the server whose template produced the URI:
// `{var}` matches one path segment, the reserved and fragment forms (`{+var}`, `{#var}`) match anything, and the
// other operators (`{/var}`, `{?var}`, `{&var}`, `{.var}`, `{;var}`) match their part when present.
// Not the SDK's `UriTemplate.match` (checked against 2.4.0): it refuses an expansion whose optional parts are empty
// (`test://x` for `test://x{?q,page}`), which RFC 6570 allows and an upstream server may list, so a read of it would
// find no server.

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;
const OPERATOR_PATTERNS: Readonly<Record<string, string>> = {
  '': '[^/?#]+',
  '+': '.*',
  '#': '(?:#.*)?',
  '.': '(?:\\.[^/?#]*)?',
  '/': '(?:/[^?#]*)?',
  ';': '(?:;[^/?#]*)?',
  '?': '(?:\\?[^#]*)?',
  '&': '(?:&[^#]*)?',
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when `uri` can be an expansion of `template`. */
export function matchUriTemplate(template: string, uri: string): boolean {
  let pattern = '^';
  let last = 0;
  for (const match of template.matchAll(EXPRESSION)) {
    pattern += escapeRegExp(template.slice(last, match.index)) + (OPERATOR_PATTERNS[match[1] ?? ''] ?? '.*');
    last = (match.index ?? 0) + match[0].length;
  }
  pattern += `${escapeRegExp(template.slice(last))}$`;
  return new RegExp(pattern).test(uri);
}
