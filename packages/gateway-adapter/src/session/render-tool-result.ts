import { renderUntrustedResult } from '@tool-search/modes';

/** Results from untrusted sources are capped at this many characters. */
export const UNTRUSTED_RESULT_MAX_CHARS = 20_000;

/** A result rendered as model-facing text. */
export interface RenderedToolResult {
  content: string;
  truncated: boolean;
}

/** Text of a value: strings as they are, anything else as compact JSON. */
export function stringifyResult(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'null';
  try {
    return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner)) ?? 'null';
  } catch {
    return String(value);
  }
}

/**
 * Renders a tool result for the model. Trusted results are passed as text; untrusted ones (MCP, client
 * tools) are capped at 20,000 characters and wrapped by modes in a marked block that says to treat them as data.
 */
export function renderToolResult(value: unknown, options: { untrusted: boolean; toolId: string; maxChars?: number }): RenderedToolResult {
  const text = stringifyResult(value);
  if (!options.untrusted) return { content: text, truncated: false };
  const maxChars = options.maxChars ?? UNTRUSTED_RESULT_MAX_CHARS;
  const truncated = text.length > maxChars;
  return {
    content: renderUntrustedResult({ toolId: options.toolId, text: truncated ? text.slice(0, maxChars) : text, truncation: truncated ? { shown: maxChars, total: text.length } : undefined }),
    truncated,
  };
}
