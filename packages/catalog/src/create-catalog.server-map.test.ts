import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import type { ToolInput } from './types.js';

const memory: ToolInput[] = [
  { name: 'create_entities', source: 'mcp', owner: 'memory', description: 'Create multiple new entities in the knowledge graph' },
  { name: 'add_observations', source: 'mcp', owner: 'memory', description: 'Add new observations to existing entities in the knowledge graph' },
  { name: 'read_graph', source: 'mcp', owner: 'memory', description: 'Read the entire knowledge graph' },
];
const files: ToolInput[] = [
  { name: 'read_file', source: 'mcp', owner: 'filesystem', description: 'Read the complete contents of a file from the file system' },
  { name: 'write_file', source: 'mcp', owner: 'filesystem', description: 'Create a new file or overwrite an existing file with new content' },
];

describe('catalog.searchWithEvidence', () => {
  it('calls a search with no hit weak', () => {
    const catalog = createCatalog([...memory, ...files]);
    expect(catalog.searchWithEvidence('zzzz qqqq')).toEqual({ hits: [], evidence: 'weak', coverage: 0, strength: 0 });
  });

  it('calls a hit that matches one stray word of a long request weak, and one that matches the request strong', () => {
    const catalog = createCatalog([...memory, ...files]);
    const stray = catalog.searchWithEvidence('remember that alice from accounting likes green tea with new honey');
    expect(stray.hits.length).toBeGreaterThan(0);
    expect(stray.evidence).toBe('weak');
    const strong = catalog.searchWithEvidence('read file contents');
    expect(strong.evidence).toBe('strong');
    expect(strong.hits[0]?.id).toBe('mcp:filesystem:read_file');
    expect(strong.coverage).toBeGreaterThanOrEqual(0.5);
  });

  it('calls an exact name strong', () => {
    const catalog = createCatalog([...memory, ...files]);
    expect(catalog.searchWithEvidence('read_graph')).toMatchObject({ evidence: 'strong', coverage: 1 });
  });
});

describe('catalog.search within one server', () => {
  it('ranks only that server\'s tools, with the scores of the whole search', () => {
    const catalog = createCatalog([...memory, ...files]);
    const whole = catalog.search('read the file or the graph', { limit: 10 });
    const within = catalog.search('read the file or the graph', { server: 'mcp:memory' });
    expect(within.map((hit) => hit.id)).toEqual(whole.filter((hit) => hit.owner === 'memory').map((hit) => hit.id));
    expect(within[0]).toEqual(whole.find((hit) => hit.owner === 'memory'));
    // An exact name of another server is not "within"; a server nobody has, no hits; a limit holds.
    expect(catalog.search('read_file', { server: 'mcp:memory' }).some((hit) => hit.id === 'mcp:filesystem:read_file')).toBe(false);
    expect(catalog.search('read file', { server: 'mcp:nobody' })).toEqual([]);
    expect(catalog.search('read', { server: 'mcp:memory', limit: 1 })).toHaveLength(1);
    expect(() => catalog.search('read', { server: 42 as unknown as string })).toThrow(/Invalid search server/);
  });

  it('says how many of the server\'s tools the words match, beyond the limit, and none without a server', () => {
    const catalog = createCatalog([...memory, ...files]);
    // Every memory tool says "graph"; only two filesystem tools exist and neither does.
    const within = catalog.searchWithEvidence('knowledge graph', { server: 'mcp:memory', limit: 1 });
    expect(within.hits).toHaveLength(1);
    expect(within.matched).toBe(3);
    expect(catalog.searchWithEvidence('knowledge graph', { server: 'mcp:filesystem' }).matched).toBe(0);
    expect(catalog.searchWithEvidence('knowledge graph')).not.toHaveProperty('matched');
  });

  it('answers a view\'s refused server with no hits', () => {
    const view = createCatalog([...memory, ...files]).view((tool) => tool.owner !== 'memory');
    expect(view.searchWithEvidence('knowledge graph', { server: 'mcp:memory' })).toEqual({ hits: [], evidence: 'weak', coverage: 0, strength: 0, matched: 0 });
  });
});

describe('catalog.servers', () => {
  it('lists each owner with its context sentence or its characteristic words, and its tool names', () => {
    const catalog = createCatalog([...memory, ...files]);
    catalog.setOwnerContext({ source: 'mcp', owner: 'memory', text: 'A knowledge graph memory for facts about people. Use it to remember.' });
    const map = catalog.servers();
    expect(map.omitted).toBe(0);
    // By size without a query: memory has 3 tools, filesystem 2.
    expect(map.servers.map((server) => server.owner)).toEqual(['memory', 'filesystem']);
    expect(map.servers[0]).toEqual({
      source: 'mcp',
      owner: 'memory',
      summary: 'A knowledge graph memory for facts about people.',
      toolCount: 3,
      tools: ['add_observations', 'create_entities', 'read_graph'],
    });
    expect(map.servers[1]?.summary).toMatch(/^Tools such as [\w, ]+\.$/);
    expect(map.servers[1]?.summary).toContain('file');
  });

  it('reads a context past its markdown headings, and a heading alone when it says more than the server\'s name', () => {
    const catalog = createCatalog([...memory, ...files]);
    catalog.setOwnerContext({ source: 'mcp', owner: 'memory', text: '# Memory Server\n\nStores facts as a graph. More here.' });
    catalog.setOwnerContext({ source: 'mcp', owner: 'filesystem', text: '## Local Disk' });
    expect(catalog.servers().servers.map((server) => server.summary)).toEqual(['Stores facts as a graph.', 'Local Disk']);
    catalog.setOwnerContext({ source: 'mcp', owner: 'filesystem', text: '## Files' });
    expect(catalog.servers().servers[1]?.summary).toMatch(/^Tools such as /);
  });

  it('stays within its byte budget, cutting tool names first, then owners, and gives the same bytes again', () => {
    const many: ToolInput[] = Array.from({ length: 60 }, (_, i) => ({ name: `tool_number_${i}`, source: 'mcp' as const, owner: `server${i % 6}`, description: `does thing ${i}` }));
    const catalog = createCatalog(many);
    const map = catalog.servers({ maxBytes: 900 });
    expect(Buffer.byteLength(JSON.stringify(map))).toBeLessThanOrEqual(900);
    expect(map.servers.length).toBe(6);
    expect(map.servers.every((server) => server.tools.length < server.toolCount)).toBe(true);
    expect(JSON.stringify(catalog.servers({ maxBytes: 900 }))).toBe(JSON.stringify(map));
    const tiny = catalog.servers({ maxBytes: 256 });
    expect(tiny.omitted).toBeGreaterThan(0);
    expect(Buffer.byteLength(JSON.stringify(tiny))).toBeLessThanOrEqual(256);
  });

  it('counts omitted and next in its byte budget, at every budget', () => {
    // 150 owners: omitted has three digits, which the budget must hold too.
    const many: ToolInput[] = Array.from({ length: 150 }, (_, i) => ({ name: `tool_${i}`, source: 'mcp' as const, owner: `server${i}`, description: `does thing ${i}` }));
    const catalog = createCatalog(many);
    for (let maxBytes = 256; maxBytes <= 1_200; maxBytes += 7) {
      const map = catalog.servers({ maxBytes });
      expect(Buffer.byteLength(JSON.stringify(map))).toBeLessThanOrEqual(maxBytes);
      expect(map.omitted).toBe(150 - map.servers.length);
    }
  });

  it('pages the whole map: servers(page.next) gives the next page, and every owner is shown once', () => {
    const many: ToolInput[] = Array.from({ length: 90 }, (_, i) => ({ name: `tool_${i}`, source: 'mcp' as const, owner: `server${i % 45}`, description: `does thing ${i}` }));
    const catalog = createCatalog(many);
    const seen: string[] = [];
    let page = catalog.servers({ query: 'thing' });
    seen.push(...page.servers.map((server) => server.owner));
    while (page.next !== undefined) {
      expect(page.next.query).toBe('thing');
      page = catalog.servers(page.next);
      seen.push(...page.servers.map((server) => server.owner));
    }
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
  });

  it('puts the owners of a query\'s hits first, then the owners it names, whatever their place in the alphabet', () => {
    const catalog = createCatalog([
      ...memory,
      ...files,
      { name: 'suggest_move', source: 'mcp', owner: 'zz-chess', description: 'Suggest the best chess move for a board position' },
      { name: 'get_forecast', source: 'mcp', owner: 'zz-weather', description: 'Get the weather forecast for a city' },
    ]);
    expect(catalog.servers({ query: 'which chess move is best' }).servers[0]?.owner).toBe('zz-chess');
    expect(catalog.servers({ query: 'what can zz-weather do' }).servers[0]?.owner).toBe('zz-weather');
    expect(catalog.servers().servers.map((server) => server.owner).slice(0, 2)).toEqual(['memory', 'filesystem']);
  });

  it('lists the tools nearest a query first within each owner', () => {
    const catalog = createCatalog([...memory, ...files]);
    const map = catalog.servers({ query: 'add observations' });
    expect(map.servers.find((server) => server.owner === 'memory')?.tools[0]).toBe('add_observations');
  });

  it('rejects a budget below 256 bytes', () => {
    expect(() => createCatalog(memory).servers({ maxBytes: 10 })).toThrow(/maxBytes 10/);
  });

  it('shows a view only its admitted tools and owners, and words of those tools alone', () => {
    const catalog = createCatalog([...memory, ...files]);
    const view = catalog.view((tool) => tool.name !== 'write_file' && tool.owner !== 'memory');
    const map = view.servers();
    expect(map.servers).toHaveLength(1);
    expect(map.servers[0]?.tools).toEqual(['read_file']);
    expect(JSON.stringify(map)).not.toMatch(/memory|overwrite|write/);
  });
});

describe('catalog.browse', () => {
  it('pages through one server\'s tools by name', () => {
    const catalog = createCatalog([...memory, ...files]);
    const first = catalog.browse('memory', { limit: 2 });
    expect(first).toMatchObject({ found: true, owner: 'memory', toolCount: 3, offset: 0, nextOffset: 2 });
    expect(first.found && first.tools.map((tool) => tool.name)).toEqual(['add_observations', 'create_entities']);
    const second = catalog.browse('mcp:memory', { offset: 2, limit: 2 });
    expect(second.found && second.tools.map((tool) => tool.id)).toEqual(['mcp:memory:read_graph']);
    expect(second.found && second.nextOffset).toBeUndefined();
  });

  it('answers an unknown or refused server as a miss with near names', () => {
    const catalog = createCatalog([...memory, ...files]);
    expect(catalog.browse('memroy')).toMatchObject({ found: false, reason: 'unknown', suggestions: ['mcp:memory'] });
    const view = catalog.view((tool) => tool.owner !== 'memory');
    expect(view.browse('memory')).toEqual({ found: false, reason: 'unknown', message: 'No server "memory" here.', suggestions: [] });
  });

  it('rejects a negative offset', () => {
    expect(() => createCatalog(memory).browse('memory', { offset: -1 })).toThrow(/offset -1/);
  });
});
