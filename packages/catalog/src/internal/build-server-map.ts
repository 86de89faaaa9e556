// The server map: each owner a reader sees, with a one-line summary and its tool names, bounded in bytes. It is
// built from the tools a reader admits and nothing else (its owner's context text aside, which describes the
// server, not a tool), so a view's map is the map of a catalog of its admitted tools alone.
import type { ServerMap, ServerSummary, ToolDescriptor } from '../types.js';
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

/**
 * The map of the outlined owners within `maxBytes` bytes of JSON (of the returned `ServerMap`): every owner with
 * its summary first, in owner order (owners that do not fit are counted in `omitted`), then tool names, one per
 * owner in turn, until the budget is spent; within an owner the `preferred` ids come first, best first, then the
 * rest by name. The same tools, texts and preferred ids give the same bytes.
 */
export function buildServerMap(outline: readonly OwnerOutline[], maxBytes: number, preferred: readonly string[] = []): ServerMap {
  const preferredRank = new Map(preferred.map((id, i) => [id, i]));
  const entries: ServerSummary[] = [];
  const map: ServerMap = { servers: entries, omitted: 0 };
  let used = jsonBytes(map);
  const queues: Array<{ entry: ServerSummary; names: string[]; open: boolean }> = [];
  for (const owner of outline) {
    const entry: ServerSummary = { source: owner.source, owner: owner.owner, summary: owner.summary, toolCount: owner.tools.length, tools: [] };
    // The separator before the entry counts too (every entry after the first).
    const cost = jsonBytes(entry) + (entries.length > 0 ? 1 : 0);
    if (used + cost > maxBytes) {
      map.omitted += 1;
      continue;
    }
    used += cost;
    entries.push(entry);
    const ordered = preferredRank.size === 0 ? owner.tools : [...owner.tools].sort((a, b) => (preferredRank.get(a.id) ?? Infinity) - (preferredRank.get(b.id) ?? Infinity));
    queues.push({ entry, names: ordered.map((tool) => tool.name), open: true });
  }
  // One name per owner in turn; an owner whose next name does not fit lists no more (its names stay a prefix).
  let progress = true;
  for (let round = 0; progress; round++) {
    progress = false;
    for (const queue of queues) {
      const name = queue.names[round];
      if (!queue.open || name === undefined) continue;
      const cost = jsonBytes(name) + (queue.entry.tools.length > 0 ? 1 : 0);
      if (used + cost > maxBytes) {
        queue.open = false;
        continue;
      }
      used += cost;
      queue.entry.tools.push(name);
      progress = true;
    }
  }
  return map;
}
