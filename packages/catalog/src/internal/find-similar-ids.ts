// "Did you mean": ids whose name (or whole id) is a few edits away from what was asked for.
import type { ToolDescriptor } from '../types.js';
import { editDistance } from '../edit-distance.js';
import { parseToolId } from '../tool-id.js';

/** Up to `max` ids closest to `key` (compared by name, or by id when `key` looks like an id), nearest first. */
export function findSimilarIds(key: string, tools: Iterable<ToolDescriptor>, max: number): string[] {
  if (key === '') return [];
  const parsed = parseToolId(key);
  const wanted = (parsed ? parsed.name : key).toLowerCase();
  const limit = Math.max(1, Math.min(3, Math.floor(wanted.length / 4)));
  const scored: Array<{ id: string; distance: number }> = [];
  for (const tool of tools) {
    const nameDistance = editDistance(wanted, tool.name.toLowerCase(), limit);
    const idDistance = parsed ? editDistance(key.toLowerCase(), tool.id.toLowerCase(), limit) : limit + 1;
    const distance = Math.min(nameDistance, idDistance);
    if (distance <= limit) scored.push({ id: tool.id, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return scored.slice(0, max).map((entry) => entry.id);
}
