import type { McpContentPart } from './mcp-content-part.js';

type Block = Record<string, unknown> & { type?: unknown };

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** One embedded resource (`{ uri, mimeType?, text | blob }`) as a `resource` part. */
export function toResourcePart(resource: Record<string, unknown>): McpContentPart {
  const part: McpContentPart = { type: 'resource', uri: str(resource['uri']) ?? '' };
  const mimeType = str(resource['mimeType']);
  if (mimeType !== undefined) part.mimeType = mimeType;
  const text = str(resource['text']);
  const blob = str(resource['blob']);
  if (text !== undefined) part.text = text;
  else if (blob !== undefined) part.blob = blob;
  return part;
}

/** A content block of any MCP kind as one part; a kind this version does not know becomes a text note. */
export function toContentPart(block: Block): McpContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: str(block['text']) ?? '' };
    case 'image':
    case 'audio':
      return { type: block.type, mimeType: str(block['mimeType']) ?? 'application/octet-stream', data: str(block['data']) ?? '' };
    case 'resource_link': {
      const part: McpContentPart = { type: 'resource_link', uri: str(block['uri']) ?? '' };
      const name = str(block['name']);
      const mimeType = str(block['mimeType']);
      if (name !== undefined) part.name = name;
      if (mimeType !== undefined) part.mimeType = mimeType;
      return part;
    }
    case 'resource':
      return toResourcePart(typeof block['resource'] === 'object' && block['resource'] !== null ? (block['resource'] as Record<string, unknown>) : {});
    default:
      return { type: 'text', text: `[content of type ${JSON.stringify(String(block.type)).slice(0, 60)} is not supported]` };
  }
}

/** Every block of a result's `content` as parts (a missing or malformed list is no parts). */
export function toContentParts(content: unknown): McpContentPart[] {
  if (!Array.isArray(content)) return [];
  return content.filter((block): block is Block => typeof block === 'object' && block !== null).map(toContentPart);
}

/** A call result as one value for text-only hosts: structured content when given, else the text, else the parts. */
export function simplifyCallResult(parts: McpContentPart[], structured: Record<string, unknown> | undefined): unknown {
  if (structured !== undefined) return structured;
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => (part as { text: string }).text).join('\n');
  return parts;
}
