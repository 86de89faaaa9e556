import type { ServerSummary } from '@tool-search/catalog';
import { describe, expect, it } from 'vitest';
import { pageServerMap, rankServers, SERVERS_PER_PAGE } from './page-server-map.js';

const server = (owner: string, toolCount: number, summary = `tools of ${owner}`): ServerSummary => ({
  source: 'mcp',
  owner,
  summary,
  toolCount,
  tools: Array.from({ length: toolCount }, (_, index) => `${owner}_tool_${index}`),
});
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('rankServers', () => {
  it('puts the servers of the hits first in hit order, then servers the query names, then the rest by size', () => {
    const servers = [server('alpha', 3), server('beta', 9), server('github', 1), server('zeta', 2), server('omega', 5)];
    const ranked = rankServers(servers, { query: 'open a github issue', hitServers: ['mcp:zeta', 'mcp:alpha', 'mcp:zeta'] });
    expect(ranked.map((entry) => entry.owner)).toEqual(['zeta', 'alpha', 'github', 'beta', 'omega']);
  });

  it('ranks the hits\' servers by the reciprocal ranks of their hits: three middling hits outweigh a lone first one', () => {
    const servers = [server('lone', 3), server('steady', 3), server('late', 3)];
    // steady: 1/2 + 1/3 + 1/4 = 1.08 > lone: 1; late: 1/5.
    const ranked = rankServers(servers, { hitServers: ['mcp:lone', 'mcp:steady', 'mcp:steady', 'mcp:steady', 'mcp:late'] });
    expect(ranked.map((entry) => entry.owner)).toEqual(['steady', 'lone', 'late']);
    // Equal votes keep the order of the first hit.
    expect(rankServers(servers, { hitServers: ['mcp:late', 'mcp:lone'] }).map((entry) => entry.owner).slice(0, 2)).toEqual(['late', 'lone']);
  });

  it('orders by size, ties by name, without a query', () => {
    const ranked = rankServers([server('b', 2), server('a', 2), server('c', 7)]);
    expect(ranked.map((entry) => entry.owner)).toEqual(['c', 'a', 'b']);
  });
});

describe('pageServerMap', () => {
  it('counts every byte of the page, omitted and next included', () => {
    // 120 servers of long summaries: the budget, not the page size, decides; the digits of omitted count.
    const ranked = Array.from({ length: 120 }, (_, index) => server(`server-${index}`, 1, 'x'.repeat(100)));
    for (const maxBytes of [600, 1_000, 2_048, 4_096]) {
      const page = pageServerMap(ranked, { maxBytes, query: 'find things' });
      expect(bytes(page)).toBeLessThanOrEqual(maxBytes);
      expect(page.omitted).toBe(120 - page.servers.length);
      expect(page.next).toEqual({ query: 'find things', servers_offset: page.servers.length });
    }
  });

  it('stops at SERVERS_PER_PAGE servers and fills the rest of the budget with tool names, one per server in turn', () => {
    const ranked = Array.from({ length: 50 }, (_, index) => server(`s${index}`, 4));
    const page = pageServerMap(ranked, { maxBytes: 8_192 });
    expect(page.servers.length).toBe(SERVERS_PER_PAGE);
    const listed = page.servers.map((entry) => entry.tools.length);
    expect(Math.max(...listed) - Math.min(...listed)).toBeLessThanOrEqual(1);
    expect(page.servers[0]?.tools[0]).toBe('s0_tool_0');
  });
});
