// The server map as a tools-mode model reads it at the scale of a large host: 464 servers of very different sizes
// (one of thousands of tools), named so that alphabetical order would put every relevant one last. Ranked by
// relevance (by size without a query), paged by `servers_offset` to every server, each page within its budget,
// a weak answer within its own.
import { SERVERS_PER_PAGE } from '@tool-search/catalog';
import { SERVER_MAP_PAGE_BYTES, WEAK_ANSWER_BYTES, type ServerMapPage } from '@tool-search/modes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';
import type { ToolSearchSession } from './tool-search-session.js';
import { scaledTimeout } from '@tool-search/property-settings';

const SERVERS = 464;
const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'export', 'sync'];
const NOUNS = ['record', 'entry', 'item', 'report', 'batch', 'asset', 'ticket', 'note', 'job', 'label', 'token', 'metric'];

/** Server `a-000` … `a-463` (every name sorts before the named ones below), sizes 1 to 13, one of 2,000 tools. */
function syntheticTools(): ExecutableTool[] {
  const tools: ExecutableTool[] = [];
  const add = (owner: string, name: string, description: string) =>
    tools.push({ name, owner, description, inputSchema: { type: 'object', properties: { id: { type: 'string' } } }, execute: () => 'ok' });
  for (let server = 0; server < SERVERS - 2; server++) {
    const owner = `a-${String(server).padStart(3, '0')}`;
    const size = server === 7 ? 2_000 : 1 + ((server * 7) % 13);
    for (let index = 0; index < size; index++) {
      const verb = VERBS[index % VERBS.length] as string;
      const noun = NOUNS[(index + server) % NOUNS.length] as string;
      add(owner, `${verb}_${noun}_${index}`, `${verb} a ${noun} of the a-${server} service.`);
    }
  }
  // Two small servers late in the alphabet that a request names by what they do.
  add('zz-weather', 'get_forecast', 'Get the weather forecast for a city.');
  add('zz-weather', 'get_alerts', 'Get severe weather alerts for a region.');
  add('zz-chess', 'suggest_move', 'Suggest the best chess move for a board position.');
  return tools;
}

let host: ToolSearchHost;
let session: ToolSearchSession;
beforeAll(async () => {
  host = await createToolSearchHost({ sources: { openclaw: syntheticTools() } });
  session = await host.openSession({ config: { mode: 'tools' } });
}, scaledTimeout(120_000));
afterAll(async () => {
  await host.close();
});

let calls = 0;
async function search(args: Record<string, unknown>): Promise<{ value: unknown; bytes: number; content: string }> {
  const outcome = await session.execute({ name: 'tool_search', args, toolCallId: `m${++calls}` });
  if (outcome.status !== 'ok') throw new Error(`tool_search ${JSON.stringify(args)}: ${outcome.content}`);
  return { value: JSON.parse(outcome.content) as unknown, bytes: Buffer.byteLength(outcome.content), content: outcome.content };
}

/** Follows `next` from the first page: the owners of every page, and how many calls it took. */
async function walk(first: Record<string, unknown>): Promise<{ owners: string[]; calls: number; pageBytes: number[] }> {
  const owners: string[] = [];
  const pageBytes: number[] = [];
  let args: Record<string, unknown> | undefined = first;
  let count = 0;
  while (args !== undefined && count <= SERVERS) {
    const { value, bytes } = await search(args);
    const page = value as ServerMapPage;
    count += 1;
    pageBytes.push(bytes);
    owners.push(...page.servers.map((server) => server.owner));
    args = page.next;
  }
  return { owners, calls: count, pageBytes };
}

describe('the server map at 464 servers', () => {
  it('lists servers by size without a query, never alphabetically', async () => {
    const page = (await search({})).value as ServerMapPage;
    expect(page.servers[0]?.owner).toBe('a-007');
    const counts = page.servers.map((server) => server.toolCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('reaches every server exactly once in at most ⌈servers / page⌉ calls, each page within its budget', async () => {
    const { owners, calls: used, pageBytes } = await walk({});
    expect(owners.length).toBe(SERVERS);
    expect(new Set(owners).size).toBe(SERVERS);
    expect(owners).toContain('zz-chess');
    expect(used).toBeLessThanOrEqual(Math.ceil(SERVERS / SERVERS_PER_PAGE));
    expect(Math.max(...pageBytes)).toBeLessThanOrEqual(SERVER_MAP_PAGE_BYTES);
  });

  it('pages a query-ranked map the same way: every server once, the query kept in next', async () => {
    const { owners, calls: used } = await walk({ query: 'weather forecast', servers_offset: 0 });
    expect(new Set(owners).size).toBe(SERVERS);
    expect(owners[0]).toBe('zz-weather');
    expect(used).toBeLessThanOrEqual(Math.ceil(SERVERS / SERVERS_PER_PAGE));
  });

  it('counts omitted and next in the byte budget', async () => {
    const { value, content } = await search({});
    const page = value as ServerMapPage;
    expect(page.omitted).toBe(SERVERS - page.servers.length);
    expect(page.next).toEqual({ servers_offset: page.servers.length });
    expect(Buffer.byteLength(content)).toBeLessThanOrEqual(SERVER_MAP_PAGE_BYTES);
  });

  it('puts the server a weak request needs first in its map, and keeps the weak answer within its budget', async () => {
    const { value, bytes } = await search({ query: 'which move should I play in this chess game' });
    const answer = value as { evidence?: string; servers: ServerMapPage; hits: Array<{ id: string; description: string; input: string }> };
    if (answer.evidence === 'weak') {
      expect(answer.servers.servers[0]?.owner).toBe('zz-chess');
      expect(answer.hits[0]).toHaveProperty('input');
      expect(bytes).toBeLessThanOrEqual(WEAK_ANSWER_BYTES);
    } else {
      expect((value as Array<{ id: string }>)[0]?.id).toBe('openclaw:zz-chess:suggest_move');
    }
  });

  it('keeps every weak answer within its budget and its map ranked for the request', async () => {
    for (const query of ['tell the team about the outage', 'how warm will it be in Oslo', 'translate this poem']) {
      const { value, bytes } = await search({ query });
      const answer = value as { evidence?: string; servers?: ServerMapPage };
      if (answer.evidence !== 'weak') continue;
      expect(bytes).toBeLessThanOrEqual(WEAK_ANSWER_BYTES);
      expect(answer.servers?.next?.query).toBe(query);
    }
  });

  it('refuses servers_offset with server, and a negative servers_offset, naming what was wrong', async () => {
    const both = await session.execute({ name: 'tool_search', args: { server: 'a-007', servers_offset: 2 }, toolCallId: 'bad-1' });
    expect(both).toMatchObject({ status: 'error', code: 'invalid_request' });
    expect(both.content).toContain('{ server, offset }');
    const negative = await session.execute({ name: 'tool_search', args: { servers_offset: -1 }, toolCallId: 'bad-2' });
    expect(negative).toMatchObject({ status: 'error', code: 'invalid_request' });
    expect(negative.content).toContain('servers_offset');
  });

  it('answers a page past the end with no servers and no next', async () => {
    const page = (await search({ servers_offset: SERVERS + 5 })).value as ServerMapPage;
    expect(page).toEqual({ servers: [], omitted: 0 });
  });
});
