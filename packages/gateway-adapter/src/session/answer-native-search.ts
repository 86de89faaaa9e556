// Native mode: the provider's own tool-search request (an OpenAI Responses `tool_search_call` item, or an
// Anthropic `tool_use` of our search tool), answered with the definitions our catalog ranks for it under the
// session's policy, within the search limits. Parsing and the provider items belong to modes; this wires them
// to the session's reads (counted and logged like any search) and remembers what each format has loaded.
import {
  parseAnthropicToolSearchUse,
  parseOpenAIToolSearchCall,
  renderAnthropicToolSearchResult,
  renderNativeSearchError,
  renderOpenAIToolSearchOutput,
  type AnthropicToolSearchResultBlock,
  type OpenAIToolSearchOutputItem,
  type SurfaceFormat,
} from '@tool-search/modes';
import { GatewayAdapterError } from '../errors.js';
import type { NativeSearchFormat, NativeSearchResult } from '../tool-search-session.js';
import type { CatalogReads } from './catalog-reads.js';
import type { SessionSurface } from './session-surface.js';
import type { SessionEmit } from './session-event.js';

/** Answers one native search request; a malformed one is still answered (nothing loaded), with `error` set. */
export function answerNativeSearch<F extends NativeSearchFormat>(
  parts: { surface: SessionSurface; reads: CatalogReads; loaded: Map<SurfaceFormat, Set<string>>; emit: SessionEmit },
  request: unknown,
  format: F,
): NativeSearchResult<F> {
  if (format !== 'openai-responses' && format !== 'anthropic') {
    throw new GatewayAdapterError('invalid_options', `Native tool search is answered for openai-responses or anthropic, received ${JSON.stringify(String(format)).slice(0, 40)}`);
  }
  const surface = parts.surface.current(format);
  if (surface.mode !== 'native') {
    throw new GatewayAdapterError('invalid_options', `This session renders ${surface.mode} mode for ${format}: there is no native tool search to answer`);
  }
  const call = format === 'openai-responses' ? parseOpenAIToolSearchCall(request) : parseAnthropicToolSearchUse(request);
  const loaded = parts.loaded.get(format) ?? new Set<string>();
  parts.loaded.set(format, loaded);
  if (!call.ok) {
    if (call.callId === undefined) throw new GatewayAdapterError('invalid_options', `Not a native tool search call: ${call.message}`);
    return { ...emptyAnswer(surface, format, call.callId, call.message), error: call.message } as NativeSearchResult<F>;
  }
  let answers;
  try {
    answers = parts.reads.searchWithEvidence(call.queries, call.queries.length === 1, call.callId, 'native');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ...emptyAnswer(surface, format, call.callId, message), error: message } as NativeSearchResult<F>;
  }
  const hits = answers.flatMap((answer) => answer.hits);
  // Weak evidence everywhere: the map goes along (Anthropic's text answer; OpenAI's follow-up message).
  const weak = answers.every((answer) => answer.evidence === 'weak');
  const options = { callId: call.callId, hits, alreadyLoaded: loaded, ...(weak ? { servers: parts.reads.servers(call.queries[0]?.query, call.callId, 'native') } : {}) };
  const answer = format === 'openai-responses' ? renderOpenAIToolSearchOutput(surface, options) : renderAnthropicToolSearchResult(surface, options);
  for (const id of answer.loadedIds) loaded.add(id);
  parts.emit({ kind: 'native.load', toolCallId: call.callId, format, loadedIds: answer.loadedIds, unknownIds: answer.unknownIds });
  const followUp = 'followUp' in answer ? answer.followUp : undefined;
  return { item: answer.item, loadedIds: answer.loadedIds, ...(followUp === undefined ? {} : { followUp }) } as NativeSearchResult<F>;
}

/** The answer that loads nothing (the provider requires every search call to be answered). */
function emptyAnswer(surface: ReturnType<SessionSurface['current']>, format: NativeSearchFormat, callId: string, why: string): { item: OpenAIToolSearchOutputItem | AnthropicToolSearchResultBlock; loadedIds: string[] } {
  if (format === 'openai-responses') return { item: renderOpenAIToolSearchOutput(surface, { callId, hits: [] }).item, loadedIds: [] };
  return { item: { type: 'tool_result', tool_use_id: callId, content: renderNativeSearchError(why) }, loadedIds: [] };
}
