/**
 * @tool-search/catalog/wordnet: a general-language thesaurus derived from WordNet 3.1, kept out of the package
 * root so that only a caller who imports it loads its table. Adding an export here makes it public API.
 */
export { wordnetThesaurus } from './wordnet-thesaurus.js';
export type { Thesaurus } from '../types.js';
