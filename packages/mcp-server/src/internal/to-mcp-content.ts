// Content parts of the gateway (the MCP kinds, binary whole) back into the shapes MCP puts on the wire: content
// blocks of a tool result or prompt message, and the `contents` of `resources/read`.
import type { McpContentPart } from '@tool-search/gateway-adapter';

/** One MCP content block (`CallToolResult.content[i]`, `PromptMessage.content`). */
export type McpContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string }
  | { type: 'resource'; resource: McpResourceContents };

/** One entry of `ReadResourceResult.contents` (text or base64 blob). */
export type McpResourceContents = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };

/** A part as an MCP content block; a `resource_link` without a name is named by its URI (MCP requires one). */
export function toMcpContentBlock(part: McpContentPart): McpContentBlock {
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
export function toResourceContents(part: Extract<McpContentPart, { type: 'resource' }>): McpResourceContents {
  const base = { uri: part.uri, ...(part.mimeType === undefined ? {} : { mimeType: part.mimeType }) };
  return part.blob !== undefined ? { ...base, blob: part.blob } : { ...base, text: part.text ?? '' };
}
