// The answer to a native search: given the hits our catalog chose (under the session's policy, within the
// search limits), the provider's own item that loads them. OpenAI Responses: a `tool_search_output` input
// item that repeats the loaded definitions exactly as the request declared them (inside their namespaces);
// Anthropic: a `tool_result` whose content is `tool_reference` blocks naming deferred tools of the request.
// Only tools the surface declares as deferred are ever loaded: a hit the surface does not know (the catalog
// changed since it was rendered) is reported, never invented.
import { ModesError } from './errors.js';
import { renderServerMapText, type ServerMapPage } from './render-search-answer.js';
import { groupIntoNamespaces, type OpenAIResponsesFunctionTool, type OpenAIResponsesNamespaceTool } from './to-provider-tools.js';
import type { ModelTool, NativeSearchTool, Surface, SurfaceFormat } from './types.js';

/** A hit to load: a `SearchHit` or `ToolDescriptor` from the catalog (only `id` is read). */
export interface NativeSearchHit {
  id: string;
}

/** Options of the native search answer renderers. */
export interface NativeSearchAnswerOptions {
  /** The call to answer: OpenAI's `call_id`, Anthropic's `tool_use` id (see `parseOpenAIToolSearchCall`). */
  callId: string;
  /** The hits, best first; duplicates are loaded once. */
  hits: readonly NativeSearchHit[];
  /** Ids already loaded earlier in the conversation: not loaded again (reported in `visibleIds`). */
  alreadyLoaded?: Iterable<string>;
  /**
   * The server map, for a search with weak evidence: when nothing new is loaded, the answer lists the servers
   * instead of a bare "nothing" (`renderServerMapText`, the same text in every format): in the text of Anthropic's
   * `tool_result` and of the chat answer, and in OpenAI's `followUp` (its `tool_search_output` carries tools only).
   */
  servers?: ServerMapPage;
}

/** What an answer loads, next to the provider item. */
export interface NativeSearchAnswer<Item> {
  item: Item;
  /** Ids this answer loads, in hit order. */
  loadedIds: string[];
  /** Hit ids that need no loading: pinned and client tools, and `alreadyLoaded` ones. */
  visibleIds: string[];
  /** Hit ids the surface does not declare (not in the catalog it was rendered from): never loaded. */
  unknownIds: string[];
}

/** The OpenAI Responses input item answering a client-executed `tool_search_call`. */
export interface OpenAIToolSearchOutputItem {
  type: 'tool_search_output';
  execution: 'client';
  call_id: string;
  status: 'completed';
  /** The loaded definitions, exactly as the request declared them (namespaces keep their description). */
  tools: Array<OpenAIResponsesFunctionTool | OpenAIResponsesNamespaceTool>;
}

/**
 * An OpenAI Responses input message sent right after a `tool_search_output` that loads nothing new: the server map
 * the output cannot carry (it holds tool definitions only). A user message, as the chat tool result's media
 * follow-up is, never a developer one: the map's summaries are the servers' own (sanitised) words.
 */
export interface OpenAIToolSearchFollowUp {
  type: 'message';
  role: 'user';
  content: Array<{ type: 'input_text'; text: string }>;
}

/** OpenAI's answer: the `tool_search_output`, and when the search was weak and loaded nothing, the map as `followUp`. */
export interface OpenAIToolSearchAnswer extends NativeSearchAnswer<OpenAIToolSearchOutputItem> {
  /** Append it to the input right after `item`. */
  followUp?: OpenAIToolSearchFollowUp;
}

/** A reference to a deferred Anthropic tool: the API expands it into the tool's definition. */
export interface AnthropicToolReferenceBlock {
  type: 'tool_reference';
  tool_name: string;
}

/** The Anthropic `tool_result` answering a `tool_use` of our search tool. */
export interface AnthropicToolSearchResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  /** `tool_reference` blocks when something was loaded, else a short text saying why not. */
  content: AnthropicToolReferenceBlock[] | string;
}

function requireNativeSurface(surface: Surface, format: SurfaceFormat, search: NativeSearchTool): void {
  if (surface.mode !== 'native' || surface.format !== format) {
    const rendered = surface.mode === 'native' ? `native mode for ${surface.format ?? 'no format'}` : `${surface.mode} mode`;
    throw new ModesError('format_mismatch', `expected a surface rendered in native mode for ${format}, received one rendered in ${rendered}`);
  }
  const searchTool = surface.tools.find((tool) => tool.nativeSearch !== undefined);
  if (searchTool !== undefined && searchTool.nativeSearch !== search) {
    throw new ModesError('format_mismatch', `the surface declares the ${searchTool.nativeSearch} search tool; there is no ${search} search call to answer`);
  }
}

function selectTools(surface: Surface, options: NativeSearchAnswerOptions): { tools: ModelTool[]; loadedIds: string[]; visibleIds: string[]; unknownIds: string[] } {
  const declared = new Map<string, ModelTool>();
  for (const tool of surface.tools) if (tool.id !== undefined) declared.set(tool.id, tool);
  const alreadyLoaded = new Set(options.alreadyLoaded ?? []);
  const seen = new Set<string>();
  const tools: ModelTool[] = [];
  const loadedIds: string[] = [];
  const visibleIds: string[] = [];
  const unknownIds: string[] = [];
  for (const { id } of options.hits) {
    if (seen.has(id)) continue;
    seen.add(id);
    const tool = declared.get(id);
    if (tool === undefined) unknownIds.push(id);
    else if (tool.deferred !== true || alreadyLoaded.has(id)) visibleIds.push(id);
    else {
      tools.push(tool);
      loadedIds.push(id);
    }
  }
  return { tools, loadedIds, visibleIds, unknownIds };
}

/**
 * Renders the `tool_search_output` item answering a client-executed OpenAI `tool_search_call`: the hits'
 * definitions, grouped into their namespaces, with the call's `call_id`. Append it to the input after
 * the model's output items and send the next request. Throws `ModesError('format_mismatch')` for a
 * surface not rendered in native mode for `openai-responses`.
 */
export function renderOpenAIToolSearchOutput(surface: Surface, options: NativeSearchAnswerOptions): OpenAIToolSearchAnswer {
  requireNativeSurface(surface, 'openai-responses', 'openai-client');
  const { tools, ...ids } = selectTools(surface, options);
  const item: OpenAIToolSearchOutputItem = { type: 'tool_search_output', execution: 'client', call_id: options.callId, status: 'completed', tools: groupIntoNamespaces(tools) };
  const map = tools.length === 0 ? serverMapWhenNothingFound(ids.visibleIds, options.servers) : undefined;
  return { item, ...ids, ...(map === undefined ? {} : { followUp: { type: 'message', role: 'user', content: [{ type: 'input_text', text: map }] } }) };
}

/** The map's text for an answer that loads nothing and names nothing already available, when it has a map. */
function serverMapWhenNothingFound(visibleIds: readonly string[], servers: ServerMapPage | undefined): string | undefined {
  return visibleIds.length === 0 && servers !== undefined && servers.servers.length > 0 ? renderServerMapText(servers) : undefined;
}

function nothingLoadedText(surface: Surface, visibleIds: readonly string[], servers: ServerMapPage | undefined): string {
  const map = serverMapWhenNothingFound(visibleIds, servers);
  if (map !== undefined) return map;
  if (visibleIds.length === 0) return 'No matching tools found. Search again with other words.';
  const names = surface.tools.filter((tool) => tool.id !== undefined && visibleIds.includes(tool.id)).map((tool) => tool.name);
  return `The matching tools are already available; call them directly: ${names.join(', ')}.`;
}

/**
 * Renders the `tool_result` answering a `tool_use` of the native search tool on Anthropic: one
 * `tool_reference` per loaded hit (the API expands each into the deferred definition), or a short text when
 * nothing new matched. Throws `ModesError('format_mismatch')` for a surface not rendered in native mode for
 * `anthropic` with our search tool (Anthropic's server-side search is answered by Anthropic).
 */
export function renderAnthropicToolSearchResult(surface: Surface, options: NativeSearchAnswerOptions): NativeSearchAnswer<AnthropicToolSearchResultBlock> {
  requireNativeSurface(surface, 'anthropic', 'anthropic-client');
  const { tools, ...ids } = selectTools(surface, options);
  const content: AnthropicToolReferenceBlock[] | string =
    tools.length === 0 ? nothingLoadedText(surface, ids.visibleIds, options.servers) : tools.map((tool) => ({ type: 'tool_reference', tool_name: tool.name }));
  return { item: { type: 'tool_result', tool_use_id: options.callId, content }, ...ids };
}

/** Longest description of a loaded tool in a chat search answer, in characters. */
const CHAT_LOADED_DESCRIPTION_CHARS = 120;

/**
 * The text of the tool message answering a `tool_search` call on OpenAI Chat with `chatLoading`: the tools it
 * loads (by the names the next request declares them under, each with a one-line description), or why nothing
 * was loaded (already available, no match, or the server map). The caller adds `loadedIds` to the session's
 * loaded tools, so the next request declares them (`withLoadedTools`).
 */
export function renderChatToolSearchAnswer(surface: Surface, options: NativeSearchAnswerOptions): NativeSearchAnswer<string> {
  requireNativeSurface(surface, 'openai-chat', 'chat-client');
  const { tools, ...ids } = selectTools(surface, options);
  if (tools.length === 0) return { item: nothingLoadedText(surface, ids.visibleIds, options.servers), ...ids };
  const loaded = tools.map((tool) => {
    const line = tool.description.split('\n')[0] ?? '';
    return { name: tool.name, description: line.length <= CHAT_LOADED_DESCRIPTION_CHARS ? line : `${line.slice(0, CHAT_LOADED_DESCRIPTION_CHARS - 1)}…` };
  });
  return { item: JSON.stringify({ loaded, note: 'These tools are now functions of yours: call the one you need directly by name in your next step.' }), ...ids };
}

/**
 * The tools an OpenAI Chat request declares for a native surface rendered with `chatLoading`: the surface's own
 * (the search tool, pinned and client tools) in their order, then the loaded ones in the order given (the order
 * they were loaded in, oldest first), as plain functions. A prefix that does not change while tools are only
 * added, so a provider's prompt cache keeps it. Ids the surface does not declare are skipped.
 */
export function withLoadedTools(surface: Surface, loadedIds: Iterable<string>): ModelTool[] {
  const deferred = new Map<string, ModelTool>();
  for (const tool of surface.tools) if (tool.deferred === true && tool.id !== undefined) deferred.set(tool.id, tool);
  const loaded: ModelTool[] = [];
  for (const id of loadedIds) {
    const tool = deferred.get(id);
    if (tool === undefined) continue;
    const { deferred: _deferred, namespace: _namespace, ...plain } = tool;
    loaded.push(plain);
  }
  return [...surface.tools.filter((tool) => tool.deferred !== true), ...loaded];
}
