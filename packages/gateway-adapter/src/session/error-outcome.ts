import { renderErrorAnswer, renderErrorText, type ModelError } from '@tool-search/modes';
import type { ErrorOutcome, OutcomeKind, ToolCallErrorCode, ToolRef } from '../tool-call-outcome.js';

/** What every outcome of one model tool call shares: its kind, the provider's call id, the name and the start. */
export interface OutcomeStart {
  kind: OutcomeKind;
  toolCallId: string;
  name: string;
  startedAt: number;
}

/**
 * An `error` outcome for what went wrong, given as data: the words of its message and `content` (the code, the
 * message and any "did you mean" ids) are modes'.
 */
export function errorOutcome(
  start: OutcomeStart,
  code: ToolCallErrorCode,
  error: ModelError,
  extra: { tool?: ToolRef; suggestions?: string[] } = {},
): ErrorOutcome {
  const suggestions = extra.suggestions?.length ? extra.suggestions : undefined;
  const message = renderErrorText(error);
  const content = renderErrorAnswer({ code, message, suggestions });
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
