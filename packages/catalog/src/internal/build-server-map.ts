// The server map: each owner a reader sees, with a one-line summary and its tool names, ranked by relevance to a
// request (by size without one) and cut into pages within a byte budget that counts every field. It is built from
// the tools a reader admits and nothing else (its owner's context text aside, which describes the server, not a
// tool), so a view's map is the map of a catalog of its admitted tools alone. The one owner of the map's ranking
// and paging: modes words the page, the gateway passes it on.
import type { ServerMap, ServerMapNext, ServerSummary, StartingOwner, ToolDescriptor } from '../types.js';
import { countServersByNameWord, summarizeByToolNames } from './summarize-server.js';

/** What the map needs of a reader: its tools and its owners' summary lines (see `describeServer`). */
export interface ServerMapSource {
  tools: readonly ToolDescriptor[];
  /** An owner's summary line from what it says of itself, or '' when it says nothing that describes it. */
  summaryOf(source: string, owner: string): string;
}

interface OwnerGroup {
  source: ToolDescriptor['source'];
  owner: string;
  tools: ToolDescriptor[];
}

/** Groups tools by owner, owners by `<source>:<owner>`, tools by name: the map's one order. */
function groupByOwner(tools: readonly ToolDescriptor[]): OwnerGroup[] {
  const groups = new Map<string, OwnerGroup>();
  for (const tool of tools) {
    const key = `${tool.source}:${tool.owner}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { source: tool.source, owner: tool.owner, tools: [] };
      groups.set(key, group);
    }
    group.tools.push(tool);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, group]) => ({ ...group, tools: group.tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1)) }));
}

/** UTF-8 bytes of a value's JSON. */
function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/** Each owner's summary line and its tools by name: what the map is cut from (cache it while the tools stay). */
export interface OwnerOutline {
  source: ToolDescriptor['source'];
  owner: string;
  summary: string;
  tools: ToolDescriptor[];
}

/** The owners of `source.tools` in map order, each with its summary line. */
export function outlineOwners(source: ServerMapSource): OwnerOutline[] {
  const groups = groupByOwner(source.tools);
  const serversWithWord = countServersByNameWord(groups);
  return groups.map((group) => {
    const line = source.summaryOf(group.source, group.owner);
    const summary = line === '' ? summarizeByToolNames(group.owner, group.tools, serversWithWord, groups.length) : line;
    return { source: group.source, owner: group.owner, summary, tools: group.tools };
  });
}

/** Most owners on one page of the map: the whole map of `n` owners is reachable in ⌈n / this⌉ calls. */
export const SERVERS_PER_PAGE = 32;

/** What ranks the owners: the query, and `<source>:<owner>` of its search hits, best first. */
export interface OwnerRanking {
  query?: string | undefined;
  hitServers?: readonly string[] | undefined;
}

/** An owner as a page is cut from it: its summary entry (no names yet) and its tool names in listing order. */
interface RankedOwner {
  entry: ServerSummary;
  names: string[];
}

const keyOf = (owner: Pick<OwnerOutline, 'source' | 'owner'>) => `${owner.source}:${owner.owner}`;

/** Lower-case words of at least 3 letters or digits. */
function nameWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
}

/**
 * The owners by relevance: the owners of the hits first (by the sum of their hits' reciprocal ranks, so three
 * middling hits outweigh a lone first one; ties in order of first hit), then owners whose name has a word of the
 * query, then starting owners, then the rest; within each tier by tool count (largest first), ties by
 * `<source>:<owner>`. Deterministic; never alphabetical first, so an owner late in the alphabet is as reachable.
 */
function rankOwners(owners: readonly RankedOwner[], ranking: OwnerRanking): RankedOwner[] {
  const votes = new Map<string, number>();
  (ranking.hitServers ?? []).forEach((key, index) => votes.set(key, (votes.get(key) ?? 0) + 1 / (index + 1)));
  const hitRank = new Map([...votes].sort((a, b) => b[1] - a[1]).map(([key], rank) => [key, rank]));
  const queryWords = new Set(ranking.query === undefined ? [] : nameWords(ranking.query));
  const named = (owner: string) => nameWords(owner).some((word) => queryWords.has(word));
  const scored = owners.map((owner) => {
    const key = keyOf(owner.entry);
    const tier = hitRank.has(key) ? 0 : named(owner.entry.owner) ? 1 : owner.entry.state === 'starting' ? 2 : 3;
    return { owner, key, tier, hit: hitRank.get(key) ?? 0 };
  });
  scored.sort((a, b) => a.tier - b.tier || a.hit - b.hit || b.owner.entry.toolCount - a.owner.entry.toolCount || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return scored.map((entry) => entry.owner);
}

/** Options of `buildServerMap`: the page, its budget and what ranks it. */
export interface BuildServerMapOptions<OffsetKey extends string> extends OwnerRanking {
  maxBytes: number;
  offset: number;
  maxServers: number;
  /** Within an owner these ids come first, best first, then the rest by name. */
  preferred: readonly string[];
  /** Ids whose names are not listed. */
  leaveOut: readonly string[];
  /** Owners without visible tools yet, shown as `state: 'starting'`. */
  starting: readonly StartingOwner[];
  offsetKey: OffsetKey;
}

/**
 * One page of the ranked map within `maxBytes` bytes of its JSON, every field counted (`omitted` and `next` too):
 * up to `maxServers` owners from `offset` with their summaries, contiguous (the next page starts where this one
 * stops, so paging visits every owner once), at least one; then their tool names, one per owner in turn, while the
 * budget lasts (an owner's names stay a prefix of its list). The same tools, texts and options give the same bytes.
 */
export function buildServerMap<OffsetKey extends string>(outline: readonly OwnerOutline[], options: BuildServerMapOptions<OffsetKey>): ServerMap<OffsetKey> {
  const preferredRank = new Map(options.preferred.map((id, i) => [id, i]));
  const leftOut = new Set(options.leaveOut);
  const listed = outline.map((owner): RankedOwner => {
    const ordered = preferredRank.size === 0 ? owner.tools : [...owner.tools].sort((a, b) => (preferredRank.get(a.id) ?? Infinity) - (preferredRank.get(b.id) ?? Infinity));
    return {
      entry: { source: owner.source, owner: owner.owner, summary: owner.summary, toolCount: owner.tools.length, tools: [] },
      names: ordered.filter((tool) => !leftOut.has(tool.id)).map((tool) => tool.name),
    };
  });
  const known = new Set(outline.map(keyOf));
  const starting = options.starting
    .filter((owner, index, all) => !known.has(keyOf(owner)) && all.findIndex((other) => keyOf(other) === keyOf(owner)) === index)
    .map((owner): RankedOwner => ({ entry: { source: owner.source, owner: owner.owner, summary: '', toolCount: 0, tools: [], state: 'starting' }, names: [] }));
  const ranked = rankOwners([...listed, ...starting], options);
  const offset = Math.min(options.offset, ranked.length);
  const page = (count: number): ServerMap<OffsetKey> => {
    const end = offset + count;
    const map: ServerMap<OffsetKey> = { servers: ranked.slice(offset, end).map((owner) => ({ ...owner.entry, tools: [] })), omitted: ranked.length - end };
    if (end < ranked.length) map.next = { ...(options.query === undefined ? {} : { query: options.query }), [options.offsetKey]: end } as ServerMapNext<OffsetKey>;
    return map;
  };
  let count = Math.min(1, ranked.length - offset);
  while (count < options.maxServers && offset + count < ranked.length && jsonBytes(page(count + 1)) <= options.maxBytes) count += 1;
  const map = page(count);
  fillToolNames(map.servers.map((entry, index) => ({ entry, names: ranked[offset + index]?.names ?? [] })), options.maxBytes - jsonBytes(map));
  return map;
}

/** One name per owner in turn while `budget` bytes last; an owner whose next name does not fit lists no more. */
function fillToolNames(owners: readonly RankedOwner[], budget: number): void {
  let left = budget;
  const open = owners.map(() => true);
  let progress = true;
  for (let round = 0; progress; round++) {
    progress = false;
    owners.forEach((owner, index) => {
      const name = owner.names[round];
      if (!open[index] || name === undefined) return;
      // The separator before every name after the first counts too.
      const cost = jsonBytes(name) + (owner.entry.tools.length > 0 ? 1 : 0);
      if (cost > left) {
        open[index] = false;
        return;
      }
      left -= cost;
      owner.entry.tools.push(name);
      progress = true;
    });
  }
}
