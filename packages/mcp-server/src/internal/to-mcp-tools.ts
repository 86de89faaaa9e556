// The session's provider-neutral surface as an MCP `tools/list` answer: each declared tool with its real schema,
// and for catalog and pinned tools the title, annotations and output schema of their catalog entry. A pure
// function of the surface and the entries, so the same surface gives the same bytes.
import type { ModelSurface, ToolSearchSession } from '@tool-search/gateway-adapter';

/** One tool of an MCP `tools/list` result. */
export interface McpListedTool {
  [key: string]: unknown;
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations?: Record<string, unknown>;
}

/** The tools to list for a surface; `entry` reads a declared tool's catalog entry (the session's `tool`). */
export function toMcpTools(surface: ModelSurface, entry: ToolSearchSession['tool']): McpListedTool[] {
  return surface.tools.map((tool) => {
    const listed: McpListedTool = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
    const descriptor = tool.id === undefined ? undefined : entry(tool.id);
    if (descriptor?.title !== undefined) listed.title = descriptor.title;
    // MCP requires an object at the top of an output schema; anything else is not declared (the result still passes).
    const output = descriptor?.outputSchema;
    if (output !== undefined && typeof output === 'object' && output !== null && (output as { type?: unknown }).type === 'object') {
      listed.outputSchema = output as NonNullable<McpListedTool['outputSchema']>;
    }
    if (descriptor?.annotations !== undefined) listed.annotations = { ...descriptor.annotations };
    return listed;
  });
}
