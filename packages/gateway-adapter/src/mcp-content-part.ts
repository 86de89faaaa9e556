/**
 * One piece of a tool result, prompt message or resource, as MCP gives it. Structurally identical to the
 * `ContentPart` that `@tool-search/modes` renders per provider; binary `data`/`blob` is base64 and is never
 * cut here (any cap drops a whole part, in the host).
 */
export type McpContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'audio'; mimeType: string; data: string }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string };
