import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import type { ToolInput } from './types.js';

const schema = (...names: string[]) => ({ type: 'object', properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])) });
const TOOLS: ToolInput[] = [
  { source: 'mcp', owner: 'filesystem', name: 'read_file', description: 'Read the complete contents of a file from the file system.', inputSchema: schema('path') },
  { source: 'mcp', owner: 'desktop-commander', name: 'read_file', description: 'Read the contents of a file from the file system or a URL, with offset and length.', inputSchema: schema('path', 'offset', 'length') },
  { source: 'mcp', owner: 'github', name: 'get_file_contents', description: 'Get the contents of a file or directory from a GitHub repository.', inputSchema: schema('owner', 'repo', 'path') },
  // Same function, other names: a near-identical description and parameters.
  { source: 'mcp', owner: 'charts', name: 'billboard_hot_100', description: 'Get the Billboard Hot 100 chart for a week.', inputSchema: schema('week') },
  { source: 'mcp', owner: 'music-charts', name: 'hot_100', description: 'Get the Billboard Hot 100 chart for a given week.', inputSchema: schema('week') },
  // A shared generic name, not a shared function.
  { source: 'mcp', owner: 'slack', name: 'search', description: 'Search messages in Slack channels.', inputSchema: schema('query') },
  { source: 'mcp', owner: 'github', name: 'search', description: 'Search code across GitHub repositories.', inputSchema: schema('q') },
];

describe('near-duplicate tools across servers (alsoOn)', () => {
  it('shows a family on its first hit, with what differs, and leaves the ranking as it was', () => {
    const catalog = createCatalog(TOOLS);
    const hits = catalog.search('read file contents', { limit: 5 });
    const first = hits[0];
    expect(first?.name).toBe('read_file');
    const other = first?.owner === 'filesystem' ? 'mcp:desktop-commander:read_file' : 'mcp:filesystem:read_file';
    expect(first?.alsoOn).toEqual([{ id: other, differs: expect.stringMatching(/parameters length, offset/) }]);
    // The later member keeps its place and carries no family of its own.
    const later = hits.find((hit) => hit.id === other);
    expect(later).toBeDefined();
    expect(later?.alsoOn).toBeUndefined();
    expect(hits.find((hit) => hit.owner === 'github')?.alsoOn).toBeUndefined();
  });

  it('names a member that is not among the hits when it has the same name', () => {
    const catalog = createCatalog(TOOLS);
    const hits = catalog.search('read_file', { limit: 1 });
    expect(hits).toHaveLength(1);
    expect(hits[0]?.alsoOn?.map((member) => member.id)).toHaveLength(1);
  });

  it('joins tools of other names whose description and parameters are near-identical', () => {
    const hits = createCatalog(TOOLS).search('billboard hot 100 chart', { limit: 5 });
    const first = hits[0];
    expect(first?.alsoOn).toHaveLength(1);
    expect(first?.alsoOn?.[0]?.differs).toMatch(/^named /);
  });

  it('does not join tools that share only a generic name', () => {
    const hits = createCatalog(TOOLS).search('search', { limit: 5 });
    expect(hits.filter((hit) => hit.name === 'search')).toHaveLength(2);
    for (const hit of hits) expect(hit.alsoOn).toBeUndefined();
  });

  it('never names a member the view refuses', () => {
    const catalog = createCatalog(TOOLS);
    const view = catalog.view((tool) => tool.owner !== 'desktop-commander');
    const hits = view.search('read file contents', { limit: 5 });
    expect(JSON.stringify(hits)).not.toContain('desktop-commander');
    expect(hits.find((hit) => hit.name === 'read_file')?.alsoOn).toBeUndefined();
    const alone = createCatalog(TOOLS.filter((tool) => tool.owner !== 'desktop-commander'));
    expect(hits).toEqual(alone.search('read file contents', { limit: 5 }));
  });
});
