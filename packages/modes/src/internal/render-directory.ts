// The name directory of `directory` mode: one line per listed tool, `- name (owner): description`, sorted by
// name, within a character budget. Over budget, descriptions shrink first (all rows alike), then go away,
// and only then are rows dropped; a closing line counts the tools not listed.
import type { ToolSource } from '@tool-search/catalog';
import { collapseText, compareStrings, cutText, utf8Length } from './text.js';

/** Longest description kept in a directory row (characters). */
export const DIRECTORY_MAX_DESCRIPTION = 120;
/** Shortest description worth keeping; below this the row shows the name alone. */
export const DIRECTORY_MIN_DESCRIPTION = 24;
/** Default budget of the directory block, in characters (counted as UTF-8 bytes). */
export const DIRECTORY_DEFAULT_BUDGET = 12_000;

/** The budget for a context window: `min(12000, max(768, contextWindowTokens / 10))`. */
export function directoryBudget(options: { maxChars?: number; contextWindowTokens?: number }): number {
  if (options.maxChars !== undefined) return options.maxChars;
  if (options.contextWindowTokens === undefined) return DIRECTORY_DEFAULT_BUDGET;
  return Math.min(DIRECTORY_DEFAULT_BUDGET, Math.max(768, Math.floor(options.contextWindowTokens / 10)));
}

/** A tool eligible for the directory (trusted, hidden, with a unique name). */
export interface DirectoryRow {
  name: string;
  owner: string;
  description: string;
  source: ToolSource;
}

/** The rendered directory. */
export interface RenderedDirectory {
  /** The block (rows and the "N more tools" line), at most `budget` UTF-8 bytes; may be empty. */
  text: string;
  /** Rows listed. */
  listed: number;
  /** The description cap the rows were cut to (0: names only). */
  descriptionChars: number;
}

const SOURCE_RANK: Record<ToolSource, number> = { openclaw: 0, plugin: 1, mcp: 2, client: 3 };

interface PreparedRow {
  head: string;
  description: string;
  source: ToolSource;
  name: string;
}

function rowLine(row: PreparedRow, descriptionChars: number): string {
  if (descriptionChars === 0 || row.description === '') return row.head;
  const description = cutText(row.description, descriptionChars);
  return description === '' ? row.head : `${row.head}: ${description}`;
}

function moreLine(count: number): string {
  return count === 1 ? '1 more tool: use tool_search' : `${count} more tools: use tool_search`;
}

function blockLines(rows: readonly PreparedRow[], descriptionChars: number, notListed: number): string[] {
  const lines = rows.map((row) => rowLine(row, descriptionChars));
  if (notListed > 0) lines.push(moreLine(notListed));
  return lines;
}

function blockBytes(rows: readonly PreparedRow[], descriptionChars: number, notListed: number): number {
  const lines = blockLines(rows, descriptionChars, notListed);
  let bytes = Math.max(0, lines.length - 1);
  for (const line of lines) bytes += utf8Length(line);
  return bytes;
}

/**
 * Renders the directory for `rows` within `budget` bytes. `hiddenCount` is every hidden catalog tool
 * (listed or not), so the closing line counts untrusted and duplicate-named tools too.
 */
export function renderDirectory(options: { rows: readonly DirectoryRow[]; hiddenCount: number; budget: number }): RenderedDirectory {
  const { budget, hiddenCount } = options;
  const prepared: PreparedRow[] = options.rows
    .map((row) => ({
      head: `- ${collapseText(row.name)} (${collapseText(row.owner)})`,
      description: collapseText(row.description),
      source: row.source,
      name: row.name,
    }))
    .sort((left, right) => compareStrings(left.name, right.name));
  const notListedAll = hiddenCount - prepared.length;
  const render = (rows: readonly PreparedRow[], descriptionChars: number): RenderedDirectory => ({
    text: blockLines(rows, descriptionChars, hiddenCount - rows.length).join('\n'),
    listed: rows.length,
    descriptionChars,
  });

  // 1. Every row, descriptions as long as the budget allows (binary search on the common cap).
  if (blockBytes(prepared, DIRECTORY_MAX_DESCRIPTION, notListedAll) <= budget) return render(prepared, DIRECTORY_MAX_DESCRIPTION);
  if (blockBytes(prepared, DIRECTORY_MIN_DESCRIPTION, notListedAll) <= budget) {
    let low = DIRECTORY_MIN_DESCRIPTION;
    let high = DIRECTORY_MAX_DESCRIPTION;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (blockBytes(prepared, middle, notListedAll) <= budget) low = middle;
      else high = middle;
    }
    return render(prepared, low);
  }
  // 2. Every row, names only.
  if (blockBytes(prepared, 0, notListedAll) <= budget) return render(prepared, 0);
  // 3. Drop rows: keep core (openclaw) tools before plugins, then by name; the kept rows stay sorted by name.
  const byPriority = [...prepared].sort(
    (left, right) => SOURCE_RANK[left.source] - SOURCE_RANK[right.source] || compareStrings(left.name, right.name),
  );
  const keep = (count: number): PreparedRow[] =>
    byPriority.slice(0, count).sort((left, right) => compareStrings(left.name, right.name));
  let low = 0;
  let high = prepared.length;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (blockBytes(keep(middle), 0, hiddenCount - middle) <= budget) low = middle;
    else high = middle;
  }
  const kept = keep(low);
  if (blockBytes(kept, 0, hiddenCount - kept.length) <= budget) return render(kept, 0);
  // Not even the closing line fits (a tiny maxChars): an empty directory is within any budget.
  return { text: '', listed: 0, descriptionChars: 0 };
}
