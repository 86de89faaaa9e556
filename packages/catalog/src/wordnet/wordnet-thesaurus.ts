// The WordNet thesaurus: the generated table, parsed into a map on first use (once per process), so importing
// it costs nothing until a catalog searches with it.
import type { Thesaurus } from '../types.js';
import { WORDNET_TABLE } from './wordnet-table.js';

let parsed: Map<string, readonly string[]> | undefined;

function table(): Map<string, readonly string[]> {
  if (parsed !== undefined) return parsed;
  const map = new Map<string, readonly string[]>();
  let start = 0;
  while (start < WORDNET_TABLE.length) {
    let end = WORDNET_TABLE.indexOf('\n', start);
    if (end === -1) end = WORDNET_TABLE.length;
    const tab = WORDNET_TABLE.indexOf('\t', start);
    map.set(WORDNET_TABLE.slice(start, tab), WORDNET_TABLE.slice(tab + 1, end).split(' '));
    start = end + 1;
  }
  parsed = map;
  return map;
}

const WORDNET_THESAURUS: Thesaurus = Object.freeze({
  id: 'wordnet-3.1',
  related: (key: string) => table().get(key),
});

/**
 * A thesaurus derived from WordNet 3.1 (nouns and verbs: the synonyms and direct hypernyms of each word's first
 * two senses, and two-word verbs such as "kick off"), for `createCatalog(tools, { thesaurus })`. About 1.4 MB,
 * parsed on first use; WordNet's licence ships with the package (WORDNET-LICENSE).
 */
export function wordnetThesaurus(): Thesaurus {
  return WORDNET_THESAURUS;
}
