// A session outcome as the `response` object of an ADK function response (what the model reads of the call).
import type { ToolCallOutcome } from '@tool-search/gateway-adapter';

/**
 * The function response for an outcome: `{ result }` with the session's model-facing text for a result, and
 * `{ error }` with it for a blocked call or an error (the keys Gemini's function responses use). A `client`
 * outcome is the authorised call (`{ client: { name, args } }`); `ToolSearchToolset` hands it to `onClientCall`
 * instead, so it reaches the model only through this function when called directly.
 */
export function toFunctionResponse(outcome: ToolCallOutcome): Record<string, unknown> {
  switch (outcome.status) {
    case 'ok':
      return { result: outcome.content };
    case 'blocked':
    case 'error':
      return { error: outcome.content };
    case 'client':
      return { client: { name: outcome.tool.name, args: outcome.args } };
  }
}
