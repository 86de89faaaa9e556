// The one place the gateway's values become the MCP SDK's result types, for both protocol eras: the session's
// surface as `tools/list` tools, a call's outcome as a `tools/call` result, and upstream content parts as content
// blocks and `resources/read` contents. Each function returns the SDK's own type, so a handler passes its answer
// on as it is: a shape the SDK would not take fails the typecheck here, not a cast in a handler.
import type { CallToolResult, ContentBlock, JSONObject, JSONValue, ReadResourceResult, Tool } from '@modelcontextprotocol/server';
import type { McpContentPart, ModelSurface, ToolCallOutcome, ToolSearchSession } from '@tool-search/gateway-adapter';
import { renderErrorText } from '@tool-search/modes';

/** One entry of `ReadResourceResult.contents` (text or base64 blob). */
export type ResourceContents = ReadResourceResult['contents'][number];

/**
 * The tools to list for a surface; `entry` reads a declared tool's catalog entry (the session's `tool`): each declared
 * tool with its real schema, and for catalog and pinned tools the title, annotations and output schema of their
 * entry. A pure function of the surface and the entries, so the same surface gives the same bytes.
 */
export function toMcpTools(surface: ModelSurface, entry: ToolSearchSession['tool']): Tool[] {
  return surface.tools.map((tool) => {
    const listed: Tool = { name: tool.name, description: tool.description, inputSchema: { ...toJsonObject(tool.inputSchema), type: 'object' } };
    const descriptor = tool.id === undefined ? undefined : entry(tool.id);
    if (descriptor?.title !== undefined) listed.title = descriptor.title;
    // MCP requires an object at the top of an output schema; anything else is not declared (the result still passes).
    const output = descriptor?.outputSchema;
    if (typeof output === 'object' && output !== null && (output as { type?: unknown }).type === 'object') listed.outputSchema = { ...toJsonObject(output), type: 'object' };
    if (descriptor?.annotations !== undefined) listed.annotations = { ...descriptor.annotations };
    return listed;
  });
}

/**
 * A session's outcome as a `tools/call` result. Upstream parts pass whole (text, images, audio, resource links,
 * embedded resources) with `structuredContent`, as a plain proxy would; everything else (search hits, a describe, a
 * code run, an error or a blocked call) is the outcome's text, `isError` when nothing ran. A `client` outcome cannot
 * occur (a front declares no client tools).
 */
export function outcomeToCallResult(outcome: ToolCallOutcome): CallToolResult {
  switch (outcome.status) {
    case 'ok': {
      const content = outcome.parts !== undefined && outcome.parts.length > 0 ? outcome.parts.map(toMcpContentBlock) : [{ type: 'text' as const, text: outcome.content }];
      return { content, ...(outcome.structured === undefined ? {} : { structuredContent: outcome.structured }) };
    }
    case 'error':
    case 'blocked':
      return { content: [{ type: 'text', text: outcome.content }], isError: true };
    case 'client':
      return { content: [{ type: 'text', text: renderErrorText({ kind: 'client_tool_over_mcp', name: outcome.name }) }], isError: true };
  }
}

/** A part as an MCP content block (a tool result's, a prompt message's); a `resource_link` without a name is named by its URI (MCP requires one). */
export function toMcpContentBlock(part: McpContentPart): ContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
    case 'audio':
      return { type: part.type, data: part.data, mimeType: part.mimeType };
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: part.uri,
        name: part.name ?? part.uri,
        ...(part.mimeType === undefined ? {} : { mimeType: part.mimeType }),
        ...(part.description === undefined ? {} : { description: part.description }),
      };
    case 'resource':
      return { type: 'resource', resource: toResourceContents(part) };
  }
}

/** An embedded resource part as `resources/read` contents (a part with neither text nor blob reads as empty text). */
export function toResourceContents(part: Extract<McpContentPart, { type: 'resource' }>): ResourceContents {
  const base = { uri: part.uri, ...(part.mimeType === undefined ? {} : { mimeType: part.mimeType }) };
  return part.blob !== undefined ? { ...base, blob: part.blob } : { ...base, text: part.text ?? '' };
}

/** Deepest nesting a schema is checked to (a deeper one is copied the way the wire carries it). */
const MAX_SCHEMA_DEPTH = 64;

/**
 * A schema of the catalog as the SDK types it, a JSON object: itself when it is one (checked, not copied, so the
 * same schema gives the same bytes), else the JSON the wire would carry (what `JSON.stringify` keeps of it).
 */
function toJsonObject(schema: object): JSONObject {
  if (isJsonObject(schema, 0)) return schema;
  const carried: JSONObject = JSON.parse(JSON.stringify(schema));
  return carried;
}

function isJsonObject(value: object, depth: number): value is JSONObject {
  if (Array.isArray(value) || depth > MAX_SCHEMA_DEPTH) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.values(value).every((item) => isJsonValue(item, depth + 1));
}

function isJsonValue(value: unknown, depth: number): value is JSONValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth > MAX_SCHEMA_DEPTH) return false;
  return Array.isArray(value) ? value.every((item) => isJsonValue(item, depth + 1)) : isJsonObject(value, depth);
}
