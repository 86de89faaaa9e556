import { describe, expect, it } from 'vitest';
import { createCatalog, type ToolInput } from '@tool-search/catalog';
import { CONTROL_TOOL_NAMES, TOOL_SEARCH } from './control-tools.js';
import { createFakeCatalog } from './internal/create-fake-catalog.js';
import { catchModesError, CLIENT_TOOLS, HOSTILE_DESCRIPTION, shuffled, SMALL_CATALOG, syntheticTools, VISIBLE_TOOLS } from './internal/fixtures.js';
import { utf8Length } from './internal/text.js';
import { NATIVE_CHAT_FALLBACK_REASON, renderSurface } from './render-surface.js';
import { toProviderTools } from './to-provider-tools.js';
import type { RenderSurfaceOptions, Surface, SurfaceFormat } from './types.js';

const NATIVE_FORMATS = ['openai-responses', 'anthropic'] as const;

function renderNative(format: SurfaceFormat, extra: Partial<RenderSurfaceOptions> = {}): Surface {
  return renderSurface({ mode: 'native', format, catalog: createFakeCatalog(SMALL_CATALOG), visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS, ...extra });
}

/** The surface as a reviewer reads it: instructions, each tool with its kind and namespace, then the provider JSON. */
function printNative(surface: Surface, format: SurfaceFormat): string {
  const parts = [`mode: ${surface.mode} (${surface.format})`, '', '## instructions', surface.instructions || '(none)', '', '## tools'];
  for (const tool of surface.tools) {
    const marks = [tool.kind, tool.deferred ? 'deferred' : undefined, tool.namespace ? `namespace ${tool.namespace.name}` : undefined, tool.nativeSearch]
      .filter((mark) => mark !== undefined)
      .join(', ');
    parts.push(`### ${tool.name}${tool.id ? `  [${tool.id}]` : ''}  (${marks})`);
    if (tool.namespace) parts.push(`namespace description: ${tool.namespace.description}`);
  }
  parts.push('', '## provider tools', JSON.stringify(toProviderTools(surface.tools, format), null, 2));
  return `${parts.join('\n')}\n`;
}

describe('renderSurface in native mode', () => {
  describe('snapshots of the small catalog (reviewed by eye)', () => {
    for (const format of NATIVE_FORMATS) {
      it(`renders native mode for ${format}`, async () => {
        await expect(printNative(renderNative(format), format)).toMatchFileSnapshot(`./__snapshots__/surface-native-${format}.txt`);
      });
    }
  });

  for (const format of NATIVE_FORMATS) {
    describe(format, () => {
      it('declares the search tool, the pinned and client tools directly, and every other catalog tool deferred', () => {
        const surface = renderNative(format);
        expect(surface.tools.map((tool) => [tool.kind, tool.id ?? tool.name, tool.deferred === true])).toEqual([
          ['control', TOOL_SEARCH, false],
          ['client', 'client:app:show_notification', false],
          ['pinned', 'openclaw:core:read_file', false],
          ['catalog', 'openclaw:core:exec', true],
          ['catalog', 'plugin:github:create_issue', true],
          ['catalog', 'plugin:jira:search', true],
          ['catalog', 'mcp:linear:search', true],
          ['catalog', 'mcp:notion:search_pages', true],
          ['catalog', 'plugin:weather:get.forecast', true],
        ]);
      });

      it('records the format and says how to reach the deferred tools', () => {
        const surface = renderNative(format);
        expect(surface.mode).toBe('native');
        expect(surface.format).toBe(format);
        expect(surface.requestedMode).toBeUndefined();
        expect(surface.instructions).toBe(
          'Tool catalog: 6 more tools are available but not loaded. Search for one with tool_search: the tools it finds are loaded, then call them directly by name.',
        );
        expect(surface.hydratable.size).toBe(0);
      });

      it('gives the deferred tools unique provider-safe names, as direct mode does', () => {
        const names = Object.fromEntries(renderNative(format).tools.map((tool) => [tool.id ?? tool.name, tool.name]));
        expect(names['plugin:jira:search']).toBe('jira__search');
        expect(names['mcp:linear:search']).toBe('linear__search');
        expect(names['plugin:weather:get.forecast']).toBe('get_forecast');
      });

      it('renders byte-identically across renders and shuffled inputs', () => {
        const tools = [...SMALL_CATALOG, ...syntheticTools(300)];
        const clientTools: ToolInput[] = [...CLIENT_TOOLS, { name: 'pick_file', source: 'client', owner: 'app' }];
        const render = (catalogTools: ToolInput[], client: ToolInput[]) =>
          renderSurface({ mode: 'native', format, catalog: createFakeCatalog(catalogTools), visible: VISIBLE_TOOLS, clientTools: client });
        const serialize = (surface: Surface) => JSON.stringify({ ...surface, hydratable: [...surface.hydratable], provider: toProviderTools(surface.tools, format) });
        const first = serialize(render(tools, clientTools));
        expect(serialize(render(tools, clientTools))).toBe(first);
        expect(serialize(render(shuffled(tools, 11), shuffled(clientTools, 5)))).toBe(first);
      });

      it('renders from createCatalog exactly as from the test fake', () => {
        const options = { mode: 'native' as const, format, visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS };
        const real = renderSurface({ ...options, catalog: createCatalog(SMALL_CATALOG) });
        const fake = renderSurface({ ...options, catalog: createFakeCatalog(SMALL_CATALOG) });
        expect(JSON.stringify(real.tools)).toBe(JSON.stringify(fake.tools));
      });

      it('declares no tool that is not in the catalog it was given, nor a pinned or client tool', () => {
        const catalog = createFakeCatalog(SMALL_CATALOG.slice(0, 3));
        const surface = renderSurface({ mode: 'native', format, catalog, clientTools: CLIENT_TOOLS });
        const allowed = new Set([...catalog.list().map((tool) => tool.id), 'client:app:show_notification']);
        expect(surface.tools.filter((tool) => tool.id !== undefined).every((tool) => allowed.has(tool.id as string))).toBe(true);
        expect(surface.tools.filter((tool) => tool.deferred)).toHaveLength(3);
      });

      it('renders neither a search tool nor instructions when every tool is visible', () => {
        const surface = renderSurface({ mode: 'native', format, catalog: createFakeCatalog([]), clientTools: CLIENT_TOOLS });
        expect(surface.tools.map((tool) => tool.name)).toEqual(['show_notification']);
        expect(surface.instructions).toBe('');
      });

      it('keeps untrusted descriptions out of the namespace descriptions', () => {
        const descriptions = renderNative(format).tools.map((tool) => tool.namespace?.description ?? '');
        expect(descriptions.join('\n')).not.toContain('IGNORE');
        // The deferred definition itself carries the tool's description, as direct mode does.
        expect(renderNative(format).tools.find((tool) => tool.id === 'mcp:notion:search_pages')?.description).toBe(HOSTILE_DESCRIPTION);
      });
    });
  }

  describe('namespaces', () => {
    it('groups the deferred tools by owner, with a generated description', () => {
      const namespaces = renderNative('openai-responses')
        .tools.filter((tool) => tool.namespace)
        .map((tool) => [tool.id, tool.namespace?.name, tool.namespace?.description]);
      expect(namespaces).toEqual([
        ['openclaw:core:exec', 'core', 'OpenClaw tools "core", 1 tool: exec.'],
        ['plugin:github:create_issue', 'github', 'Plugin "github", 1 tool: create_issue.'],
        ['plugin:jira:search', 'jira', 'Plugin "jira", 1 tool: jira__search.'],
        ['mcp:linear:search', 'linear', 'MCP server "linear", 1 tool: linear__search.'],
        ['mcp:notion:search_pages', 'notion', 'MCP server "notion", 1 tool: search_pages.'],
        ['plugin:weather:get.forecast', 'weather', 'Plugin "weather", 1 tool: get_forecast.'],
      ]);
    });

    it('qualifies an owner name that two sources share with the source', () => {
      const catalog = createFakeCatalog([
        { name: 'create_issue', source: 'plugin', owner: 'github' },
        { name: 'list_repos', source: 'mcp', owner: 'github' },
      ]);
      const surface = renderSurface({ mode: 'native', format: 'openai-responses', catalog });
      expect(surface.tools.filter((tool) => tool.deferred).map((tool) => tool.namespace?.name)).toEqual(['mcp_github', 'plugin_github']);
    });

    it('never names a namespace like a declared function', () => {
      const catalog = createFakeCatalog([
        { name: 'calendar', source: 'plugin', owner: 'calendar' },
        { name: 'list_events', source: 'plugin', owner: 'calendar' },
        { name: 'notes', source: 'plugin', owner: 'notes' },
      ]);
      const surface = renderSurface({
        mode: 'native',
        format: 'openai-responses',
        catalog,
        clientTools: [{ name: 'notes_tools', source: 'client', owner: 'app' }],
        visible: [{ name: 'notes', source: 'plugin', owner: 'notes' }],
      });
      const functionNames = new Set(surface.tools.map((tool) => tool.name));
      const namespaceNames = surface.tools.flatMap((tool) => (tool.namespace ? [tool.namespace.name] : []));
      expect(namespaceNames).toEqual(['calendar_tools', 'calendar_tools']);
      expect(namespaceNames.every((name) => !functionNames.has(name))).toBe(true);
    });

    it('makes safe names of owners with scope characters', () => {
      const surface = renderSurface({
        mode: 'native',
        format: 'openai-responses',
        catalog: createFakeCatalog([{ name: 'run', source: 'plugin', owner: '@acme/deploy.tools' }]),
      });
      expect(surface.tools[1]?.namespace).toEqual({ name: '_acme_deploy_tools', description: 'Plugin "@acme/deploy.tools", 1 tool: run.' });
    });

    it('lists as many names as fit in 320 bytes, then how many more', () => {
      const surface = renderSurface({ mode: 'native', format: 'openai-responses', catalog: createFakeCatalog(syntheticTools(2_000)) });
      const description = surface.tools.find((tool) => tool.namespace?.name === 'plugin_svc0')?.namespace?.description ?? '';
      expect(utf8Length(description)).toBeLessThanOrEqual(320);
      expect(description).toMatch(/^Plugin "svc0", \d+ tools: [a-z_0-9, ]+, and \d+ more\.$/);
    });
  });

  describe('Anthropic search options', () => {
    it('declares our client search tool by default', () => {
      expect(renderNative('anthropic').tools[0]).toMatchObject({ name: TOOL_SEARCH, kind: 'control', nativeSearch: 'anthropic-client' });
    });

    it("declares Anthropic's BM25 or regex server search tool when asked", () => {
      for (const [anthropicSearch, name] of [
        ['bm25', 'tool_search_tool_bm25'],
        ['regex', 'tool_search_tool_regex'],
      ] as const) {
        const surface = renderNative('anthropic', { native: { anthropicSearch } });
        expect(surface.tools[0]).toMatchObject({ name, kind: 'control', nativeSearch: `anthropic-${anthropicSearch}` });
        expect(surface.instructions).toContain(`Search for one with ${name}:`);
      }
    });

    it("rejects a visible tool named like Anthropic's server search tool", () => {
      const error = catchModesError(() =>
        renderNative('anthropic', { native: { anthropicSearch: 'bm25' }, clientTools: [{ name: 'tool_search_tool_bm25', source: 'client', owner: 'app' }] }),
      );
      expect(error.code).toBe('reserved_tool_name');
      expect(error.toolIds).toEqual(['client:app:tool_search_tool_bm25']);
    });

    it('declares the OpenAI client search tool for openai-responses whatever the Anthropic option', () => {
      expect(renderNative('openai-responses', { native: { anthropicSearch: 'regex' } }).tools[0]?.nativeSearch).toBe('openai-client');
    });
  });

  describe('on OpenAI Chat', () => {
    it('falls back to tools mode and says why', () => {
      const surface = renderNative('openai-chat');
      expect(surface.mode).toBe('tools');
      expect(surface.requestedMode).toBe('native');
      expect(surface.fallbackReason).toBe(NATIVE_CHAT_FALLBACK_REASON);
      const tools = renderSurface({ mode: 'tools', catalog: createFakeCatalog(SMALL_CATALOG), visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS });
      expect(surface.tools).toEqual(tools.tools);
      expect(surface.instructions).toBe(tools.instructions);
    });
  });

  describe('errors', () => {
    it('requires the format', () => {
      const error = catchModesError(() => renderSurface({ mode: 'native', catalog: createFakeCatalog(SMALL_CATALOG) }));
      expect(error.code).toBe('invalid_options');
      expect(error.path).toBe('format');
      expect(error.message).toContain('native mode needs the provider format');
    });

    it('rejects an unknown format and an unknown native option', () => {
      expect(catchModesError(() => renderSurface({ mode: 'native', format: 'gemini' as SurfaceFormat, catalog: createFakeCatalog([]) })).path).toBe('format');
      const error = catchModesError(() =>
        renderSurface({ mode: 'native', format: 'anthropic', catalog: createFakeCatalog([]), native: { search: 'bm25' } } as unknown as RenderSurfaceOptions),
      );
      expect(error.message).toContain('search');
    });

    it('still rejects control tool names and client collisions', () => {
      for (const name of CONTROL_TOOL_NAMES) {
        expect(catchModesError(() => renderNative('anthropic', { clientTools: [{ name, source: 'client', owner: 'app' }] })).code).toBe('reserved_tool_name');
      }
      expect(catchModesError(() => renderNative('openai-responses', { clientTools: [{ name: 'exec', source: 'client', owner: 'app' }] })).code).toBe(
        'client_tool_collision',
      );
    });
  });

  it('ignores the format in the other modes', () => {
    const withFormat = renderSurface({ mode: 'tools', format: 'anthropic', catalog: createFakeCatalog(SMALL_CATALOG) });
    const without = renderSurface({ mode: 'tools', catalog: createFakeCatalog(SMALL_CATALOG) });
    expect(JSON.stringify({ ...withFormat, hydratable: [] })).toBe(JSON.stringify({ ...without, hydratable: [] }));
  });
});
