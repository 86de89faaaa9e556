// "Did you mean": ids whose name (or whole id) is a few edits away from what was asked for.
import type { ToolDescriptor } from '../types.js';
import { parseToolId } from '../tool-id.js';

/** Levenshtein distance, or `limit + 1` as soon as it is certain to exceed `limit`. */
export function boundedEditDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] as number;
}

/** Up to `max` ids closest to `key` (compared by name, or by id when `key` looks like an id), nearest first. */
export function findSimilarIds(key: string, tools: Iterable<ToolDescriptor>, max: number): string[] {
  if (key === '') return [];
  const parsed = parseToolId(key);
  const wanted = (parsed ? parsed.name : key).toLowerCase();
  const limit = Math.max(1, Math.min(3, Math.floor(wanted.length / 4)));
  const scored: Array<{ id: string; distance: number }> = [];
  for (const tool of tools) {
    const nameDistance = boundedEditDistance(wanted, tool.name.toLowerCase(), limit);
    const idDistance = parsed ? boundedEditDistance(key.toLowerCase(), tool.id.toLowerCase(), limit) : limit + 1;
    const distance = Math.min(nameDistance, idDistance);
    if (distance <= limit) scored.push({ id: tool.id, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return scored.slice(0, max).map((entry) => entry.id);
}
