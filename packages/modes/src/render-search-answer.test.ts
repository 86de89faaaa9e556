import { createCatalog, type SearchHit, type ToolInput } from '@tool-search/catalog';
import { describe, expect, it } from 'vitest';
import { SERVERS_OFFSET_ARG } from './control-tools.js';
import {
  compactSignature,
  renderCodeRunAnswer,
  renderCodeSearchAnswer,
  renderSearchAnswer,
  renderWeakAnswer,
  renderWeakNote,
  SERVER_MAP_PAGE_BYTES,
  WEAK_ANSWER_BYTES,
  WEAK_GUESSES,
  WEAK_MAP_SERVERS,
  type ServerMapPager,
  type ServerMapRequest,
} from './render-search-answer.js';
import { renderServerMapText } from './render-search-answer.js';

const toolsOf = (owner: string, count: number): ToolInput[] =>
  Array.from({ length: count }, (_, index) => ({ name: `${owner}_tool_${index}`, source: 'mcp' as const, owner, description: `Does thing ${index} of ${owner}.` }));
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

/** The catalog's map of `tools` as the gateway pages it for a request, recording what each answer asked of it. */
function pagerOf(tools: ToolInput[], query: string | undefined): { pager: ServerMapPager; requests: ServerMapRequest[] } {
  const catalog = createCatalog(tools);
  const requests: ServerMapRequest[] = [];
  const pager: ServerMapPager = (request) => {
    requests.push(request);
    return catalog.servers({ ...request, query, offsetKey: SERVERS_OFFSET_ARG });
  };
  return { pager, requests };
}

describe('compactSignature', () => {
  it('keeps the top-level parameter names and optional marks, not their types', () => {
    expect(compactSignature('{ connectionId: string; database: string; newName: string; dropTarget?: boolean }')).toBe('{ connectionId; database; newName; dropTarget? }');
    expect(compactSignature('{ definition: { … }[]; origin?: "ui" | "a;b"; map: Record<string, { x: number; y: number }> }')).toBe('{ definition; origin?; map }');
    expect(compactSignature('{ onDone: () => void; id: string }')).toBe('{ onDone; id }');
    expect(compactSignature('{}')).toBe('{}');
    expect(compactSignature('unknown')).toBe('unknown');
  });
});

describe('renderWeakAnswer', () => {
  it('gives each guess one short line: the first sentence within 80 characters and its parameter names', () => {
    const { pager } = pagerOf(toolsOf('alpha', 3), undefined);
    const long = `${'Reads the complete contents of one file from the local disk, in full'}. Then more words that are not needed.`;
    const guess: SearchHit = { ...hit('alpha', 0, long), input: '{ path: string; encoding?: "utf8" | "base64"; range?: { start: number; end: number } }' };
    const answer = renderWeakAnswer([{ query: 'zzz', answer: { hits: [guess], evidence: 'weak' } }], { single: true, map: pager });
    expect(answer.hits).toEqual([{ id: guess.id, description: 'Reads the complete contents of one file from the local disk, in full.', input: '{ path; encoding?; range? }' }]);
    const cut = renderWeakAnswer([{ query: 'zzz', answer: { hits: [{ ...guess, description: 'word '.repeat(40) }], evidence: 'weak' } }], { single: true, map: pager });
    expect(cut.hits?.[0]?.description.length).toBeLessThanOrEqual(80);
    expect(cut.hits?.[0]?.description.endsWith('…')).toBe(true);
  });

  it('leaves out of the map the names its guesses already show by id, and lists the next names of those servers instead', () => {
    // Two servers of 200 tools: the map cannot list them all, so every repeated name would cost one unseen name.
    const { pager } = pagerOf([...toolsOf('alpha', 200), ...toolsOf('beta', 200)], undefined);
    const hits = [hit('alpha', 0), hit('alpha', 1), hit('beta', 0), hit('alpha', 10), hit('beta', 1)];
    const answer = renderWeakAnswer([{ query: 'do a thing', answer: { hits, evidence: 'weak' } }], { single: true, map: pager });
    expect(answer.hits?.map((guess) => guess.id)).toEqual(hits.map((entry) => entry.id));
    const listed = answer.servers.servers.flatMap((entry) => entry.tools.map((name) => `mcp:${entry.owner}:${name}`));
    for (const guess of hits) expect(listed).not.toContain(guess.id);
    const alpha = answer.servers.servers.find((entry) => entry.owner === 'alpha');
    // By name: alpha_tool_0, _1, _10 are shown as guesses, so the map starts at alpha_tool_100.
    expect(alpha?.tools.slice(0, 2)).toEqual(['alpha_tool_100', 'alpha_tool_101']);
    expect(alpha?.toolCount).toBe(200);
    expect(bytes(answer)).toBeLessThanOrEqual(WEAK_ANSWER_BYTES);
  });

  it('keeps a tool of the same name on another server in the map (only the guessed server\'s copy is left out)', () => {
    const twin = (owner: string): ToolInput[] => ['read_file', 'write_file'].map((name) => ({ name, source: 'mcp' as const, owner, description: `${name} on ${owner}.` }));
    const { pager } = pagerOf([...twin('one'), ...twin('two')], undefined);
    const guess: SearchHit = { id: 'mcp:one:read_file', name: 'read_file', source: 'mcp', owner: 'one', description: 'Reads a file.', input: '{ path: string }', score: 0.1 };
    const answer = renderWeakAnswer([{ query: 'zzz', answer: { hits: [guess], evidence: 'weak' } }], { single: true, map: pager });
    expect(answer.servers.servers.map((entry) => [entry.owner, entry.tools])).toEqual([
      ['one', ['write_file']],
      ['two', ['read_file', 'write_file']],
    ]);
  });

  it('stays within WEAK_ANSWER_BYTES with long guesses, batches and many large servers', () => {
    const long = 'word '.repeat(200);
    for (const serverCount of [1, 4, 21, 120]) {
      const tools = Array.from({ length: serverCount }, (_, index) => toolsOf(`server-${index}`, 10 + index * 7)).flat();
      const { pager, requests } = pagerOf(tools, 'request 0');
      for (const single of [true, false]) {
        const searches = [0, 1, 2].map((search) => ({
          query: `request ${search} ${long.slice(0, 80)}`,
          answer: { evidence: 'weak' as const, hits: Array.from({ length: WEAK_GUESSES + 3 }, (_, index) => ({ ...hit(`server-${index % serverCount}`, index, long), input: `{ ${'field: string; '.repeat(20)} }` })) },
        }));
        const answer = renderWeakAnswer(single ? searches.slice(0, 1) : searches, { single, map: pager });
        expect(bytes(answer)).toBeLessThanOrEqual(WEAK_ANSWER_BYTES);
        expect(answer.servers.servers.length).toBeGreaterThan(0);
        expect(answer.servers.servers.length).toBeLessThanOrEqual(WEAK_MAP_SERVERS);
        expect(requests.at(-1)?.maxServers).toBe(WEAK_MAP_SERVERS);
      }
    }
  });
});

describe('renderSearchAnswer', () => {
  const { pager, requests } = pagerOf(toolsOf('alpha', 3), 'find');
  const strong = { hits: [hit('alpha', 0)], evidence: 'strong' as const };
  const weak = { hits: [hit('alpha', 1)], evidence: 'weak' as const };

  it('gives strong hits as they are, one search or a batch, and reads no map', () => {
    expect(renderSearchAnswer([{ query: 'a', answer: strong }], { single: true, map: pager })).toEqual(strong.hits);
    expect(renderSearchAnswer([{ query: 'a', answer: strong }, { query: 'b', answer: weak }], { single: false, map: pager })).toEqual([
      { query: 'a', hits: strong.hits },
      { query: 'b', hits: weak.hits },
    ]);
    expect(requests).toEqual([]);
  });

  it('answers weak only when every search is weak, with the tools route\'s note', () => {
    const answer = renderSearchAnswer([{ query: 'a', answer: weak }], { single: true, map: pager });
    expect(answer).toMatchObject({ evidence: 'weak', note: renderWeakNote('tools') });
  });
});

describe('the weak note in every route', () => {
  it('is one wording: the same lead and the same advice, the route naming only its own way to list a server', () => {
    const notes = { tools: renderWeakNote('tools'), code: renderWeakNote('code'), native: renderWeakNote('native') };
    expect(notes.tools).toBe('No tool clearly matches: the hits are guesses. Pick a server below by meaning, then tool_search({ server }) lists its tools, or search again in the words its tools use.');
    expect(notes.code).toBe('No tool clearly matches: the hits are guesses. Pick a server below by meaning, then search again in the words its tools use.');
    expect(notes.native).toBe('No tool clearly matches. Pick a server below by meaning, then search again in the words its tools use.');
  });

  it('is what code mode\'s search and run answers and the native map text say', () => {
    const { pager, requests } = pagerOf(toolsOf('alpha', 3), 'find');
    const weak = renderCodeSearchAnswer({ hits: [hit('alpha', 0)], evidence: 'weak' }, pager);
    expect(weak).toMatchObject({ evidence: 'weak', note: renderWeakNote('code') });
    expect(renderCodeSearchAnswer({ hits: [hit('alpha', 0)], evidence: 'strong' }, pager)).toEqual([hit('alpha', 0)]);
    const run = renderCodeRunAnswer({ value: 1, calls: [], logs: [] }, { weak: true, map: pager });
    expect(Object.keys(run)).toEqual(['value', 'calls', 'logs', 'evidence', 'note', 'servers']);
    expect(run).toMatchObject({ note: renderWeakNote('code') });
    expect(renderCodeRunAnswer({ value: 1 }, { weak: false, map: pager })).toEqual({ value: 1 });
    expect(requests).toEqual([{ maxBytes: SERVER_MAP_PAGE_BYTES }, { maxBytes: SERVER_MAP_PAGE_BYTES }]);
    const text = renderServerMapText(pager({ maxBytes: SERVER_MAP_PAGE_BYTES }));
    expect(text.split('\n')[0]).toBe(renderWeakNote('native'));
  });

  it('marks a starting server in the native text instead of listing tools it does not have yet', () => {
    const text = renderServerMapText({ servers: [{ source: 'mcp', owner: 'github', summary: '', toolCount: 0, tools: [], state: 'starting' }], omitted: 0 });
    expect(text.split('\n')[1]).toBe('- github: starting (its tools are not listed yet; try again in a moment)');
  });
});
