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

describe('context shared by all of a server\'s tools', () => {
  const tools: ToolInput[] = [
    { name: 'fetch', source: 'mcp', owner: 'web', description: 'Fetch a URL.' },
    { name: 'screenshot', source: 'mcp', owner: 'web', description: 'Take a screenshot of a page.' },
    { name: 'search_results', source: 'mcp', owner: 'engine', description: 'Get the results of a web search query.' },
  ];
  const instructions = 'Use this server to fetch search results, query search engines and page through results of any search.';

  it('cannot lift one of its tools over a better match elsewhere', () => {
    const catalog = createCatalog(tools);
    catalog.setOwnerContext({ source: 'mcp', owner: 'web', text: instructions });
    expect(ids(catalog.search('fetch the search results', { limit: 3 }))[0]).toBe('mcp:engine:search_results');
    expect(ids(catalog.search('search results of a query', { limit: 3 }))[0]).toBe('mcp:engine:search_results');
  });

  it('still finds its tools, below every tool their own text finds', () => {
    const catalog = createCatalog(tools);
    catalog.setOwnerContext({ source: 'mcp', owner: 'web', text: instructions });
    const hits = ids(catalog.search('page through search engines', { limit: 3 }));
    expect(hits[0]).toBe('mcp:engine:search_results');
    expect(hits.slice(1).sort()).toEqual(['mcp:web:fetch', 'mcp:web:screenshot']);
  });
});
