// A small in-memory `Catalog` for this package's tests: `list()` sorted by id, `size` and `limits`, the
// fields renderSurface reads. Search methods are not needed to render a surface and throw if called, so
// a test that starts depending on them fails loudly instead of passing on a stub.
import type { Catalog, ToolDescriptor, ToolInput } from '@tool-search/catalog';
import { compareStrings } from './text.js';

/** Builds a fake catalog from tool inputs (defaults as the real catalog: trusted for openclaw/plugin). */
export function createFakeCatalog(
  tools: readonly ToolInput[],
  limits: { searchDefaultLimit: number; maxSearchLimit: number } = { searchDefaultLimit: 8, maxSearchLimit: 20 },
): Catalog {
  const descriptors: ToolDescriptor[] = tools
    .map((tool) => ({
      id: `${tool.source}:${tool.owner}:${tool.name}`,
      name: tool.name,
      source: tool.source,
      owner: tool.owner,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema ?? { type: 'object', properties: {} },
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      trusted: tool.trusted ?? (tool.source === 'openclaw' || tool.source === 'plugin'),
      tags: tool.tags ?? [],
    }))
    .sort((left, right) => compareStrings(left.id, right.id));
  const notUsed = (method: string) => () => {
    throw new Error(`fake catalog: ${method} is not implemented (renderSurface should not need it)`);
  };
  return {
    size: descriptors.length,
    limits,
    list: () => descriptors.map((descriptor) => ({ ...descriptor })),
    get: (id) => descriptors.find((descriptor) => descriptor.id === id),
    search: notUsed('search'),
    searchMany: notUsed('searchMany'),
    describe: notUsed('describe'),
    sources: notUsed('sources'),
    add: notUsed('add'),
    remove: notUsed('remove'),
  };
}
