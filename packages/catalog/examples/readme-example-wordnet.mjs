// With the WordNet thesaurus: a separate entry point, so its 1.4 MB table loads only where it is imported.
import { createCatalog } from '@tool-search/catalog';
import { wordnetThesaurus } from '@tool-search/catalog/wordnet';

const tools = [
  { name: 'move_page', source: 'mcp', owner: 'wiki', description: 'Move a page to another parent page.' },
  { name: 'delete_page', source: 'mcp', owner: 'wiki', description: 'Delete a page.' },
];
const catalog = createCatalog(tools, { thesaurus: wordnetThesaurus() });
// "relocate" is in no tool: the search also tries its synonyms (move, transfer, …).
console.log(catalog.search('relocate this wiki doc under Archive').map((hit) => hit.name));
console.log(createCatalog(tools).search('relocate this wiki doc under Archive').map((hit) => hit.name)); // without it
