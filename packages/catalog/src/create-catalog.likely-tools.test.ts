import { describe, expect, it } from 'vitest';
import { createCatalog, pickLikely } from './create-catalog.js';
import type { ToolInput } from './types.js';

const TOOLS: ToolInput[] = [
  { name: 'create_issue', source: 'mcp', owner: 'github', description: 'Create a new issue in a GitHub repository.', inputSchema: { type: 'object', properties: { title: { type: 'string' } } } },
  { name: 'list_calendar_events', source: 'mcp', owner: 'calendar', description: 'List the events in a calendar between two dates.' },
  { name: 'read_file', source: 'openclaw', owner: 'core', description: 'Read the contents of a file.' },
  { name: 'write_file', source: 'openclaw', owner: 'core', description: 'Write text to a file.' },
  { name: 'delete_file', source: 'openclaw', owner: 'core', description: 'Delete a file.' },
  { name: 'move_file', source: 'openclaw', owner: 'core', description: 'Move a file.' },
  { name: 'get_weather', source: 'plugin', owner: 'weather', description: 'Current weather for a city.' },
  { name: 'send_message', source: 'client', owner: 'slack', description: 'Post a message to a Slack channel.' },
];

describe('catalog.likelyTools', () => {
  it('returns the tool a request clearly asks for, with its full description and schema', () => {
    const likely = createCatalog(TOOLS).likelyTools('list my calendar events for next week');
    expect(likely.map((tool) => tool.id)).toEqual(['mcp:calendar:list_calendar_events']);
    expect(likely[0]).toMatchObject({ description: 'List the events in a calendar between two dates.', inputSchema: { type: 'object', properties: {} } });
  });

  it('returns nothing when no hit clears the margin over the next one', () => {
    // "file" fits read, write, delete and move alike: more tools than the limit, none ahead.
    expect(createCatalog(TOOLS).likelyTools('file')).toEqual([]);
    expect(createCatalog(TOOLS).likelyTools('')).toEqual([]);
    expect(createCatalog(TOOLS).likelyTools('zzz qqq')).toEqual([]);
  });

  it('returns at most `limit` tools', () => {
    const catalog = createCatalog(TOOLS);
    expect(catalog.likelyTools('create_issue', { limit: 1 }).map((tool) => tool.id)).toEqual(['mcp:github:create_issue']);
  });

  it('is byte-stable for the same request and catalog', () => {
    const request = 'open an issue in the github repository about the crash';
    const first = JSON.stringify(createCatalog(TOOLS).likelyTools(request));
    const catalog = createCatalog([...TOOLS].reverse());
    expect(JSON.stringify(catalog.likelyTools(request))).toBe(first);
    expect(JSON.stringify(catalog.likelyTools(request))).toBe(first);
    expect(first).toContain('mcp:github:create_issue');
  });

  it('never returns a tool a view denies, and answers as a catalog of the admitted tools alone', () => {
    const view = createCatalog(TOOLS).view((tool) => tool.owner !== 'calendar');
    const alone = createCatalog(TOOLS.filter((tool) => tool.owner !== 'calendar'));
    for (const request of ['list my calendar events for next week', 'create_issue', 'post a message to the team channel', 'weather in Lisbon']) {
      expect(view.likelyTools(request)).toEqual(alone.likelyTools(request));
      expect(view.likelyTools(request).some((tool) => tool.owner === 'calendar')).toBe(false);
    }
  });

  it('throws invalid_limit for a limit that is not an integer ≥ 1, and invalid_query for a non-string', () => {
    const catalog = createCatalog(TOOLS);
    expect(() => catalog.likelyTools('weather', { limit: 0 })).toThrow(expect.objectContaining({ code: 'invalid_limit' }));
    expect(() => catalog.likelyTools(7 as unknown as string)).toThrow(expect.objectContaining({ code: 'invalid_query' }));
  });
});

describe('pickLikely', () => {
  it('takes the top hits within the ratio when the best one left out is below the margin', () => {
    expect(pickLikely([10, 9, 4, 1], 3, 0.8, 1)).toBe(2);
    expect(pickLikely([10, 9, 8.5, 7], 3, 0.8, 1)).toBe(0);
    expect(pickLikely([10, 6], 3, 0.8, 1)).toBe(0);
    expect(pickLikely([10, 5], 3, 0.8, 1)).toBe(1);
    expect(pickLikely([10], 3, 0.8, 1)).toBe(1);
    expect(pickLikely([], 3, 0.8, 1)).toBe(0);
  });
});
