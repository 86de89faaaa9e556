import { describe, expect, it } from 'vitest';
import { isModesError } from './errors.js';
import { createFakeCatalog } from './internal/create-fake-catalog.js';
import { CLIENT_TOOLS, SMALL_CATALOG, VISIBLE_TOOLS } from './internal/fixtures.js';
import { renderAnthropicToolSearchResult, renderChatToolSearchAnswer, renderOpenAIToolSearchOutput } from './render-native-search-answer.js';
import { renderServerMapText } from './render-search-answer.js';
import { renderSurface } from './render-surface.js';
import { toOpenAIResponsesTools } from './to-provider-tools.js';
import type { Surface } from './types.js';

const catalog = createFakeCatalog(SMALL_CATALOG);
const responses = renderSurface({ mode: 'native', format: 'openai-responses', catalog, visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS });
const anthropic = renderSurface({ mode: 'native', format: 'anthropic', catalog, visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS });

function formatMismatch(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isModesError(error) && error.code === 'format_mismatch') return error.message;
    throw error;
  }
  throw new Error('expected format_mismatch');
}

describe('renderOpenAIToolSearchOutput', () => {
  it('loads the hits inside their namespaces, as the request declared them, with the call id', () => {
    const answer = renderOpenAIToolSearchOutput(responses, {
      callId: 'call_1',
      hits: [{ id: 'mcp:linear:search' }, { id: 'plugin:jira:search' }, { id: 'plugin:github:create_issue' }],
    });
    const declared = toOpenAIResponsesTools(responses.tools);
    const namespace = (name: string) => declared.find((tool) => tool.type === 'namespace' && tool.name === name);
    expect(answer.item).toEqual({
      type: 'tool_search_output',
      execution: 'client',
      call_id: 'call_1',
      status: 'completed',
      tools: [namespace('linear'), namespace('jira'), namespace('github')],
    });
    expect(answer.loadedIds).toEqual(['mcp:linear:search', 'plugin:jira:search', 'plugin:github:create_issue']);
    expect(answer.visibleIds).toEqual([]);
    expect(answer.unknownIds).toEqual([]);
  });

  it('puts hits of one owner into one namespace, in hit order, with only the hits', () => {
    const surface = renderSurface({
      mode: 'native',
      format: 'openai-responses',
      catalog: createFakeCatalog([
        { name: 'a', source: 'plugin', owner: 'p' },
        { name: 'b', source: 'plugin', owner: 'p' },
        { name: 'c', source: 'plugin', owner: 'p' },
        { name: 'd', source: 'plugin', owner: 'q' },
      ]),
    });
    const { item } = renderOpenAIToolSearchOutput(surface, { callId: 'c', hits: [{ id: 'plugin:p:c' }, { id: 'plugin:q:d' }, { id: 'plugin:p:a' }] });
    expect(item.tools.map((tool) => [tool.name, tool.type === 'namespace' ? tool.tools.map((member) => member.name) : []])).toEqual([
      ['p', ['c', 'a']],
      ['q', ['d']],
    ]);
  });

  it('does not load pinned, client, already loaded or unknown hits, and says which they were', () => {
    const answer = renderOpenAIToolSearchOutput(responses, {
      callId: 'call_2',
      hits: [
        { id: 'openclaw:core:read_file' },
        { id: 'client:app:show_notification' },
        { id: 'plugin:weather:get.forecast' },
        { id: 'openclaw:core:exec' },
        { id: 'mcp:evil:exfiltrate' },
        { id: 'openclaw:core:exec' },
      ],
      alreadyLoaded: ['plugin:weather:get.forecast'],
    });
    expect(answer.loadedIds).toEqual(['openclaw:core:exec']);
    expect(answer.visibleIds).toEqual(['openclaw:core:read_file', 'client:app:show_notification', 'plugin:weather:get.forecast']);
    expect(answer.unknownIds).toEqual(['mcp:evil:exfiltrate']);
    expect(JSON.stringify(answer.item)).not.toContain('exfiltrate');
  });

  it('answers with no tools when nothing matched', () => {
    expect(renderOpenAIToolSearchOutput(responses, { callId: 'call_3', hits: [] }).item.tools).toEqual([]);
  });

  it('refuses a surface that is not native for openai-responses', () => {
    expect(formatMismatch(() => renderOpenAIToolSearchOutput(anthropic, { callId: 'x', hits: [] }))).toBe(
      'expected a surface rendered in native mode for openai-responses, received one rendered in native mode for anthropic',
    );
    const tools = renderSurface({ mode: 'tools', catalog });
    expect(formatMismatch(() => renderOpenAIToolSearchOutput(tools, { callId: 'x', hits: [] }))).toContain('received one rendered in tools mode');
  });
});

describe('renderAnthropicToolSearchResult', () => {
  it('answers with one tool_reference per loaded hit, by model name', () => {
    const answer = renderAnthropicToolSearchResult(anthropic, {
      callId: 'toolu_1',
      hits: [{ id: 'plugin:jira:search' }, { id: 'plugin:weather:get.forecast' }],
    });
    expect(answer.item).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [
        { type: 'tool_reference', tool_name: 'jira__search' },
        { type: 'tool_reference', tool_name: 'get_forecast' },
      ],
    });
    expect(answer.loadedIds).toEqual(['plugin:jira:search', 'plugin:weather:get.forecast']);
  });

  it('says so in text when nothing matched', () => {
    expect(renderAnthropicToolSearchResult(anthropic, { callId: 't', hits: [] }).item.content).toBe('No matching tools found. Search again with other words.');
  });

  it('lists the servers instead of a bare nothing when it is given the server map', () => {
    const servers = { servers: [{ source: 'plugin' as const, owner: 'weather', summary: 'tools to forecast, weather.', toolCount: 3, tools: ['get.forecast'] }], omitted: 1 };
    expect(renderAnthropicToolSearchResult(anthropic, { callId: 't', hits: [], servers }).item.content).toBe(
      'No tool clearly matches. Pick a server below by meaning, then search again in the words its tools use.\n- weather: tools to forecast, weather. Tools: get.forecast (+2 more)\n(1 more servers)',
    );
  });

  it('names the matching tools that are already available instead of an empty reference list', () => {
    const answer = renderAnthropicToolSearchResult(anthropic, { callId: 't', hits: [{ id: 'openclaw:core:read_file' }, { id: 'openclaw:core:exec' }], alreadyLoaded: ['openclaw:core:exec'] });
    expect(answer.item.content).toBe('The matching tools are already available; call them directly: read_file, exec.');
    expect(answer.loadedIds).toEqual([]);
  });

  it('refuses a surface that uses Anthropic server-side search, and an OpenAI one', () => {
    const bm25 = renderSurface({ mode: 'native', format: 'anthropic', catalog, native: { anthropicSearch: 'bm25' } });
    expect(formatMismatch(() => renderAnthropicToolSearchResult(bm25, { callId: 'x', hits: [] }))).toContain('anthropic-bm25 search tool');
    expect(formatMismatch(() => renderAnthropicToolSearchResult(responses, { callId: 'x', hits: [] }))).toContain('native mode for openai-responses');
  });

  it('loads nothing from a surface with nothing deferred', () => {
    const empty: Surface = renderSurface({ mode: 'native', format: 'anthropic', catalog: createFakeCatalog([]) });
    expect(renderAnthropicToolSearchResult(empty, { callId: 't', hits: [{ id: 'plugin:github:create_issue' }] }).unknownIds).toEqual(['plugin:github:create_issue']);
  });
});

describe('the server map in every native format', () => {
  const chat = renderSurface({ mode: 'native', format: 'openai-chat', catalog, visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS, native: { chatLoading: true } });
  const servers = {
    servers: [
      { source: 'plugin' as const, owner: 'weather', summary: 'Forecasts by city.', toolCount: 3, tools: ['get.forecast'] },
      { source: 'mcp' as const, owner: 'github', summary: '', toolCount: 0, tools: [], state: 'starting' as const },
    ],
    omitted: 2,
  };
  /** The map's text as each format carries it, for one weak search that loads nothing. */
  const carried = (options: { hits: Array<{ id: string }>; alreadyLoaded?: string[] }) => ({
    'openai-responses': renderOpenAIToolSearchOutput(responses, { callId: 'c', servers, ...options }).followUp?.content.map((part) => part.text).join(''),
    anthropic: renderAnthropicToolSearchResult(anthropic, { callId: 't', servers, ...options }).item.content,
    'openai-chat': renderChatToolSearchAnswer(chat, { callId: 'h', servers, ...options }).item,
  });

  it('carries the same text, renderServerMapText, in each format when a weak search loads nothing', () => {
    const text = renderServerMapText(servers);
    expect(text).toContain('- weather: Forecasts by city. Tools: get.forecast (+2 more)');
    expect(text).toContain('- github: starting');
    expect(carried({ hits: [] })).toEqual({ 'openai-responses': text, anthropic: text, 'openai-chat': text });
  });

  it("sends OpenAI's map as a user message right after its tool_search_output, which still loads nothing", () => {
    const answer = renderOpenAIToolSearchOutput(responses, { callId: 'c', hits: [], servers });
    expect(answer.item).toEqual({ type: 'tool_search_output', execution: 'client', call_id: 'c', status: 'completed', tools: [] });
    expect(answer.followUp).toEqual({ type: 'message', role: 'user', content: [{ type: 'input_text', text: renderServerMapText(servers) }] });
  });

  it('carries no map where something loads or is already available, nor with no map or an empty one', () => {
    const deferred = responses.tools.find((tool) => tool.deferred === true)?.id as string;
    expect(renderOpenAIToolSearchOutput(responses, { callId: 'c', hits: [{ id: deferred }], servers }).followUp).toBeUndefined();
    expect(renderOpenAIToolSearchOutput(responses, { callId: 'c', hits: [{ id: deferred }], alreadyLoaded: [deferred], servers }).followUp).toBeUndefined();
    expect(renderOpenAIToolSearchOutput(responses, { callId: 'c', hits: [] }).followUp).toBeUndefined();
    expect(renderOpenAIToolSearchOutput(responses, { callId: 'c', hits: [], servers: { servers: [], omitted: 0 } }).followUp).toBeUndefined();
  });
});
