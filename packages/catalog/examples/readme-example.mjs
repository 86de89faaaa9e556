// npm install @tool-search/catalog   (Node >= 20), then: node readme-example.mjs
import { createCatalog } from '@tool-search/catalog';

const catalog = createCatalog([
  { name: 'create_issue', source: 'mcp', owner: 'github', description: 'Create a new issue in a GitHub repository.',
    inputSchema: { type: 'object', properties: { owner: { type: 'string' }, repo: { type: 'string' }, title: { type: 'string' } }, required: ['owner', 'repo', 'title'] } },
  { name: 'delete_file', source: 'openclaw', owner: 'core', description: 'Delete a file from the workspace.' },
]);

const [hit] = catalog.search('remove a file', { limit: 3 });
console.log(hit.id, hit.description); // also name, source, owner, input (compact), score
const typo = catalog.describe('mcp:github:create_isue');
console.log(typo.found, typo.reason, typo.suggestions);
