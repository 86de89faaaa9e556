// browseServer and mapServers: a reader's servers. One server's tools page by page, and the bounded server map
// (each owner with its summary and tool names) that a weak search carries instead of junk.
import { CatalogError } from '../errors.js';
import { editDistance } from '../edit-distance.js';
import { sanitizeText } from '../sanitize-text.js';
import type { BrowseOptions, BrowseResult, ServerMap, ServerMapOptions } from '../types.js';
import { buildServerMap, SERVERS_PER_PAGE, type OwnerOutline } from './build-server-map.js';
import { checkQuery, type ReaderContext } from './reader-context.js';
import { searchScoped } from './search-scoped.js';

/** Default byte budget of the server map's JSON. */
export const DEFAULT_SERVER_MAP_BYTES = 5_120;
/** Smallest byte budget `servers` accepts. */
const MIN_SERVER_MAP_BYTES = 256;
/** Default and largest page of `browse`. */
const DEFAULT_BROWSE_LIMIT = 20;
const MAX_BROWSE_LIMIT = 100;
/** Longest description `browse` lists per tool, in characters. */
const MAX_BROWSE_DESCRIPTION_LENGTH = 100;

/** One page of the reader's server map (see `ServerMapOptions`): ranked for the query, within `maxBytes`. */
export function mapServers<OffsetKey extends string = 'offset'>(context: ReaderContext, options: ServerMapOptions<OffsetKey> = {}): ServerMap<OffsetKey> {
  const maxBytes = options?.maxBytes ?? DEFAULT_SERVER_MAP_BYTES;
  if (typeof maxBytes !== 'number' || !Number.isInteger(maxBytes) || maxBytes < MIN_SERVER_MAP_BYTES) {
    throw new CatalogError('invalid_limit', `Invalid server map maxBytes ${String(maxBytes)}: expected an integer ≥ ${MIN_SERVER_MAP_BYTES}.`);
  }
  const offset = options?.offset ?? 0;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    throw new CatalogError('invalid_limit', `Invalid server map offset ${String(offset)}: expected an integer ≥ 0.`);
  }
  const maxServers = options?.maxServers ?? SERVERS_PER_PAGE;
  if (typeof maxServers !== 'number' || !Number.isInteger(maxServers) || maxServers < 1) {
    throw new CatalogError('invalid_limit', `Invalid server map maxServers ${String(maxServers)}: expected an integer ≥ 1 (values above ${SERVERS_PER_PAGE} are clamped).`);
  }
  if (options?.query !== undefined) checkQuery(options.query);
  // A query of only whitespace ranks nothing: read as none.
  const query = options?.query === undefined || options.query.trim() === '' ? undefined : options.query;
  const preferred = query === undefined ? [] : context.parts.index.rank(query, Math.max(context.limits.maxSearchLimit, 50), context.scope.index).map((entry) => entry.id);
  // The owners of the request's best hits lead the map: the search a model would get, at its widest.
  const hitServers = query === undefined ? [] : searchScoped(context, query, { limit: context.limits.maxSearchLimit }).map((hit) => `${hit.source}:${hit.owner}`);
  return buildServerMap(context.outline(), {
    maxBytes,
    offset,
    maxServers: Math.min(maxServers, SERVERS_PER_PAGE),
    query,
    hitServers,
    preferred,
    leaveOut: options?.leaveOut ?? [],
    starting: options?.starting ?? [],
    offsetKey: options?.offsetKey ?? ('offset' as OffsetKey),
  });
}

/** One page of a server's tools, the server named as `<source>:<owner>` or by its owner alone when unambiguous. */
export function browseServer(context: ReaderContext, server: string, options: BrowseOptions = {}): BrowseResult {
  const offset = options?.offset ?? 0;
  const limit = options?.limit ?? DEFAULT_BROWSE_LIMIT;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    throw new CatalogError('invalid_limit', `Invalid browse offset ${String(offset)}: expected an integer ≥ 0.`);
  }
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw new CatalogError('invalid_limit', `Invalid browse limit ${String(limit)}: expected an integer ≥ 1 (values above ${MAX_BROWSE_LIMIT} are clamped).`);
  }
  const key = typeof server === 'string' ? server.trim() : '';
  const owners = context.outline();
  const keys = owners.map((owner) => `${owner.source}:${owner.owner}`);
  const matches = keys.filter((entry) => entry === key || entry.slice(entry.indexOf(':') + 1) === key);
  if (matches.length !== 1) return serverNotFound(key, keys, matches);
  const owner = owners[keys.indexOf(matches[0] as string)] as OwnerOutline;
  const tools = owner.tools;
  const page = tools.slice(offset, offset + Math.min(limit, MAX_BROWSE_LIMIT));
  const next = offset + page.length;
  return {
    found: true,
    source: owner.source,
    owner: owner.owner,
    summary: owner.summary,
    toolCount: tools.length,
    offset,
    tools: page.map((tool) => ({ id: tool.id, name: tool.name, description: sanitizeText(tool.description, { maxLength: MAX_BROWSE_DESCRIPTION_LENGTH }) })),
    ...(next < tools.length ? { nextOffset: next } : {}),
  };
}

/** Ambiguous (several sources have that owner) or unknown, with up to 3 near server names. */
function serverNotFound(key: string, keys: readonly string[], matches: readonly string[]): BrowseResult {
  const shown = sanitizeText(key, { maxLength: 140 });
  if (matches.length > 1) return { found: false, reason: 'ambiguous', message: `"${shown}" names ${matches.length} servers; browse one as <source>:<owner>.`, suggestions: [...matches] };
  const suggestions = keys
    .map((entry) => ({ entry, distance: Math.min(editDistance(entry, key, 8), editDistance(entry.slice(entry.indexOf(':') + 1), key, 8)) }))
    .filter((candidate) => candidate.distance <= Math.max(2, Math.floor(key.length / 3)))
    .sort((a, b) => a.distance - b.distance || (a.entry < b.entry ? -1 : 1))
    .slice(0, 3)
    .map((candidate) => candidate.entry);
  return { found: false, reason: 'unknown', message: `No server "${shown}" here${suggestions.length > 0 ? `; did you mean ${suggestions.join(', ')}?` : '.'}`, suggestions };
}
