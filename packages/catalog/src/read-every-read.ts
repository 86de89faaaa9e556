// For the catalog's property tests: every synchronous read a caller can make of a reader, for a set of queries and
// keys, as one value two readers can be compared by (a view and a catalog of its tools alone; a catalog updated in
// place and one built fresh).
import type { CatalogReader } from './types.js';

export function readEveryRead(reader: CatalogReader, queries: string[], keys: string[]): Record<string, unknown> {
  return {
    size: reader.size,
    list: reader.list().map((tool) => tool.id),
    sources: reader.sources(),
    searches: queries.map((query) => reader.search(query, { limit: 10 })),
    likely: queries.map((query) => reader.likelyTools(query)),
    many: reader.searchMany(queries.slice(0, 16).map((query) => ({ query, limit: 3 }))),
    describes: keys.map((key) => reader.describe(key)),
    gets: keys.map((key) => reader.get(key)?.id ?? null),
    named: keys.map((key) => reader.named(key)),
  };
}
