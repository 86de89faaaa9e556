import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import type { ToolInput } from './types.js';

const t = (owner: string, name: string, description: string): ToolInput => ({ source: 'mcp', owner, name, description });
const TOOLS: ToolInput[] = [
  t('everything', 'echo', 'Echoes back the input string.'),
  t('everything', 'get-sum', 'Returns the sum of two numbers.'),
  t('memory', 'search_nodes', 'Search the knowledge graph for nodes.'),
  t('memory', 'delete_entities', 'Delete entities from the knowledge graph.'),
  t('sentry', 'search_issues', 'Search issues in a project.'),
  t('github', 'search_issues', 'Search issues across repositories.'),
];

/** The name and server factor `explain` gives the first hit of `owner` for `query`. */
function serverFactor(query: string, owner: string): number | undefined {
  const catalog = createCatalog(TOOLS);
  return catalog.explain(query, { limit: 10 }).hits.find((hit) => hit.owner === owner)?.naming;
}

describe('a server named in the request', () => {
  it('lifts its tools only when the request writes its name as a server\'s', () => {
    expect(serverFactor('everything: echo this back', 'everything')).toBeGreaterThanOrEqual(1.5);
    expect(serverFactor('forget everything about bob', 'everything')).toBe(1);
    expect(serverFactor('search my memory for bob', 'memory')).toBeGreaterThanOrEqual(1.5);
    expect(serverFactor('search for a memory leak issue', 'memory')).toBeLessThan(1.5);
    expect(serverFactor('look up the crash issues in Sentry', 'sentry')).toBeGreaterThanOrEqual(1.5);
    expect(serverFactor('search issues with the sentry server', 'sentry')).toBeGreaterThanOrEqual(1.5);
    expect(serverFactor('github search issues', 'github')).toBeGreaterThanOrEqual(1.5);
  });

  it('puts the named server\'s tool first where two servers have the same tool', () => {
    const catalog = createCatalog(TOOLS);
    expect(catalog.search('search issues on github', { limit: 1 })[0]?.id).toBe('mcp:github:search_issues');
    expect(catalog.search('search issues in Sentry', { limit: 1 })[0]?.id).toBe('mcp:sentry:search_issues');
  });
});
