import type { SearchHit, ServerSummary } from '@tool-search/catalog';
import { describe, expect, it } from 'vitest';
import { renderWeakSearchAnswer, WEAK_ANSWER_BYTES, WEAK_GUESSES, WEAK_MAP_SERVERS } from './render-search-answer.js';

const server = (owner: string, toolCount: number): ServerSummary => ({
  source: 'mcp',
  owner,
  summary: `Tools of ${owner}.`,
  toolCount,
  tools: Array.from({ length: toolCount }, (_, index) => `${owner}_tool_${index}`),
});
const hit = (owner: string, index: number, description = `Does thing ${index} of ${owner}.`): SearchHit => ({
  id: `mcp:${owner}:${owner}_tool_${index}`,
  name: `${owner}_tool_${index}`,
  source: 'mcp',
  owner,
  description,
  input: '{ path: string }',
  score: 0.1,
});
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('renderWeakSearchAnswer', () => {
  it('leaves out of the map the names its guesses already show by id, and lists the next names of those servers instead', () => {
    // Two servers of 200 tools: the map cannot list them all, so every repeated name would cost one unseen name.
    const servers = [server('alpha', 200), server('beta', 200)];
    const hits = [hit('alpha', 0), hit('alpha', 1), hit('beta', 0), hit('alpha', 2), hit('beta', 1)];
    const answer = renderWeakSearchAnswer([{ query: 'do a thing', hits }], { single: true, map: { servers, hitServers: hits.map((entry) => `mcp:${entry.owner}`) } });
    expect(answer.hits?.map((guess) => guess.id)).toEqual(hits.map((entry) => entry.id));
    const listed = answer.servers.servers.flatMap((entry) => entry.tools.map((name) => `mcp:${entry.owner}:${name}`));
    for (const guess of hits) expect(listed).not.toContain(guess.id);
    const alpha = answer.servers.servers.find((entry) => entry.owner === 'alpha');
    expect(alpha?.tools.slice(0, 2)).toEqual(['alpha_tool_3', 'alpha_tool_4']);
    expect(alpha?.toolCount).toBe(200);
    expect(bytes(answer)).toBeLessThanOrEqual(WEAK_ANSWER_BYTES);
  });

  it('keeps a tool of the same name on another server in the map (only the guessed server\'s copy is left out)', () => {
    const twin = (owner: string): ServerSummary => ({ source: 'mcp', owner, summary: `Tools of ${owner}.`, toolCount: 2, tools: ['read_file', 'write_file'] });
    const guess: SearchHit = { id: 'mcp:one:read_file', name: 'read_file', source: 'mcp', owner: 'one', description: 'Reads a file.', input: '{ path: string }', score: 0.1 };
    const answer = renderWeakSearchAnswer([{ query: 'read it', hits: [guess] }], { single: true, map: { servers: [twin('one'), twin('two')], hitServers: ['mcp:one'] } });
    expect(answer.servers.servers.map((entry) => [entry.owner, entry.tools])).toEqual([
      ['one', ['write_file']],
      ['two', ['read_file', 'write_file']],
    ]);
  });

  it('stays within WEAK_ANSWER_BYTES with long guesses, batches and many large servers', () => {
    const long = 'word '.repeat(200);
    for (const serverCount of [1, 4, 21, 120]) {
      const servers = Array.from({ length: serverCount }, (_, index) => server(`server-${index}`, 10 + index * 7));
      for (const single of [true, false]) {
        const searches = [0, 1, 2].map((search) => ({ query: `request ${search} ${long.slice(0, 80)}`, hits: Array.from({ length: WEAK_GUESSES + 3 }, (_, index) => ({ ...hit(`server-${index % serverCount}`, index, long), input: `{ ${'field: string; '.repeat(20)} }` })) }));
        const answer = renderWeakSearchAnswer(single ? searches.slice(0, 1) : searches, { single, map: { servers, hitServers: [] } });
        expect(bytes(answer)).toBeLessThanOrEqual(WEAK_ANSWER_BYTES);
        expect(answer.servers.servers.length).toBeGreaterThan(0);
        expect(answer.servers.servers.length).toBeLessThanOrEqual(WEAK_MAP_SERVERS);
      }
    }
  });
});
