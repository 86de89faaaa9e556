import { describe, expect, it } from 'vitest';
import type { ServerMap, ToolDescriptor } from '../types.js';
import { buildServerMap, SERVERS_PER_PAGE, type BuildServerMapOptions, type OwnerOutline } from './build-server-map.js';

const owner = (name: string, toolCount: number, summary = `tools of ${name}`): OwnerOutline => ({
  source: 'mcp',
  owner: name,
  summary,
  tools: Array.from({ length: toolCount }, (_, index) => ({ id: `mcp:${name}:${name}_tool_${index}`, name: `${name}_tool_${index}` }) as ToolDescriptor),
});
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const options = (overrides: Partial<BuildServerMapOptions<'offset'>> = {}): BuildServerMapOptions<'offset'> => ({
  maxBytes: 8_192,
  offset: 0,
  maxServers: SERVERS_PER_PAGE,
  preferred: [],
  leaveOut: [],
  starting: [],
  offsetKey: 'offset',
  ...overrides,
});
const owners = (map: { servers: Array<{ owner: string }> }) => map.servers.map((entry) => entry.owner);

describe('buildServerMap ranking', () => {
  it('puts the owners of the hits first in hit order, then owners the query names, then the rest by size', () => {
    const outline = [owner('alpha', 3), owner('beta', 9), owner('github', 1), owner('omega', 5), owner('zeta', 2)];
    const map = buildServerMap(outline, options({ query: 'open a github issue', hitServers: ['mcp:zeta', 'mcp:alpha', 'mcp:zeta'] }));
    expect(owners(map)).toEqual(['zeta', 'alpha', 'github', 'beta', 'omega']);
  });

  it('ranks the hits\' owners by the reciprocal ranks of their hits: three middling hits outweigh a lone first one', () => {
    const outline = [owner('late', 3), owner('lone', 3), owner('steady', 3)];
    // steady: 1/2 + 1/3 + 1/4 = 1.08 > lone: 1; late: 1/5.
    expect(owners(buildServerMap(outline, options({ hitServers: ['mcp:lone', 'mcp:steady', 'mcp:steady', 'mcp:steady', 'mcp:late'] })))).toEqual(['steady', 'lone', 'late']);
    // Equal votes keep the order of the first hit.
    expect(owners(buildServerMap(outline, options({ hitServers: ['mcp:late', 'mcp:lone'] }))).slice(0, 2)).toEqual(['late', 'lone']);
  });

  it('orders by size, ties by <source>:<owner>, without a query: never alphabetically first', () => {
    expect(owners(buildServerMap([owner('a', 2), owner('b', 2), owner('c', 7)], options()))).toEqual(['c', 'a', 'b']);
  });

  it('shows a starting owner as starting after the ranked tiers and before the rest, and an owner with tools as usual', () => {
    const starting = [{ source: 'mcp' as const, owner: 'github' }, { source: 'mcp' as const, owner: 'alpha' }, { source: 'mcp' as const, owner: 'github' }];
    const map = buildServerMap([owner('alpha', 3), owner('beta', 9)], options({ starting, hitServers: ['mcp:alpha'] }));
    expect(map.servers.map((entry) => [entry.owner, entry.state ?? 'ready'])).toEqual([
      ['alpha', 'ready'],
      ['github', 'starting'],
      ['beta', 'ready'],
    ]);
    expect(map.servers[1]).toEqual({ source: 'mcp', owner: 'github', summary: '', toolCount: 0, tools: [], state: 'starting' });
  });
});

describe('buildServerMap paging', () => {
  it('counts every byte of the page, omitted and next included', () => {
    // 120 owners of long summaries: the budget, not the page size, decides; the digits of omitted count.
    const outline = Array.from({ length: 120 }, (_, index) => owner(`server-${String(index).padStart(3, '0')}`, 1, 'x'.repeat(100)));
    for (const maxBytes of [300, 600, 1_000, 2_048, 4_096]) {
      const map = buildServerMap(outline, options({ maxBytes, query: 'find things' }));
      expect(bytes(map)).toBeLessThanOrEqual(maxBytes);
      expect(map.omitted).toBe(120 - map.servers.length);
      expect(map.next).toEqual({ query: 'find things', offset: map.servers.length });
    }
  });

  it('stops at maxServers and fills the rest of the budget with tool names, one per owner in turn', () => {
    const outline = Array.from({ length: 50 }, (_, index) => owner(`s${String(index).padStart(2, '0')}`, 4));
    const map = buildServerMap(outline, options());
    expect(map.servers.length).toBe(SERVERS_PER_PAGE);
    const listed = map.servers.map((entry) => entry.tools.length);
    expect(Math.max(...listed) - Math.min(...listed)).toBeLessThanOrEqual(1);
    expect(map.servers[0]?.tools[0]).toBe('s00_tool_0');
    expect(buildServerMap(outline, options({ maxServers: 3 })).servers).toHaveLength(3);
  });

  it('visits every owner once by following next, and names its offset as asked', () => {
    const outline = Array.from({ length: 75 }, (_, index) => owner(`o${index}`, 1 + (index % 5)));
    const seen: string[] = [];
    let offset: number | undefined = 0;
    let pages = 0;
    while (offset !== undefined) {
      const map: ServerMap<'servers_offset'> = buildServerMap(outline, { ...options({ offset, maxBytes: 1_500 }), offsetKey: 'servers_offset' });
      seen.push(...owners(map));
      offset = map.next?.servers_offset;
      pages += 1;
    }
    expect(seen.sort()).toEqual(outline.map((entry) => entry.owner).sort());
    expect(pages).toBeGreaterThan(1);
    expect(buildServerMap(outline, options({ offset: 80 }))).toEqual({ servers: [], omitted: 0 });
  });

  it('lists preferred tools first and leaves out the names it is asked to, the counts unchanged', () => {
    const map = buildServerMap([owner('alpha', 4)], options({ preferred: ['mcp:alpha:alpha_tool_3'], leaveOut: ['mcp:alpha:alpha_tool_0'] }));
    expect(map.servers[0]).toMatchObject({ toolCount: 4, tools: ['alpha_tool_3', 'alpha_tool_1', 'alpha_tool_2'] });
  });
});
