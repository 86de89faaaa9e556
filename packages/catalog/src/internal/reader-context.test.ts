import { describe, expect, it } from 'vitest';
import { createCatalog } from '../create-catalog.js';
import { resolveSearchLimits } from '../resolve-search-limits.js';
import type { ToolDescriptor } from '../types.js';
import { createReaderContext, type CatalogParts, type Scope } from './reader-context.js';

const catalog = createCatalog([
  { name: 'read_file', description: 'Read a file', source: 'mcp', owner: 'files' },
  { name: 'send_mail', description: 'Send an email', source: 'mcp', owner: 'mail' },
]);
// Listing and outline read only the store's summaries: the rest of the parts is never touched here.
const parts = { store: { has: () => true, summaryOf: () => '' } } as unknown as CatalogParts;

/** A scope over `tools` that counts how often its tools are read; `stamp` is changed by the test. */
function countingScope(tools: ToolDescriptor[]) {
  const state = { stamp: 1, reads: 0, tools };
  const scope: Scope = {
    index: undefined,
    size: () => state.tools.length,
    tools: () => ((state.reads += 1), state.tools),
    stamp: () => state.stamp,
    sync: () => undefined,
  };
  return { scope, state };
}

describe('createReaderContext', () => {
  it('lists and outlines a scope once for every reader over it while its stamp stays (a session per request reads it warm)', () => {
    const { scope, state } = countingScope(catalog.list());
    const first = createReaderContext(parts, scope, resolveSearchLimits({}), new Map());
    const second = createReaderContext(parts, scope, resolveSearchLimits({}), new Map());
    expect(first.outline().map((owner) => owner.owner)).toEqual(['files', 'mail']);
    expect(second.outline().map((owner) => owner.owner)).toEqual(['files', 'mail']);
    expect(second.listing().tools.map((tool) => tool.name)).toEqual(['read_file', 'send_mail']);
    expect(state.reads).toBe(1);
  });

  it('lists again, for every reader, once the stamp changes', () => {
    const { scope, state } = countingScope(catalog.list());
    const first = createReaderContext(parts, scope, resolveSearchLimits({}), new Map());
    const second = createReaderContext(parts, scope, resolveSearchLimits({}), new Map());
    first.outline();
    state.tools = catalog.list().filter((tool) => tool.owner === 'mail');
    state.stamp += 1;
    expect(second.outline().map((owner) => owner.owner)).toEqual(['mail']);
    expect(first.listing().tools.map((tool) => tool.name)).toEqual(['send_mail']);
    expect(state.reads).toBe(2);
  });

  it('keeps the listings of different scopes apart', () => {
    const files = countingScope(catalog.list().filter((tool) => tool.owner === 'files'));
    const mail = countingScope(catalog.list().filter((tool) => tool.owner === 'mail'));
    expect(createReaderContext(parts, files.scope, resolveSearchLimits({}), new Map()).outline().map((owner) => owner.owner)).toEqual(['files']);
    expect(createReaderContext(parts, mail.scope, resolveSearchLimits({}), new Map()).outline().map((owner) => owner.owner)).toEqual(['mail']);
  });
});
