// The server map as a model reads it: servers ranked by relevance to the request (by size when there is none),
// one page at a time within a byte budget, and the exact arguments that fetch the next page. Ranking is by what
// the catalog already found (the owners of a search's hits), then servers the request names, then size; never by
// name, so a server late in the alphabet is as reachable as one early in it.
import type { ServerSummary } from '@tool-search/catalog';

/** Most servers on one page of the map: the whole map of `n` servers is reachable in ⌈n / this⌉ calls. */
export const SERVERS_PER_PAGE = 32;

/** The argument of `tool_search` that pages the server map. */
export const SERVERS_OFFSET_ARG = 'servers_offset';

/** One page of the server map: the `ServerMap` shape plus what fetches the next page. */
export interface ServerMapPage {
  servers: ServerSummary[];
  /** Servers after this page (0 on the last page). */
  omitted: number;
  /** The `tool_search` arguments that return the next page; absent on the last page. */
  next?: { query?: string; servers_offset: number };
}

/** Options of `rankServers`. */
export interface RankServersOptions {
  /** The request the map answers: a server whose name it says (as a word) ranks before the rest. */
  query?: string | undefined;
  /** `<source>:<owner>` of the request's search hits, best first: those servers lead, by the reciprocal ranks of their hits. */
  hitServers?: readonly string[] | undefined;
}

const keyOf = (server: Pick<ServerSummary, 'source' | 'owner'>) => `${server.source}:${server.owner}`;

/** Lower-case words of at least 3 letters or digits. */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
}

/**
 * The servers by relevance: the owners of the hits first (by the sum of their hits' reciprocal ranks, ties in
 * order of first hit), then servers whose name has a word of
 * the query, then the rest; within each tier by tool count (largest first), ties by `<source>:<owner>`.
 * Deterministic, and a permutation of its input.
 */
export function rankServers(servers: readonly ServerSummary[], options: RankServersOptions = {}): ServerSummary[] {
  // Each hit votes for its server by its reciprocal rank: three middling hits on one server outweigh a lone first one.
  const votes = new Map<string, number>();
  (options.hitServers ?? []).forEach((key, index) => votes.set(key, (votes.get(key) ?? 0) + 1 / (index + 1)));
  const hitRank = new Map([...votes].sort((a, b) => b[1] - a[1]).map(([key], rank) => [key, rank]));
  const queryWords = new Set(options.query === undefined ? [] : words(options.query));
  const named = (server: ServerSummary) => words(server.owner).some((word) => queryWords.has(word));
  const scored = servers.map((server) => {
    const key = keyOf(server);
    const tier = hitRank.has(key) ? 0 : named(server) ? 1 : 2;
    return { server, key, tier, hit: hitRank.get(key) ?? 0 };
  });
  scored.sort((a, b) => a.tier - b.tier || a.hit - b.hit || b.server.toolCount - a.server.toolCount || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return scored.map((entry) => entry.server);
}

/** UTF-8 bytes of a value's JSON. */
function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/** Options of `pageServerMap`. */
export interface PageServerMapOptions {
  /** Index of the page's first server in the ranked list (default 0). */
  offset?: number | undefined;
  /** Most UTF-8 bytes of the page's JSON, every field counted (`omitted` and `next` too). */
  maxBytes: number;
  /** The query the ranking used: repeated in `next`, so the next page is ranked the same way. */
  query?: string | undefined;
  /** Most servers on the page (default and at most `SERVERS_PER_PAGE`): fewer leaves more bytes to their tool names. */
  maxServers?: number | undefined;
}

/**
 * One page of ranked servers (each with every tool name it may list, best first) within `maxBytes`: up to
 * `SERVERS_PER_PAGE` servers from `offset` with their summaries, contiguous (the next page starts where this one
 * stops, so paging visits every server once), at least one; then their tool names, one per server in turn, while
 * the budget lasts (a server's names stay a prefix of its list).
 */
export function pageServerMap(ranked: readonly ServerSummary[], options: PageServerMapOptions): ServerMapPage {
  const offset = Math.max(0, Math.min(options.offset ?? 0, ranked.length));
  const maxServers = Math.max(1, Math.min(options.maxServers ?? SERVERS_PER_PAGE, SERVERS_PER_PAGE));
  const build = (count: number): ServerMapPage => {
    const end = offset + count;
    const page: ServerMapPage = {
      servers: ranked.slice(offset, end).map((server) => ({ source: server.source, owner: server.owner, summary: server.summary, toolCount: server.toolCount, tools: [] })),
      omitted: ranked.length - end,
    };
    if (end < ranked.length) page.next = options.query === undefined ? { servers_offset: end } : { query: options.query, servers_offset: end };
    return page;
  };
  let count = Math.min(1, ranked.length - offset);
  while (count < maxServers && offset + count < ranked.length && jsonBytes(build(count + 1)) <= options.maxBytes) count += 1;
  const page = build(count);
  let used = jsonBytes(page);
  const queues = page.servers.map((entry, index) => ({ entry, names: ranked[offset + index]?.tools ?? [], open: true }));
  let progress = true;
  for (let round = 0; progress; round++) {
    progress = false;
    for (const queue of queues) {
      const name = queue.names[round];
      if (!queue.open || name === undefined) continue;
      const cost = jsonBytes(name) + (queue.entry.tools.length > 0 ? 1 : 0);
      if (used + cost > options.maxBytes) {
        queue.open = false;
        continue;
      }
      used += cost;
      queue.entry.tools.push(name);
      progress = true;
    }
  }
  return page;
}
