/** Pages followed at most for one list (a server that keeps handing out new cursors cannot loop us forever). */
export const MAX_LIST_PAGES = 200;

/**
 * Collects every item of a paginated MCP list (`tools/list`, `resources/list`, …), following `nextCursor`
 * until it is absent, repeats, or `MAX_LIST_PAGES` pages were read.
 */
export async function listAllPages<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    cursor = result.nextCursor;
    if (cursor === undefined || seen.has(cursor)) break;
    seen.add(cursor);
  }
  return items;
}
