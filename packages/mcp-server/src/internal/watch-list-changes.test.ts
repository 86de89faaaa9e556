// The list changes one session is told of: resources and prompts follow only the servers whose resources and prompts
// its policy lets it list, so a refused server's restart is told to nobody, and an admitted one's to its clients.
import { describe, expect, it } from 'vitest';
import type { ToolSearchHost, ToolSearchSession } from '@tool-search/gateway-adapter';
import { watchListChanges, type ListKind } from './watch-list-changes.js';

/** A host whose servers' states the test sets, and a session with no tools but the `read_resource` of `readable`. */
function fixture(options: { readable: string[]; promptable: string[] }) {
  const states = new Map<string, string>([
    ['public', 'ready'],
    ['hrsecret', 'ready'],
  ]);
  const host = { mcpServers: () => [...states].map(([name, state]) => ({ name, state })) } as unknown as ToolSearchHost;
  const session = {
    modelSurface: () => ({ mode: 'tools', tools: [], instructions: '' }),
    // The read_resource tool of a server is in the view only while the server is up (as the catalog holds it).
    tool: (id: string) => (options.readable.some((server) => id === `mcp:${server}:read_resource` && states.get(server) === 'ready') ? ({ id } as never) : undefined),
    whenStarted: () => Promise.resolve(),
  } as unknown as ToolSearchSession;
  const told: ListKind[] = [];
  const watch = watchListChanges(host, session, (kind) => void told.push(kind), {
    resources: (server) => session.tool(`mcp:${server}:read_resource`) !== undefined,
    prompts: (server) => options.promptable.includes(server),
  });
  return { states, told, watch };
}

describe('watchListChanges', () => {
  it("tells nobody of a refused server's restart (resources and prompts both refused)", async () => {
    const { states, told, watch } = fixture({ readable: ['public'], promptable: ['public'] });
    await Promise.resolve();
    states.set('hrsecret', 'restarting');
    watch.check();
    states.set('hrsecret', 'ready');
    watch.check();
    expect(told).toEqual([]);
  });

  it("tells an admitted server's restart, each list only when that list's servers changed", async () => {
    const { states, told, watch } = fixture({ readable: ['public'], promptable: ['public', 'hrsecret'] });
    await Promise.resolve();
    states.set('public', 'restarting');
    watch.check();
    states.set('public', 'ready');
    watch.check();
    expect(told).toEqual(['resources', 'prompts', 'resources', 'prompts']);
    told.length = 0;
    // hrsecret's prompts are admitted, its resources not: only the prompt list changed.
    states.set('hrsecret', 'restarting');
    watch.check();
    expect(told).toEqual(['prompts']);
  });
});
