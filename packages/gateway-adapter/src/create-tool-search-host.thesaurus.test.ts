// The host's default thesaurus: a `tool_search` whose own words answer it weakly reads WordNet relatives of the
// words no tool has; `thesaurus: false` searches without; a strong answer is the same either way.
import { describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';

const run = () => ({ ok: true });
const TOOLS: ExecutableTool[] = [
  { name: 'create_entities', owner: 'memory', description: 'Create multiple new entities in the knowledge graph.', execute: run },
  { name: 'add_observations', owner: 'memory', description: 'Add new observations to existing entities in the knowledge graph.', execute: run },
  { name: 'read_graph', owner: 'memory', description: 'Read the entire knowledge graph.', execute: run },
  { name: 'move_page', owner: 'notion', description: 'Move a page under another parent page.', execute: run },
  { name: 'get_forecast', owner: 'weather', description: 'Weather forecast for a city.', execute: run },
  { name: 'take_screenshot', owner: 'browser', description: 'Take a screenshot of the page.', execute: run },
];
const MEMORY_WRITES = ['openclaw:memory:create_entities', 'openclaw:memory:add_observations'];

async function answer(options: { thesaurus?: false }, query: string): Promise<{ ids: string[]; evidence: unknown }> {
  const host: ToolSearchHost = await createToolSearchHost({ sources: { openclaw: TOOLS }, ...options });
  try {
    const session = await host.openSession({ config: { mode: 'tools' } });
    const outcome = await session.execute({ name: 'tool_search', args: { query }, toolCallId: 't1' });
    await session.close();
    expect(outcome.status).toBe('ok');
    const result = (outcome as { result: unknown }).result;
    const hits = (Array.isArray(result) ? result : (result as { hits: unknown[] }).hits) as Array<{ id: string }>;
    return { ids: hits.map((hit) => hit.id), evidence: Array.isArray(result) ? 'strong' : (result as { evidence?: unknown }).evidence };
  } finally {
    await host.close();
  }
}

describe('createToolSearchHost: the default thesaurus', () => {
  it('finds the memory server for "remember that alice likes tea", which no tool words', async () => {
    const withDefault = await answer({}, 'remember that alice likes tea');
    // In this small catalog "remember" reaches the knowledge graph's words (over realmcp's 322 tools it does not).
    expect(withDefault.ids.slice(0, 2).some((id) => MEMORY_WRITES.includes(id))).toBe(true);
    expect(withDefault.ids.slice(0, 3).every((id) => id.startsWith('openclaw:memory:'))).toBe(true);
    const without = await answer({ thesaurus: false }, 'remember that alice likes tea');
    expect(without.ids.some((id) => MEMORY_WRITES.includes(id))).toBe(false);
  });

  it('answers a query its own words answer the same with and without it', async () => {
    const query = 'take a screenshot of the page, relocate';
    const withDefault = await answer({}, query);
    expect(withDefault.ids[0]).toBe('openclaw:browser:take_screenshot');
    expect(withDefault).toEqual(await answer({ thesaurus: false }, query));
  });
});
