// A session's outcome as an MCP `tools/call` result. Upstream parts pass whole (text, images, audio, resource
// links, embedded resources) with `structuredContent`, as a plain proxy would; everything else (search hits,
// a describe, a code run, an error or a blocked call) is the outcome's text, `isError` when nothing ran.
import type { ToolCallOutcome } from '@tool-search/gateway-adapter';
import { toMcpContentBlock, type McpContentBlock } from './to-mcp-content.js';

/** The wire shape of a `tools/call` result. */
export interface McpCallToolResult {
  [key: string]: unknown;
  content: McpContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/** Maps an outcome to a `tools/call` result (a `client` outcome cannot occur: a front declares no client tools). */
export function outcomeToCallResult(outcome: ToolCallOutcome): McpCallToolResult {
  switch (outcome.status) {
    case 'ok': {
      const content = outcome.parts !== undefined && outcome.parts.length > 0 ? outcome.parts.map(toMcpContentBlock) : [{ type: 'text' as const, text: outcome.content }];
      return { content, ...(outcome.structured === undefined ? {} : { structuredContent: outcome.structured }) };
    }
    case 'error':
    case 'blocked':
      return { content: [{ type: 'text', text: outcome.content }], isError: true };
    case 'client':
      return { content: [{ type: 'text', text: `Tool ${outcome.name} is a client tool: this server cannot run it` }], isError: true };
  }
}
