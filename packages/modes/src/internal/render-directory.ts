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
export const DIRECTORY_DEFAULT_BUDGET = 11_500;

/** The budget for a context window: `min(11500, max(768, contextWindowTokens / 10))`. */
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
  owner: string;
  /** The raw description; collapsed lazily (at 10,000 tools most rows end up as names only). */
  rawDescription: string;
  source: ToolSource;
  name: string;
  headBytes: number;
  prepared?: PreparedDescription;
}

interface PreparedDescription {
  text: string;
  /** The description's code points, and the UTF-8 bytes of its first i code points at index i. */
  codePoints: string[];
  prefixBytes: number[];
}

const ELLIPSIS_BYTES = utf8Length('…');

/** UTF-8 bytes of one code point (lone surrogates encode as U+FFFD: 3 bytes). */
function codePointBytes(codePoint: string): number {
  const value = codePoint.codePointAt(0) as number;
  return value < 0x80 ? 1 : value < 0x800 ? 2 : value < 0x10000 ? 3 : 4;
}

function describe(row: PreparedRow): PreparedDescription {
  if (row.prepared) return row.prepared;
  const text = collapseText(row.rawDescription);
  const codePoints = Array.from(text);
  const prefixBytes = [0];
  for (const codePoint of codePoints) prefixBytes.push((prefixBytes[prefixBytes.length - 1] as number) + codePointBytes(codePoint));
  row.prepared = { text, codePoints, prefixBytes };
  return row.prepared;
}

function rowLine(row: PreparedRow, descriptionChars: number): string {
  if (descriptionChars === 0) return row.head;
  const { text } = describe(row);
  if (text === '') return row.head;
  const description = cutText(text, descriptionChars);
  return description === '' ? row.head : `${row.head}: ${description}`;
}

// The byte length of rowLine(row, descriptionChars), computed without building the line: the search for
// the largest cap runs over every row several times. Must agree with rowLine exactly (tested).
function rowBytes(row: PreparedRow, descriptionChars: number): number {
  if (descriptionChars === 0) return row.headBytes;
  const { text, codePoints, prefixBytes } = describe(row);
  if (text === '') return row.headBytes;
  const length = codePoints.length;
  if (length <= descriptionChars) return row.headBytes + 2 + (prefixBytes[length] as number);
  const kept = descriptionChars - 1;
  // cutText trims the end of the kept part; collapsed text has single spaces only, so at most one goes.
  const trailingSpace = codePoints[kept - 1] === ' ' ? 1 : 0;
  return row.headBytes + 2 + (prefixBytes[kept] as number) - trailingSpace + ELLIPSIS_BYTES;
}

function moreLine(count: number): string {
  return count === 1 ? '1 more tool: use tool_search' : `${count} more tools: use tool_search`;
}

function blockText(rows: readonly PreparedRow[], descriptionChars: number, notListed: number): string {
  const lines = rows.map((row) => rowLine(row, descriptionChars));
  if (notListed > 0) lines.push(moreLine(notListed));
  return lines.join('\n');
}

function blockBytes(rows: readonly PreparedRow[], descriptionChars: number, notListed: number): number {
  let bytes = 0;
  for (const row of rows) bytes += rowBytes(row, descriptionChars);
  let lines = rows.length;
  if (notListed > 0) {
    bytes += moreLine(notListed).length;
    lines += 1;
  }
  return bytes + Math.max(0, lines - 1);
}

function prepareRow(row: DirectoryRow): PreparedRow {
  const head = `- ${collapseText(row.name)} (${collapseText(row.owner)})`;
  return { head, owner: row.owner, rawDescription: row.description, source: row.source, name: row.name, headBytes: utf8Length(head) };
}

/**
 * Renders the directory for `rows` within `budget` bytes. `hiddenCount` is every hidden catalog tool
 * (listed or not), so the closing line counts untrusted and duplicate-named tools too.
 */
export function renderDirectory(options: { rows: readonly DirectoryRow[]; hiddenCount: number; budget: number }): RenderedDirectory {
  const { budget, hiddenCount } = options;
  const prepared: PreparedRow[] = options.rows.map(prepareRow).sort((left, right) => compareStrings(left.name, right.name));
  const notListedAll = hiddenCount - prepared.length;
  const render = (rows: readonly PreparedRow[], descriptionChars: number): RenderedDirectory => ({
    text: blockText(rows, descriptionChars, hiddenCount - rows.length),
    listed: rows.length,
    descriptionChars,
  });

  const namesOnlyFits = blockBytes(prepared, 0, notListedAll) <= budget;
  // 1. Every row, descriptions as long as the budget allows (binary search on the common cap).
  if (namesOnlyFits && blockBytes(prepared, DIRECTORY_MAX_DESCRIPTION, notListedAll) <= budget) return render(prepared, DIRECTORY_MAX_DESCRIPTION);
  if (namesOnlyFits && blockBytes(prepared, DIRECTORY_MIN_DESCRIPTION, notListedAll) <= budget) {
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
  if (namesOnlyFits) return render(prepared, 0);
  // 3. Drop rows. Keep core (openclaw) tools before plugins, and within a source take owners round-robin
  // (each owner's first tool by name, then each one's second, ...), so a cut directory still shows every
  // plugin rather than the first letters of the alphabet. The kept rows stay sorted by name.
  const rankInOwner = new Map<PreparedRow, number>();
  const seenPerOwner = new Map<string, number>();
  for (const row of prepared) {
    const key = `${row.source}\u0000${row.owner}`;
    const seen = seenPerOwner.get(key) ?? 0;
    rankInOwner.set(row, seen);
    seenPerOwner.set(key, seen + 1);
  }
  const byPriority = [...prepared].sort(
    (left, right) =>
      SOURCE_RANK[left.source] - SOURCE_RANK[right.source] ||
      (rankInOwner.get(left) as number) - (rankInOwner.get(right) as number) ||
      compareStrings(left.owner, right.owner) ||
      compareStrings(left.name, right.name),
  );
  // Names only from here: the bytes of the first k rows by priority are a prefix sum.
  const prefix = [0];
  for (const row of byPriority) prefix.push((prefix[prefix.length - 1] as number) + row.headBytes);
  const keptBytes = (count: number): number => {
    const notListed = hiddenCount - count;
    const lines = count + (notListed > 0 ? 1 : 0);
    return (prefix[count] as number) + (notListed > 0 ? moreLine(notListed).length : 0) + Math.max(0, lines - 1);
  };
  let low = 0;
  let high = prepared.length;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (keptBytes(middle) <= budget) low = middle;
    else high = middle;
  }
  if (keptBytes(low) <= budget) {
    return render(byPriority.slice(0, low).sort((left, right) => compareStrings(left.name, right.name)), 0);
  }
  // Not even the closing line fits (a tiny maxChars): an empty directory is within any budget.
  return { text: '', listed: 0, descriptionChars: 0 };
}
