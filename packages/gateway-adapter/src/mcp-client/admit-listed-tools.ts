// Which of the tools a server lists are offered: a tool the connection could not call (task-only on a server
// without task support), one outside the server's include/exclude patterns, or one whose schema is too
// large to describe or validate, is withheld with its reason, so the host never catalogues what cannot be used.
import type { Tool } from '@modelcontextprotocol/client';
import type { JsonSchema } from '@tool-search/catalog';
import type { Policy } from '@tool-search/policy';
import type { McpToolDefinition, McpWithheldTool } from './mcp-server-connection.js';
import { checkSchemaLimits, type SchemaLimits } from '../shared/index.js';

/** Descriptions longer than this are cut (and say so): a host caps far lower, this only bounds memory. */
export const MAX_TOOL_DESCRIPTION_CHARS = 65_536;

/** Schemas of listed tools may be larger than what the validator compiles, up to these bounds. */
export const LISTED_SCHEMA_LIMITS: SchemaLimits = Object.freeze({ maxBytes: 1_048_576, maxDepth: 128, maxNodes: 50_000, maxExpandedNodes: Number.MAX_SAFE_INTEGER });

/** Splits listed tools into offered definitions and withheld ones. */
export function admitListedTools(
  tools: Tool[],
  options: { server: string; filter: Policy | undefined; tasksSupported: boolean },
): { offered: Map<string, McpToolDefinition>; withheld: McpWithheldTool[] } {
  const offered = new Map<string, McpToolDefinition>();
  const withheld: McpWithheldTool[] = [];
  for (const tool of tools) {
    const reason = withholdReason(tool, options);
    if (reason !== undefined) withheld.push({ name: tool.name.slice(0, 200), reason });
    else offered.set(tool.name, toDefinition(tool));
  }
  return { offered, withheld };
}

function withholdReason(tool: Tool, options: { server: string; filter: Policy | undefined; tasksSupported: boolean }): string | undefined {
  if (options.filter !== undefined) {
    const verdict = options.filter.check({ id: `mcp:${options.server}:${tool.name}`, name: tool.name, source: 'mcp', owner: options.server, ownerOnly: false }, {});
    if (!verdict.allowed) return `left out by the include/exclude patterns of MCP server "${options.server}"`;
  }
  if (tool.execution?.taskSupport === 'required' && !options.tasksSupported) {
    return `requires task-based execution, which MCP server "${options.server}" does not offer (no tasks.requests.tools.call capability)`;
  }
  const inputProblem = checkSchemaLimits(tool.inputSchema, LISTED_SCHEMA_LIMITS);
  if (inputProblem !== undefined) return `input ${inputProblem}`;
  const outputProblem = tool.outputSchema === undefined ? undefined : checkSchemaLimits(tool.outputSchema, LISTED_SCHEMA_LIMITS);
  if (outputProblem !== undefined) return `output ${outputProblem}`;
  return undefined;
}

function toDefinition(tool: Tool): McpToolDefinition {
  const description = tool.description ?? '';
  const definition: McpToolDefinition = {
    name: tool.name,
    description:
      description.length > MAX_TOOL_DESCRIPTION_CHARS
        ? `${description.slice(0, MAX_TOOL_DESCRIPTION_CHARS)}\n[description cut at ${MAX_TOOL_DESCRIPTION_CHARS} of ${description.length} characters]`
        : description,
    inputSchema: tool.inputSchema as JsonSchema,
  };
  const title = tool.title ?? tool.annotations?.title;
  if (title !== undefined) definition.title = title;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema as JsonSchema;
  if (tool.annotations !== undefined) {
    const { title: _title, ...hints } = tool.annotations;
    const annotations: McpToolDefinition['annotations'] = {};
    for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
      if (typeof hints[key] === 'boolean') annotations[key] = hints[key];
    }
    if (Object.keys(annotations).length > 0) definition.annotations = annotations;
  }
  const taskSupport = tool.execution?.taskSupport;
  if (taskSupport !== undefined) definition.taskSupport = taskSupport;
  if (ALWAYS_LOAD_META_KEYS.some((key) => tool._meta?.[key] === true)) definition.alwaysLoad = true;
  return definition;
}

/**
 * The `_meta` keys by which a server asks that a tool be always loaded (declared directly, never deferred): Claude
 * Code's, and ours (a prefixed key, as MCP's `_meta` naming rules ask). Only `true` counts; a host pins such a tool
 * only when its server is trusted and the session's policy admits it.
 */
export const ALWAYS_LOAD_META_KEYS: readonly string[] = Object.freeze(['anthropic/alwaysLoad', 'tool-search/alwaysLoad']);
