// The trust-by-source rule: which tools are trusted when nobody says otherwise.
import type { ToolSource } from './tool-id.js';

/**
 * Trust by source. `openclaw` and `plugin` tools are code the host installed and runs itself; `mcp` tools come
 * from a server the host only talks to, and `client` tools from whoever sent the request, so their text and
 * results are treated as data unless the host vouches for them (an MCP server configured as trusted).
 */
const TRUSTED_BY_SOURCE: Readonly<Record<ToolSource, boolean>> = Object.freeze({
  openclaw: true,
  plugin: true,
  mcp: false,
  client: false,
});

/** Whether a tool of `source` is trusted when its entry does not say (`ToolInput.trusted` unset). */
export function isTrustedByDefault(source: ToolSource): boolean {
  return TRUSTED_BY_SOURCE[source];
}
