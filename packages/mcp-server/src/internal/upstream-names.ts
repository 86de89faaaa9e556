// How the front names what several upstream servers offer under one MCP session: a name (a prompt) or URI (a
// resource) is kept as the server gives it while it is unique among the servers the session sees; one that two
// servers share is qualified with its server, the same way direct mode qualifies a shared tool name. The
// qualified forms are always accepted.

/** Separates the server from a prompt name in a qualified prompt name (as `<owner>__<name>` for tools). */
export const PROMPT_NAME_SEPARATOR = '__';
/** The scheme of a qualified resource URI: `tool-search://<server>/<the upstream URI, percent-encoded>`. */
export const QUALIFIED_URI_PREFIX = 'tool-search://';
/** The `_meta` key that names the upstream server of a listed resource, template or prompt. */
export const SERVER_META_KEY = 'tool-search/server';

export const qualifyPromptName = (server: string, name: string) => `${server}${PROMPT_NAME_SEPARATOR}${name}`;
export const qualifyUri = (server: string, uri: string) => `${QUALIFIED_URI_PREFIX}${server}/${encodeURIComponent(uri)}`;

/** The server and upstream URI of a qualified URI, or undefined when `uri` is not one. */
export function parseQualifiedUri(uri: string): { server: string; uri: string } | undefined {
  if (!uri.startsWith(QUALIFIED_URI_PREFIX)) return undefined;
  const rest = uri.slice(QUALIFIED_URI_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  try {
    return { server: rest.slice(0, slash), uri: decodeURIComponent(rest.slice(slash + 1)) };
  } catch {
    return undefined;
  }
}

/** Keys held by more than one server, from `[server, key]` pairs. */
export function sharedKeys(pairs: Iterable<readonly [string, string]>): Set<string> {
  const owners = new Map<string, Set<string>>();
  for (const [server, key] of pairs) {
    const set = owners.get(key) ?? new Set<string>();
    set.add(server);
    owners.set(key, set);
  }
  return new Set([...owners].filter(([, servers]) => servers.size > 1).map(([key]) => key));
}
