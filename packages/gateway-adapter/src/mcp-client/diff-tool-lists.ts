import type { McpToolDefinition } from './mcp-server-connection.js';

/** What changed between two listings: a tool whose definition changed counts as removed and added. */
export function diffToolLists(
  previous: ReadonlyMap<string, McpToolDefinition>,
  next: ReadonlyMap<string, McpToolDefinition>,
): { added: McpToolDefinition[]; removed: string[] } {
  const added: McpToolDefinition[] = [];
  const removed: string[] = [];
  for (const [name, definition] of previous) {
    const replacement = next.get(name);
    if (replacement === undefined || JSON.stringify(replacement) !== JSON.stringify(definition)) removed.push(name);
  }
  for (const [name, definition] of next) {
    const earlier = previous.get(name);
    if (earlier === undefined || JSON.stringify(earlier) !== JSON.stringify(definition)) added.push(definition);
  }
  return { added, removed };
}
