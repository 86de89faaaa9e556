// The server map: each owner a reader sees, with a one-line summary and its tool names, bounded in bytes. It is
// built from the tools a reader admits and nothing else (its owner's context text aside, which describes the
// server, not a tool), so a view's map is the map of a catalog of its admitted tools alone.
import { sanitizeText } from '../sanitize-text.js';
import type { ServerMap, ServerSummary, ToolDescriptor } from '../types.js';
import { splitWords } from './tokenize-text.js';
import { STOP_WORDS } from './stop-words.js';

/** Longest summary line, in characters. */
export const MAX_SERVER_SUMMARY_LENGTH = 120;
/** Characteristic words in a summary built from the tools (an owner without context text). */
const SUMMARY_WORDS = 8;
/** Characters of a tool's description read for its words (the lead says what the tool is for). */
const DESCRIPTION_CHARS = 300;

/** What the map needs of a reader: its tools and its owners' summary lines (see `firstSentence`). */
export interface ServerMapSource {
  tools: readonly ToolDescriptor[];
  /** An owner's summary line from its context text, or '' without one. */
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

/** Words per tool, kept while the descriptor lives (descriptors are never changed, only replaced). */
const WORDS_OF = new WeakMap<ToolDescriptor, readonly string[]>();

/** The lower-case content words of a tool's name, title and description lead, each once. */
function toolWords(tool: ToolDescriptor): readonly string[] {
  const known = WORDS_OF.get(tool);
  if (known !== undefined) return known;
  const words = [...readToolWords(tool)];
  WORDS_OF.set(tool, words);
  return words;
}

function readToolWords(tool: ToolDescriptor): Set<string> {
  const text = `${tool.name} ${tool.title ?? ''} ${tool.description.slice(0, DESCRIPTION_CHARS)}`;
  const out = new Set<string>();
  for (const word of splitWords(text)) {
    const lower = word.toLowerCase();
    if (lower.length < 3 || STOP_WORDS.has(lower) || /^\d+$/.test(lower)) continue;
    out.add(lower);
  }
  return out;
}

/**
 * The words that set each owner's tools apart from the other owners' (how many of its tools have a word, times
 * how rare the word is among all the tools), best first, ties by word.
 */
function characteristicWords(groups: readonly OwnerGroup[]): Map<OwnerGroup, string[]> {
  const perGroup = new Map<OwnerGroup, Map<string, number>>();
  const everywhere = new Map<string, number>();
  let total = 0;
  for (const group of groups) {
    const counts = new Map<string, number>();
    for (const tool of group.tools) {
      total += 1;
      for (const word of toolWords(tool)) {
        counts.set(word, (counts.get(word) ?? 0) + 1);
        everywhere.set(word, (everywhere.get(word) ?? 0) + 1);
      }
    }
    perGroup.set(group, counts);
  }
  const out = new Map<OwnerGroup, string[]>();
  for (const group of groups) {
    const counts = perGroup.get(group) as Map<string, number>;
    const scored = [...counts].map(([word, count]) => ({ word, score: count * Math.log(1 + total / (everywhere.get(word) as number)) }));
    scored.sort((a, b) => b.score - a.score || (a.word < b.word ? -1 : 1));
    out.set(group, scored.slice(0, SUMMARY_WORDS).map((entry) => entry.word));
  }
  return out;
}

/**
 * The first sentence of a context text, on one line, at most `MAX_SERVER_SUMMARY_LENGTH` characters. Markdown
 * heading lines ("# Everything Server") are titles, not descriptions: the text after them is read, unless there is
 * none.
 */
export function firstSentence(text: string): string {
  const prose = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n');
  const line = sanitizeText(prose.trim() === '' ? text.replace(/^\s*#+\s*/gm, '') : prose, { maxLength: 2_000 });
  const end = /[.!?](?=\s|$)/.exec(line);
  return sanitizeText(end === null ? line : line.slice(0, end.index + 1), { maxLength: MAX_SERVER_SUMMARY_LENGTH });
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
  const words = characteristicWords(groups);
  return groups.map((group) => {
    const line = source.summaryOf(group.source, group.owner);
    const summary = line === '' ? `tools to ${(words.get(group) ?? []).join(', ')}` : line;
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
