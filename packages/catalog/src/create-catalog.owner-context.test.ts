import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import type { ToolInput } from './types.js';

const TOOLS: ToolInput[] = [
  { name: 'query', source: 'mcp', owner: 'db', description: 'Run a query.' },
  { name: 'search', source: 'mcp', owner: 'web', description: 'Run a search.' },
  { name: 'fetch', source: 'mcp', owner: 'web', description: 'Fetch a URL.' },
];
const INSTRUCTIONS = 'This server reads the PostgreSQL warehouse. Use it for revenue and sales figures.';
const ids = (hits: Array<{ id: string }>) => hits.map((hit) => hit.id);

describe('catalog.setOwnerContext', () => {
  it('makes words of the server instructions find its tools', () => {
    const catalog = createCatalog(TOOLS);
    expect(catalog.search('postgresql revenue')).toEqual([]);
    catalog.setOwnerContext({ source: 'mcp', owner: 'db', text: INSTRUCTIONS });
    expect(ids(catalog.search('postgresql revenue'))).toEqual(['mcp:db:query']);
  });

  it('weighs context below the tool text itself', () => {
    const catalog = createCatalog(TOOLS);
    catalog.setOwnerContext({ source: 'mcp', owner: 'db', text: 'Search the warehouse.' });
    expect(ids(catalog.search('search'))).toEqual(['mcp:web:search', 'mcp:db:query']);
  });

  it('applies to tools the owner adds later, and an empty text removes it', () => {
    const catalog = createCatalog(TOOLS);
    catalog.setOwnerContext({ source: 'mcp', owner: 'db', text: INSTRUCTIONS });
    catalog.add([{ name: 'schema', source: 'mcp', owner: 'db', description: 'Describe a table.' }]);
    expect(ids(catalog.search('postgresql revenue'))).toEqual(['mcp:db:query', 'mcp:db:schema']);
    catalog.setOwnerContext({ source: 'mcp', owner: 'db', text: '' });
    expect(catalog.search('postgresql revenue')).toEqual([]);
  });

  it('ranks as a catalog built with the context from the start, also through a view that caught up', () => {
    const catalog = createCatalog(TOOLS);
    const view = catalog.view((tool) => tool.id !== 'mcp:web:fetch');
    expect(view.size).toBe(2);
    catalog.setOwnerContext({ source: 'mcp', owner: 'web', text: 'Search the public web and fetch pages; run queries against search engines.' });
    const alone = createCatalog(TOOLS.filter((tool) => tool.name !== 'fetch'));
    alone.setOwnerContext({ source: 'mcp', owner: 'web', text: 'Search the public web and fetch pages; run queries against search engines.' });
    for (const query of ['run a query', 'search engines', 'public web pages']) expect(view.search(query)).toEqual(alone.search(query));
  });

  it('throws invalid_options for an unknown source or an owner that is not an owner name', () => {
    const catalog = createCatalog(TOOLS);
    expect(() => catalog.setOwnerContext({ source: 'ftp' as never, owner: 'db', text: 'x' })).toThrow(expect.objectContaining({ code: 'invalid_options', path: 'source' }));
    expect(() => catalog.setOwnerContext({ source: 'mcp', owner: 'a b', text: 'x' })).toThrow(expect.objectContaining({ code: 'invalid_options', path: 'owner' }));
    expect(() => catalog.setOwnerContext({ source: 'mcp', owner: 'db', text: 42 as never })).toThrow(expect.objectContaining({ code: 'invalid_options', path: 'text' }));
  });
});
