// Native mode on OpenAI Chat with chat loading (`nativeSearch.chat: 'load'`): a `tool_search` call the model
// makes as a plain function is answered by loading what our catalog ranks for it under the session's policy.
// The loaded tools become real function definitions of the next request (the session surface appends them in
// load order), at most `maxLoaded`: past it the oldest loaded is unloaded first, and the log says so. A call to
// a loaded tool is a call like any other (policy, hooks, approvals). The words are modes'.
import { renderChatToolSearchAnswer, TOOL_SEARCH, toolSearchArgsSchema, type ModelError, type SurfaceFormat } from '@tool-search/modes';
import type { Logger } from 'pino';
import type { ToolCallOutcome } from '../tool-call-outcome.js';
import type { CatalogReads, SearchRequest } from './catalog-reads.js';
import { errorOutcome, type OutcomeStart } from './error-outcome.js';
import { formatZodError } from '../shared/index.js';
import type { SessionSurface } from './session-surface.js';
import type { SessionEmit } from './session-event.js';

/** What answering a chat-loading search needs of its session. */
export interface ChatSearchParts {
  surface: SessionSurface;
  reads: CatalogReads;
  /** Ids each format's searches loaded, in load order (a `Set` keeps insertion order: its first is the oldest). */
  loaded: Map<SurfaceFormat, Set<string>>;
  maxLoaded: number;
  emit: SessionEmit;
  log: Logger;
}

const FORMAT: SurfaceFormat = 'openai-chat';

/** Answers one `tool_search` call on OpenAI Chat with chat loading; a bad request is an `invalid_request` error. */
export function answerChatToolSearch(parts: ChatSearchParts, args: Record<string, unknown>, start: OutcomeStart): ToolCallOutcome {
  const fail = (error: ModelError) => {
    parts.emit({ kind: 'error' });
    return errorOutcome(start, 'invalid_request', error);
  };
  const parsed = toolSearchArgsSchema.safeParse(args);
  if (!parsed.success) return fail({ kind: 'invalid_arguments', tool: TOOL_SEARCH, problem: formatZodError(parsed.error, 'args').message });
  const { query, queries, limit } = parsed.data;
  if (query === undefined && queries === undefined) return fail({ kind: 'search_needs_query' });
  const requests: SearchRequest[] =
    query !== undefined ? [{ query, limit }] : (queries ?? []).map((entry) => (typeof entry === 'string' ? { query: entry, limit } : { query: entry.query, limit: entry.limit ?? limit }));
  let answers;
  try {
    answers = parts.reads.searchWithEvidence(requests, query !== undefined, start.toolCallId, 'native');
  } catch (error) {
    return fail({ kind: 'relayed', message: error instanceof Error ? error.message : String(error) });
  }
  const loaded = parts.loaded.get(FORMAT) ?? new Set<string>();
  parts.loaded.set(FORMAT, loaded);
  const weak = answers.every((answer) => answer.evidence === 'weak');
  const answer = renderChatToolSearchAnswer(parts.surface.rendered(FORMAT), {
    callId: start.toolCallId,
    hits: answers.flatMap((entry) => entry.hits),
    alreadyLoaded: loaded,
    ...(weak ? { servers: parts.reads.servers(requests[0]?.query, start.toolCallId, 'native') } : {}),
  });
  for (const id of answer.loadedIds) loaded.add(id);
  parts.emit({ kind: 'native.load', toolCallId: start.toolCallId, format: FORMAT, loadedIds: answer.loadedIds, unknownIds: answer.unknownIds });
  // Bounded: past the limit the oldest loaded tools go first (a prompt cache keeps the longest unchanged prefix).
  const unloaded: string[] = [];
  for (const id of loaded) {
    if (loaded.size <= parts.maxLoaded) break;
    loaded.delete(id);
    unloaded.push(id);
  }
  if (unloaded.length > 0) {
    parts.emit({ kind: 'native.unload', fields: { toolCallId: start.toolCallId, format: FORMAT, unloadedIds: unloaded, maxLoaded: parts.maxLoaded } });
    parts.log.info({ format: FORMAT, unloadedIds: unloaded, maxLoaded: parts.maxLoaded }, 'loaded tools past the limit unloaded, oldest first');
  }
  return { status: 'ok', kind: 'search', toolCallId: start.toolCallId, name: start.name, result: answer.item, untrusted: false, truncated: false, content: answer.item, durationMs: Date.now() - start.startedAt };
}
