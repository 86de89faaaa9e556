// Native mode on OpenAI Chat with `chatLoading`: our `tool_search` loads the tools it finds as real functions of
// the next request, after a prefix that stays byte-identical while tools are only added.
import { describe, expect, it } from 'vitest';
import { createFakeCatalog } from './internal/create-fake-catalog.js';
import { CLIENT_TOOLS, SMALL_CATALOG, VISIBLE_TOOLS } from './internal/fixtures.js';
import { renderChatToolSearchAnswer, withLoadedTools } from './render-native-search-answer.js';
import { renderSurface } from './render-surface.js';
import { toOpenAIChatTools } from './to-provider-tools.js';

const catalog = createFakeCatalog(SMALL_CATALOG);
const surface = renderSurface({ mode: 'native', format: 'openai-chat', catalog, visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS, native: { chatLoading: true } });
const deferredIds = surface.tools.filter((tool) => tool.deferred === true).map((tool) => tool.id as string);

describe('native mode on OpenAI Chat with chatLoading', () => {
  it('renders native mode with our tool_search, the pinned and client tools, and every other tool deferred', () => {
    expect(surface.mode).toBe('native');
    expect(surface.fallbackReason).toBeUndefined();
    expect(surface.tools[0]).toMatchObject({ name: 'tool_search', nativeSearch: 'chat-client' });
    expect(deferredIds.length).toBe(SMALL_CATALOG.length - VISIBLE_TOOLS.length);
  });

  it('still falls back to tools mode without chatLoading', () => {
    expect(renderSurface({ mode: 'native', format: 'openai-chat', catalog }).mode).toBe('tools');
  });

  it('declares nothing deferred before a search, and appends what is loaded after a byte-identical prefix', () => {
    const before = JSON.stringify(toOpenAIChatTools(withLoadedTools(surface, [])));
    const one = JSON.stringify(toOpenAIChatTools(withLoadedTools(surface, [deferredIds[1] as string])));
    const two = JSON.stringify(toOpenAIChatTools(withLoadedTools(surface, [deferredIds[1] as string, deferredIds[0] as string])));
    expect(one.startsWith(before.slice(0, -1))).toBe(true);
    expect(two.startsWith(one.slice(0, -1))).toBe(true);
    const names = toOpenAIChatTools(withLoadedTools(surface, [deferredIds[1] as string, deferredIds[0] as string])).map((tool) => tool.function.name);
    expect(names.slice(-2)).toEqual([1, 0].map((index) => surface.tools.find((tool) => tool.id === deferredIds[index])?.name));
  });

  it('answers a search with the tools it loads, by the names the next request declares', () => {
    const answer = renderChatToolSearchAnswer(surface, { callId: 'c1', hits: [{ id: deferredIds[0] as string }, { id: 'plugin:nowhere:nothing' }] });
    expect(answer.loadedIds).toEqual([deferredIds[0]]);
    expect(answer.unknownIds).toEqual(['plugin:nowhere:nothing']);
    const text = JSON.parse(answer.item) as { loaded: Array<{ name: string }>; note: string };
    expect(text.loaded.map((tool) => tool.name)).toEqual([surface.tools.find((tool) => tool.id === deferredIds[0])?.name]);
    expect(text.note).toContain('directly by name');
  });

  it('says a tool is already available rather than loading it twice', () => {
    const answer = renderChatToolSearchAnswer(surface, { callId: 'c2', hits: [{ id: deferredIds[0] as string }], alreadyLoaded: [deferredIds[0] as string] });
    expect(answer.loadedIds).toEqual([]);
    expect(answer.item).toContain('already available');
  });

  it('refuses a surface not rendered with chatLoading', () => {
    expect(() => renderChatToolSearchAnswer(renderSurface({ mode: 'native', format: 'openai-responses', catalog }), { callId: 'c3', hits: [] })).toThrow(/openai-chat/);
  });
});
