// withToolFamilies: near-duplicate tools across servers, shown as one family. The first hit of a family (in the
// hits' order) carries `alsoOn`: the family's other members the reader sees (among the hits, and the tools of the
// same name outside them), each with what differs from the hit. Only the reader's visible tools are ever looked at,
// so a tool a policy refuses never shows up in a family. The hits keep their order and scores.
import type { SearchHit, ToolDescriptor } from '../types.js';
import type { ReaderContext } from './reader-context.js';
import { STOP_WORDS } from './stop-words.js';
import { looseNameKey } from './tool-store.js';

/** Members of one family named in `alsoOn` (the rest are left out). */
export const MAX_FAMILY_MEMBERS = 4;
/** Description words named per side in `differs`. */
const MAX_DIFFERING_WORDS = 4;
/**
 * Two tools of different names are near-duplicates when their description words and their parameter names each
 * overlap at least this much (Jaccard); two of the same name (as `looseNameKey` writes it) when their description
 * words overlap at least `SAME_NAME_OVERLAP` (a `search` of GitHub and one of Slack share a name, not a function).
 */
const NEAR_IDENTICAL_OVERLAP = 0.8;
const SAME_NAME_OVERLAP = 0.3;
/** A description of fewer distinct words says too little to call two tools the same. */
const MIN_DESCRIPTION_WORDS = 3;

interface Shape {
  tool: ToolDescriptor;
  server: string;
  nameKey: string;
  words: Set<string>;
  params: Set<string>;
}

function shapeOf(tool: ToolDescriptor): Shape {
  const words = new Set((tool.description.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 1 && !STOP_WORDS.has(word)));
  const properties = tool.inputSchema?.properties;
  const params = new Set(properties !== null && typeof properties === 'object' && !Array.isArray(properties) ? Object.keys(properties) : []);
  return { tool, server: `${tool.source}:${tool.owner}`, nameKey: looseNameKey(tool.name), words, params };
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const item of a) if (b.has(item)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/** Whether two tools of different servers are one family (see `NEAR_IDENTICAL_OVERLAP`, `SAME_NAME_OVERLAP`). */
function sameFamily(a: Shape, b: Shape): boolean {
  return a.server !== b.server && nearDuplicate(a, b);
}

/**
 * Whether two tools are near-duplicates by the family rule, on whatever servers they are (a family also needs two
 * servers). The benchmark counts a near-duplicate of a labelled tool as fitting with it.
 */
export function areNearDuplicateTools(a: ToolDescriptor, b: ToolDescriptor): boolean {
  return nearDuplicate(shapeOf(a), shapeOf(b));
}

function nearDuplicate(a: Shape, b: Shape): boolean {
  const words = overlap(a.words, b.words);
  if (a.nameKey !== '' && a.nameKey === b.nameKey) return words >= SAME_NAME_OVERLAP;
  if (a.words.size < MIN_DESCRIPTION_WORDS || b.words.size < MIN_DESCRIPTION_WORDS) return false;
  return words >= NEAR_IDENTICAL_OVERLAP && overlap(a.params, b.params) >= NEAR_IDENTICAL_OVERLAP;
}

const only = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].filter((item) => !b.has(item));

/** What `other` has and `hit` lacks, and the reverse: parameters first, then description words. */
function describeDifference(hit: Shape, other: Shape): string {
  const parts: string[] = [];
  const extraParams = only(other.params, hit.params).sort();
  const missingParams = only(hit.params, other.params).sort();
  if (hit.tool.name !== other.tool.name) parts.push(`named ${other.tool.name}`);
  if (extraParams.length > 0) parts.push(`adds parameters ${extraParams.join(', ')}`);
  if (missingParams.length > 0) parts.push(`lacks parameters ${missingParams.join(', ')}`);
  const extraWords = only(other.words, hit.words).slice(0, MAX_DIFFERING_WORDS);
  const missingWords = only(hit.words, other.words).slice(0, MAX_DIFFERING_WORDS);
  if (extraWords.length > 0) parts.push(`its description adds ${extraWords.join(', ')}`);
  if (missingWords.length > 0) parts.push(`its description lacks ${missingWords.join(', ')}`);
  return parts.length === 0 ? 'same parameters and description' : parts.join('; ');
}

/**
 * The hits with `alsoOn` on the first member of each family: the other members among the hits, then the visible
 * tools of the same name outside them, at most `MAX_FAMILY_MEMBERS`. A later member keeps its place in the hits.
 */
export function withToolFamilies(context: ReaderContext, hits: readonly SearchHit[]): SearchHit[] {
  if (hits.length === 0) return [...hits];
  const shapes = new Map<string, Shape>();
  const shape = (id: string): Shape | undefined => {
    let known = shapes.get(id);
    if (known === undefined) {
      const tool = context.parts.store.get(id);
      if (tool === undefined || !context.visible(id)) return undefined;
      known = shapeOf(tool);
      shapes.set(id, known);
    }
    return known;
  };
  const placed = new Set<string>();
  return hits.map((hit) => {
    if (placed.has(hit.id)) return hit;
    const own = shape(hit.id);
    if (own === undefined) return hit;
    const members: Shape[] = [];
    const consider = (id: string) => {
      if (id === hit.id || placed.has(id) || members.length >= MAX_FAMILY_MEMBERS) return;
      const other = shape(id);
      if (other !== undefined && sameFamily(own, other) && !members.some((member) => member.server === other.server)) members.push(other);
    };
    for (const other of hits) consider(other.id);
    for (const id of context.looselyNamedIds(hit.name)) if (shape(id)?.nameKey === own.nameKey) consider(id);
    if (members.length === 0) return hit;
    placed.add(hit.id);
    for (const member of members) placed.add(member.tool.id);
    return { ...hit, alsoOn: members.map((member) => ({ id: member.tool.id, differs: describeDifference(own, member) })) };
  });
}
