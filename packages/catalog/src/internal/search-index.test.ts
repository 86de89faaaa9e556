import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../types.js';
import { DEFAULT_RANKING, SearchIndex } from './search-index.js';

function tool(name: string, description: string): ToolDescriptor {
  return { id: `mcp:x:${name}`, name, source: 'mcp', owner: 'x', description, inputSchema: {}, trusted: false, tags: [] };
}

// Unrelated tools make the deploy words rare enough to outscore the hotel words without diversification.
const FILLER = ['email', 'calendar', 'invoice', 'weather', 'translate', 'stock', 'music', 'photo', 'note', 'recipe', 'flight', 'news'].map((word) =>
  tool(`get_${word}`, `Get the ${word}.`),
);
const TOOLS = [
  tool('deploy_application', 'Deploy a docker application.'),
  tool('deploy_service', 'Deploy a docker application service.'),
  tool('deploy_stack', 'Deploy a docker application stack.'),
  tool('reserve_room', 'Book a hotel.'),
  ...FILLER,
];
const QUERY = 'deploy the docker application, then book a hotel';

describe('SearchIndex.rank', () => {
  it('without diversification ranks near-duplicates of the first intent above the second intent', () => {
    const index = new SearchIndex({ ...DEFAULT_RANKING, coveredTermWeight: 1 });
    index.add(TOOLS);
    expect(index.rank(QUERY, 3).map((hit) => hit.id)).not.toContain('mcp:x:reserve_room');
  });

  it('with diversification gives the second intent a place in the top hits', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    index.add(TOOLS);
    const ids = index.rank(QUERY, 3).map((hit) => hit.id);
    expect(ids[0]).toBe('mcp:x:deploy_application');
    expect(ids).toContain('mcp:x:reserve_room');
  });

  it('returns scores that never increase down the list', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    index.add(TOOLS);
    const scores = index.rank(QUERY, 5).map((hit) => hit.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('prefers the exact word form over a word that only shares its stem', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    index.add([tool('a_tool', 'Manage the files.'), tool('b_tool', 'Manage the file.')]);
    expect(index.rank('files', 2).map((hit) => hit.id)).toEqual(['mcp:x:a_tool', 'mcp:x:b_tool']);
  });

  it('forgets a removed tool entirely', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    index.add(TOOLS);
    index.remove(['mcp:x:reserve_room']);
    expect(index.rank('hotel', 5)).toEqual([]);
    expect(index.size).toBe(TOOLS.length - 1);
  });
});

describe('SearchIndex.queryTerms', () => {
  it('keeps at most 32 prefix variants of a short query term, the closest first', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    index.add(Array.from({ length: 60 }, (_, i) => tool(`t${i}`, `pro${'x'.repeat(1 + (i % 50))}y${i}`)));
    const derived = index.queryTerms('pro').filter((entry) => !entry.original);
    expect(derived).toHaveLength(32);
  });

  it('reads only the first 4,000 characters of a query', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    index.add([tool('alpha', 'alpha'), tool('omega', 'omega')]);
    expect(index.queryTerms(`alpha ${'x '.repeat(2_100)}omega`).map((entry) => entry.term)).toEqual(['alpha']);
  });
});

describe('SearchIndex word pairs', () => {
  it('ranks a name with the query words near each other above one with the same words further apart', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    // Same words, same length: only the distance differs (and the id order favours the other one).
    index.add([tool('healthPlanDataStatistics', ''), tool('planDataHealthStatistics', ''), ...FILLER]);
    expect(index.rank('health statistics', 2).map((hit) => hit.id)).toEqual(['mcp:x:planDataHealthStatistics', 'mcp:x:healthPlanDataStatistics']);
  });

  it('pairs words up to two positions apart, in either order', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    // "health ... statistics" with one word between still pairs; three words between does not.
    index.add([tool('healthPlanDataStatistics', ''), tool('planHealthDataStatistics', ''), ...FILLER]);
    expect(index.rank('statistics health', 2).map((hit) => hit.id)).toEqual(['mcp:x:planHealthDataStatistics', 'mcp:x:healthPlanDataStatistics']);
  });

  it('with a window of 1 only adjacent words pair', () => {
    const index = new SearchIndex({ ...DEFAULT_RANKING, pairWindow: 1 });
    index.add([tool('healthPlanDataStatistics', ''), tool('planHealthDataStatistics', ''), ...FILLER]);
    expect(index.rank('health statistics', 2).map((hit) => hit.id)).toEqual(['mcp:x:healthPlanDataStatistics', 'mcp:x:planHealthDataStatistics']);
  });

  it('without pair scoring the same two tools tie and fall back to id order', () => {
    const index = new SearchIndex({ ...DEFAULT_RANKING, pairWeight: 0 });
    index.add([tool('healthPlanDataStatistics', ''), tool('planDataHealthStatistics', ''), ...FILLER]);
    expect(index.rank('health statistics', 2).map((hit) => hit.id)).toEqual(['mcp:x:healthPlanDataStatistics', 'mcp:x:planDataHealthStatistics']);
  });

  it('forgets the pairs of a removed tool, and a re-added tool scores as before', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    const near = tool('planDataHealthStatistics', '');
    index.add([tool('healthPlanDataStatistics', ''), near, ...FILLER]);
    const before = index.rank('health statistics', 2);
    index.remove([near.id]);
    expect(index.rank('health statistics', 2).map((hit) => hit.id)).toEqual(['mcp:x:healthPlanDataStatistics']);
    index.add([near]);
    expect(index.rank('health statistics', 2)).toEqual(before);
  });
});

describe('SearchIndex facets', () => {
  const annotated = (name: string, annotations: NonNullable<ToolDescriptor['annotations']>): ToolDescriptor => ({ ...tool(name, 'Manage a bucket.'), annotations });
  const TOOLS_WITH_HINTS = [annotated('bucket_a', { destructiveHint: true }), annotated('bucket_b', { readOnlyHint: true }), annotated('bucket_c', {})];

  it('puts a destructive tool first for a request to delete and a read-only one for a request to list', () => {
    const index = new SearchIndex({ ...DEFAULT_RANKING, facetBoost: 0.05 });
    index.add(TOOLS_WITH_HINTS);
    expect(index.rank('delete the bucket', 3).map((hit) => hit.id)).toEqual(['mcp:x:bucket_a', 'mcp:x:bucket_c', 'mcp:x:bucket_b']);
    expect(index.rank('list the bucket', 3).map((hit) => hit.id)).toEqual(['mcp:x:bucket_b', 'mcp:x:bucket_c', 'mcp:x:bucket_a']);
    expect(index.rank('the bucket', 3).map((hit) => hit.id)).toEqual(['mcp:x:bucket_a', 'mcp:x:bucket_b', 'mcp:x:bucket_c']);
  });
});

describe('SearchIndex joined identifiers', () => {
  it('matches the one-word spelling of a camelCase name', () => {
    const index = new SearchIndex({ ...DEFAULT_RANKING, joinedWeight: 1 });
    index.add([tool('search_videos', 'Search YouTube for videos.'), tool('search_tubes', 'Search the tube map.')]);
    expect(index.rank('youtube', 2).map((hit) => hit.id)).toEqual(['mcp:x:search_videos']);
  });
});

describe('SearchIndex joined identifiers in long queries', () => {
  it('keeps a query word that a tool has only as a split identifier', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    // Without the joined form the two tie and the id order picks GitLab's.
    index.add([tool('b_issue', 'Create an issue on GitHub.'), tool('a_issue', 'Create an issue on GitLab.'), ...FILLER]);
    expect(index.rank('please create a new issue for me on github about the crash', 1).map((hit) => hit.id)).toEqual(['mcp:x:b_issue']);
    expect(index.rank('github', 1).map((hit) => hit.id)).toEqual(['mcp:x:b_issue']);
  });
});

describe('SearchIndex typos in longer queries', () => {
  it('finds the word a misspelt one (one edit or two letters swapped) stands for', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    index.add([tool('wait_for', 'Wait for a text to appear on the page.'), tool('append_line', 'Append a line to a file.'), ...FILLER]);
    expect(index.rank('please wiat until the page is ready', 1).map((hit) => hit.id)).toEqual(['mcp:x:wait_for']);
    expect(index.rank('appned one more line to log.txt', 1).map((hit) => hit.id)).toEqual(['mcp:x:append_line']);
  });

  it('looks for the typo in the word as written when its stem is too short (maching: stem mach, matching one edit away)', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    index.add([tool('update_many', 'Update all documents that match the filter.'), tool('insert_many', 'Insert documents.'), tool('count', 'Count the documents.'), ...FILLER]);
    expect(index.queryTerms('set verified on all maching user documents').filter((entry) => entry.path === 'typo').map((entry) => entry.term)).toContain('match');
    expect(index.rank('set verified on all maching user documents', 1).map((hit) => hit.id)).toEqual(['mcp:x:update_many']);
    // At most four words of a query are looked for as written (each costs a few hundred stemmings): the first four.
    const five = new SearchIndex(DEFAULT_RANKING);
    five.add([tool('a', 'match'), tool('b', 'patch'), tool('c', 'batch'), tool('d', 'latch'), tool('e', 'hatch'), ...FILLER]);
    const typos = five.queryTerms('maching paching baching laching haching').filter((entry) => entry.path === 'typo').map((entry) => entry.term);
    expect(typos).toEqual(['match', 'patch', 'batch', 'latch']);
  });

  it('leaves a word that some tool has alone', () => {
    const index = new SearchIndex(DEFAULT_RANKING);
    index.add([tool('get_note', 'Get a note.'), tool('get_notes', 'Get the notes.'), tool('vote', 'Cast a vote.'), ...FILLER]);
    expect(index.queryTerms('please get the note for me now').map((entry) => entry.term)).not.toContain('vote');
  });
});

describe('SearchIndex.rank: names as evidence', () => {
  const owned = (owner: string, name: string, description: string): ToolDescriptor => ({ ...tool(name, description), id: `mcp:${owner}:${name}`, owner });

  it('multiplies a score by 1 + nameWeight × (share of the name the query covers)², owner words left out of the name', () => {
    const tools = [owned('fs', 'read_multiple_files', 'Read the contents of several files.'), owned('fs', 'fs_read_file', 'Read the contents of a file.'), ...FILLER];
    const scores = (nameWeight: number) => {
      const index = new SearchIndex({ ...DEFAULT_RANKING, coveredTermWeight: 1, nameWeight, ownerNamedWeight: 0 });
      index.add(tools);
      return new Map(index.rank('read file contents', 2).map((hit) => [hit.id, hit.score]));
    };
    const off = scores(0);
    const on = scores(0.3);
    // `fs_read_file`: "fs" is its owner's name, so "read file" is the whole name.
    expect((on.get('mcp:fs:fs_read_file') as number) / (off.get('mcp:fs:fs_read_file') as number)).toBeCloseTo(1.3, 6);
    expect((on.get('mcp:fs:read_multiple_files') as number) / (off.get('mcp:fs:read_multiple_files') as number)).toBeCloseTo(1 + 0.3 * (2 / 3) ** 2, 6);
  });

  it("lifts the tools of a server the query names (every word of the owner's name, or the name as one word)", () => {
    const tools = [
      owned('slack', 'slack_get_users', 'List all users in the workspace, with their profiles.'),
      owned('notion', 'get_users', 'List users.'),
      owned('desktop-commander', 'start_process', 'Start a program.'),
      owned('shell', 'run_program', 'Start a program and keep it running.'),
      ...FILLER,
    ];
    const index = new SearchIndex({ ...DEFAULT_RANKING, nameWeight: 0 });
    index.add(tools);
    const plain = new SearchIndex({ ...DEFAULT_RANKING, nameWeight: 0, ownerNamedWeight: 0 });
    plain.add(tools);
    expect(plain.rank('notion list workspace users', 1)[0]?.id).toBe('mcp:slack:slack_get_users');
    expect(index.rank('notion list workspace users', 1)[0]?.id).toBe('mcp:notion:get_users');
    expect(index.rank('desktopcommander start a program', 1)[0]?.id).toBe('mcp:desktop-commander:start_process');
    // One word of a two-word owner's name does not name it.
    const half = index.rank('command: start a program and keep it running', 2);
    expect(half[0]?.id).toBe('mcp:shell:run_program');
  });

  it('scales a tool whose name asks the opposite of the query by 1 - oppositeNameWeight, unless the query asks both', () => {
    const tools = [
      owned('shell', 'force_terminate', 'Force terminate a running terminal session.'),
      owned('shell', 'start_process', 'Start a terminal process for shell commands.'),
      ...FILLER,
    ];
    const scores = (oppositeNameWeight: number, query: string) => {
      const index = new SearchIndex({ ...DEFAULT_RANKING, coveredTermWeight: 1, nameWeight: 0, oppositeNameWeight });
      index.add(tools);
      return new Map(index.rank(query, 2).map((hit) => [hit.id, hit.score]));
    };
    const ratio = (id: string, query: string) => (scores(0.2, query).get(id) as number) / (scores(0, query).get(id) as number);
    // "run" asks to start; "terminal" is a word of its own, not "terminate".
    expect(ratio('mcp:shell:force_terminate', 'run terminal command')).toBeCloseTo(0.8, 6);
    expect(ratio('mcp:shell:start_process', 'run terminal command')).toBeCloseTo(1, 6);
    expect(ratio('mcp:shell:start_process', 'terminate the terminal session')).toBeCloseTo(0.8, 6);
    // A query on both sides of a pair asks for neither against the other.
    expect(ratio('mcp:shell:force_terminate', 'stop and start the terminal')).toBeCloseTo(1, 6);
    expect(ratio('mcp:shell:start_process', 'stop and start the terminal')).toBeCloseTo(1, 6);
  });
});
