import type { ErrorOutcome, OutcomeKind, ToolCallErrorCode, ToolRef } from '../tool-call-outcome.js';

/** What every outcome of one model tool call shares: its kind, the provider's call id, the name and the start. */
export interface OutcomeStart {
  kind: OutcomeKind;
  toolCallId: string;
  name: string;
  startedAt: number;
}

/** An `error` outcome whose `content` says the code, the message and any "did you mean" ids. */
export function errorOutcome(
  start: OutcomeStart,
  code: ToolCallErrorCode,
  message: string,
  extra: { tool?: ToolRef; suggestions?: string[] } = {},
): ErrorOutcome {
  const suggestions = extra.suggestions?.length ? extra.suggestions : undefined;
  // A message that already names every suggestion (the catalog's "did you mean a, b?") is not followed by them again.
  const unsaid = suggestions?.some((suggestion) => !message.includes(suggestion)) === true;
  const content = `Error (${code}): ${message}${suggestions && unsaid ? `\nDid you mean: ${suggestions.join(', ')}` : ''}`;
  const outcome: ErrorOutcome = {
    status: 'error',
    kind: start.kind,
    toolCallId: start.toolCallId,
    name: start.name,
    code,
    message,
    content,
    durationMs: Date.now() - start.startedAt,
  };
  if (extra.tool) outcome.tool = extra.tool;
  if (suggestions) outcome.suggestions = suggestions;
  return outcome;
}
