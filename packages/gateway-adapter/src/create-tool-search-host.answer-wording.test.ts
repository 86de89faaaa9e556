// Every word a model reads of a weak search is modes': the same request answered in each route (tools mode's
// tool_search, code mode's tools.search and its run, a native Anthropic search and a native OpenAI Chat search that
// loads) says one wording, and carries the catalog's map page. gateway-adapter passes data and writes none of it.
import { renderWeakNote } from '@tool-search/modes';
import { createFakeRunner } from '@tool-search/sandbox-runner/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';

const tool = (owner: string, name: string, description: string): ExecutableTool => ({ name, owner, description, inputSchema: { type: 'object', properties: { id: { type: 'string' } } }, execute: () => 'ok' });
const TOOLS = [
  tool('calendar', 'create_event', 'Create a calendar event with a title and a date.'),
  tool('calendar', 'delete_event', 'Delete a calendar event by id.'),
  tool('weather', 'get_forecast', 'Get the weather forecast for a city.'),
];
/** A request no tool's words match: weak in every route. */
const WEAK = 'zzqx vvyk';
/** The words every weak answer shares, whatever its route. */
const SHARED = ['No tool clearly matches', 'Pick a server below by meaning, then', 'search again in the words its tools use.'];

let host: ToolSearchHost;
beforeAll(async () => {
  host = await createToolSearchHost({ sources: { openclaw: TOOLS } });
});
afterAll(async () => {
  await host.close();
});

interface WeakNote {
  route: string;
  note: string;
  owners: string[];
}

async function toolsRoute(): Promise<WeakNote> {
  const session = await host.openSession({ config: { mode: 'tools' } });
  const answer = JSON.parse((await session.execute({ name: 'tool_search', args: { query: WEAK }, toolCallId: 't1' })).content) as { note: string; servers: { servers: Array<{ owner: string }> } };
  await session.close();
  return { route: 'tools', note: answer.note, owners: answer.servers.servers.map((server) => server.owner) };
}

async function codeRoutes(): Promise<WeakNote[]> {
  const session = await host.openSession({ config: { mode: 'code' }, runner: createFakeRunner() });
  const code = `const hits = await tools.search(${JSON.stringify(WEAK)}); return { note: hits.note, owners: hits.servers.servers.map((server) => server.owner) };`;
  const outcome = await session.execute({ name: 'tool_search_code', args: { code }, toolCallId: 'c1' });
  await session.close();
  expect(outcome.status).toBe('ok');
  const run = (outcome as { result?: unknown }).result as { value: { note: string; owners: string[] }; note: string; servers: { servers: Array<{ owner: string }> } };
  return [
    { route: 'code search', note: run.value.note, owners: run.value.owners },
    { route: 'code run', note: run.note, owners: run.servers.servers.map((server) => server.owner) },
  ];
}

async function nativeRoutes(): Promise<WeakNote[]> {
  const anthropic = await host.openSession({ config: { mode: 'native' } });
  anthropic.surface('anthropic');
  const answer = anthropic.answerNativeSearch({ type: 'tool_use', id: 'tu_1', name: 'tool_search', input: { query: WEAK } }, 'anthropic');
  await anthropic.close();
  const chat = await host.openSession({ config: { mode: 'native', nativeSearch: { chat: 'load' } } });
  chat.surface('openai-chat');
  const loaded = await chat.execute({ name: 'tool_search', args: { query: WEAK }, toolCallId: 'n2' });
  await chat.close();
  const textOf = (text: string, route: string): WeakNote => {
    const [note = '', ...lines] = text.split('\n');
    return { route, note, owners: lines.filter((line) => line.startsWith('- ')).map((line) => line.slice(2, line.indexOf(':'))) };
  };
  return [textOf((answer.item as { content: string }).content, 'native anthropic'), textOf(loaded.content, 'native chat')];
}

describe('a weak search in every route', () => {
  it('says one wording, modes\' own, and shows the catalog\'s map of the same servers', async () => {
    const notes = [await toolsRoute(), ...(await codeRoutes()), ...(await nativeRoutes())];
    expect(notes.map((entry) => entry.route)).toEqual(['tools', 'code search', 'code run', 'native anthropic', 'native chat']);
    const routeOf = { tools: 'tools', 'code search': 'code', 'code run': 'code', 'native anthropic': 'native', 'native chat': 'native' } as const;
    for (const entry of notes) {
      expect(entry.note, entry.route).toBe(renderWeakNote(routeOf[entry.route as keyof typeof routeOf]));
      for (const words of SHARED) expect(entry.note, entry.route).toContain(words);
      // By size with no hit to rank by: calendar (2 tools), then weather.
      expect(entry.owners, entry.route).toEqual(['calendar', 'weather']);
    }
  });
});
