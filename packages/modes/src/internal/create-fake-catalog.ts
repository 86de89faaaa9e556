// A small in-memory catalog for this package's tests: exactly what renderSurface reads (`list()` sorted by id
// and `limits`), so a change that starts depending on more fails to compile instead of passing on a stub.
import type { CatalogReader, ToolDescriptor, ToolInput } from '@tool-search/catalog';
import { compareStrings } from './text.js';

/** Builds a fake catalog from tool inputs (defaults as the real catalog: trusted for openclaw/plugin). */
export function createFakeCatalog(
  tools: readonly ToolInput[],
  limits: { searchDefaultLimit: number; maxSearchLimit: number } = { searchDefaultLimit: 8, maxSearchLimit: 20 },
): Pick<CatalogReader, 'list' | 'limits'> {
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
  return { limits, list: () => descriptors.map((descriptor) => ({ ...descriptor })) };
}
