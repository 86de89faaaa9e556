/**
 * One piece of a tool result, prompt message or resource, as MCP gives it: the `ContentPart` of
 * `@tool-search/modes`, which owns the type and renders it per provider. Binary `data`/`blob` is base64 and is
 * never cut (any cap drops a whole part).
 */
export type { ContentPart as McpContentPart } from '@tool-search/modes';
