// A small in-memory catalog for this package's tests: exactly what renderSurface reads (`list()` sorted by id,
// `size`, `get`, `named` and `limits`), so a change that starts depending on more fails to compile.
import { isTrustedByDefault, resolveSearchLimits, toolId, type ResolvedSearchLimits, type CatalogReader, type ToolDescriptor, type ToolInput } from '@tool-search/catalog';
import { compareStrings } from './text.js';

/** Builds a fake catalog from tool inputs (trust defaults from the catalog's own rule). */
export function createFakeCatalog(
  tools: readonly ToolInput[],
  limits: ResolvedSearchLimits = resolveSearchLimits({}),
): Pick<CatalogReader, 'list' | 'limits' | 'size' | 'get' | 'named'> {
  const descriptors: ToolDescriptor[] = tools
    .map((tool) => ({
      id: toolId(tool.source, tool.owner, tool.name),
      name: tool.name,
      source: tool.source,
      owner: tool.owner,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema ?? { type: 'object', properties: {} },
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      trusted: tool.trusted ?? isTrustedByDefault(tool.source),
      tags: tool.tags ?? [],
    }))
    .sort((left, right) => compareStrings(left.id, right.id));
  const byId = new Map(descriptors.map((descriptor) => [descriptor.id, descriptor]));
  const idsByName = new Map<string, string[]>();
  for (const descriptor of descriptors) idsByName.set(descriptor.name, [...(idsByName.get(descriptor.name) ?? []), descriptor.id]);
  return {
    limits,
    size: descriptors.length,
    list: () => descriptors.map((descriptor) => ({ ...descriptor })),
    get: (id) => byId.get(id),
    named: (name) => [...(idsByName.get(name) ?? [])],
  };
}
