// Tool ids: `<source>:<owner>:<name>`.

/**
 * The four tool sources, in the order `sources()` reports them. This list is the one spelling of the sources:
 * `ToolSource`, the schemas here and in other packages, and policy's id patterns are all derived from it.
 */
export const TOOL_SOURCES = ['openclaw', 'plugin', 'mcp', 'client'] as const;

/** Where a tool comes from; the first segment of its id (one of `TOOL_SOURCES`). */
export type ToolSource = (typeof TOOL_SOURCES)[number];

/** Builds a tool id, `<source>:<owner>:<name>` (inputs are not validated here; `createCatalog` does that). */
export function toolId(source: ToolSource, owner: string, name: string): string {
  return `${source}:${owner}:${name}`;
}

/** True for one of `TOOL_SOURCES`. */
export function isToolSource(value: unknown): value is ToolSource {
  return typeof value === 'string' && (TOOL_SOURCES as readonly string[]).includes(value);
}

/** Splits a tool id into its parts, or returns undefined when it is not `<source>:<owner>:<name>`. */
export function parseToolId(id: string): { source: ToolSource; owner: string; name: string } | undefined {
  const first = id.indexOf(':');
  const last = id.lastIndexOf(':');
  if (first <= 0 || last === first || last === id.length - 1) return undefined;
  const source = id.slice(0, first);
  if (!isToolSource(source)) return undefined;
  return { source, owner: id.slice(first + 1, last), name: id.slice(last + 1) };
}
