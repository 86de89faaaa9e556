import { describe, expect, it } from 'vitest';
import { createCatalog, type ToolInput } from '@tool-search/catalog';
import { CONTROL_TOOL_NAMES, TOOL_CALL, TOOL_DESCRIBE, TOOL_SEARCH, TOOL_SEARCH_CODE } from './control-tools.js';
import { createFakeCatalog } from './internal/create-fake-catalog.js';
import { catchModesError, CLIENT_TOOLS, HOSTILE_DESCRIPTION, shuffled, SMALL_CATALOG, syntheticTools, VISIBLE_TOOLS } from './internal/fixtures.js';
import { utf8Length } from './internal/text.js';
import { renderSurface } from './render-surface.js';
import type { Mode, RenderSurfaceOptions, Surface } from './types.js';

const MODES: Mode[] = ['direct', 'code', 'tools', 'directory'];

function renderSmall(mode: Mode, extra: Partial<RenderSurfaceOptions> = {}): Surface {
  return renderSurface({ mode, catalog: createFakeCatalog(SMALL_CATALOG), visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS, ...extra });
}

/** The surface as a reviewer reads it: instructions, then each tool with its description and schema. */
function printSurface(surface: Surface): string {
  const parts = [`mode: ${surface.mode}`, '', '## instructions', surface.instructions || '(none)', '', '## tools'];
  for (const tool of surface.tools) {
    parts.push(`### ${tool.name}${tool.id ? `  [${tool.id}]` : ''}`, tool.description, JSON.stringify(tool.inputSchema), '');
  }
  parts.push('## hydratable', ...[...surface.hydratable].map(([name, id]) => `${name} -> ${id}`));
  return `${parts.join('\n')}\n`;
}

/** The directory block: every line after the "Tool directory" header. */
function directoryBlock(surface: Surface): string {
  const lines = surface.instructions.split('\n');
  const header = lines.findIndex((line) => line.startsWith('Tool directory'));
  return header === -1 ? '' : lines.slice(header + 1).join('\n');
}

describe('renderSurface', () => {
  describe('snapshots of the small catalog (reviewed by eye)', () => {
    for (const mode of MODES) {
      it(`renders ${mode} mode`, async () => {
        await expect(printSurface(renderSmall(mode))).toMatchFileSnapshot(`./__snapshots__/surface-${mode}.txt`);
      });
    }
  });

  describe('direct mode', () => {
    it('declares every catalog tool once, plus the client tools, with no instructions', () => {
      const surface = renderSmall('direct');
      expect(surface.tools.map((tool) => tool.id)).toEqual([
        'client:app:show_notification',
        'mcp:linear:search',
        'mcp:notion:search_pages',
        'openclaw:core:exec',
        'openclaw:core:read_file',
        'plugin:github:create_issue',
        'plugin:jira:search',
        'plugin:weather:get.forecast',
      ]);
      expect(surface.instructions).toBe('');
      expect(surface.hydratable.size).toBe(0);
    });

    it('keeps names that fit and rewrites the others to fit every provider', () => {
      const names = Object.fromEntries(renderSmall('direct').tools.map((tool) => [tool.id, tool.name]));
      expect(names['openclaw:core:read_file']).toBe('read_file');
      expect(names['plugin:weather:get.forecast']).toBe('get_forecast');
      expect(names['plugin:jira:search']).toBe('jira__search');
      expect(names['mcp:linear:search']).toBe('linear__search');
    });

    it('gives a pinned tool its own name when a catalog tool shares it', () => {
      const catalog = createFakeCatalog([
        { name: 'read_file', source: 'openclaw', owner: 'core' },
        { name: 'read_file', source: 'mcp', owner: 'fs' },
      ]);
      const surface = renderSurface({ mode: 'direct', catalog, visible: [{ name: 'read_file', source: 'openclaw', owner: 'core' }] });
      expect(surface.tools.map((tool) => [tool.id, tool.name])).toEqual([
        ['mcp:fs:read_file', 'fs__read_file'],
        ['openclaw:core:read_file', 'read_file'],
      ]);
    });

    it('cuts a name longer than 64 characters and tags it with a hash', () => {
      const long = `fetch_${'x'.repeat(100)}`;
      const surface = renderSurface({ mode: 'direct', catalog: createFakeCatalog([{ name: long, source: 'plugin', owner: 'p' }]) });
      const name = surface.tools[0]?.name ?? '';
      expect(name).toMatch(/^fetch_x+_[0-9a-f]{8}$/);
      expect(name).toHaveLength(64);
    });

    it('adds type object to a schema that has none', () => {
      const catalog = createFakeCatalog([{ name: 'ping', source: 'plugin', owner: 'p', inputSchema: { properties: { host: { type: 'string' } } } }]);
      expect(renderSurface({ mode: 'direct', catalog }).tools[0]?.inputSchema).toEqual({
        type: 'object',
        properties: { host: { type: 'string' } },
      });
    });
  });

  describe('code mode', () => {
    it('declares exactly tool_search_code plus the visible and client tools', () => {
      expect(renderSmall('code').tools.map((tool) => tool.name)).toEqual([TOOL_SEARCH_CODE, 'show_notification', 'read_file']);
    });

    it('takes a single code string', () => {
      expect(renderSmall('code').tools[0]?.inputSchema).toEqual({
        type: 'object',
        properties: { code: { type: 'string', description: 'Body of an async function. Must end with return <value>.' } },
        required: ['code'],
        additionalProperties: false,
      });
    });

    it('states the bridge, the return rule, logs, limits, timeout and that only tools.call acts', () => {
      const description = renderSmall('code').tools[0]?.description ?? '';
      expect(description).toContain('tools.search(query, { limit })');
      expect(description).toContain('{ id, name, source, owner, description, input, score }');
      expect(description).toContain('tools.describe(id)');
      expect(description).toContain('suggestions');
      expect(description).toContain('tools.call(id, args)');
      expect(description).toContain('"blocked"');
      expect(description).toContain('end with `return <value>`');
      expect(description).toContain('console.log output');
      expect(description).toContain('limit: default 8, max 20');
      expect(description).toContain('stopped after 10 s');
      expect(description).toContain('tools.call is the only way to run a tool');
    });

    it('announces the limits it is given', () => {
      const description = renderSmall('code', { limits: { searchDefaultLimit: 5, maxSearchLimit: 30, codeTimeoutMs: 2500 } }).tools[0]?.description;
      expect(description).toContain('limit: default 5, max 30');
      expect(description).toContain('stopped after 2500 ms');
    });

    it('takes its default limits from the catalog', () => {
      const catalog = createFakeCatalog(SMALL_CATALOG, { searchDefaultLimit: 4, maxSearchLimit: 12 });
      expect(renderSurface({ mode: 'code', catalog }).tools[0]?.description).toContain('limit: default 4, max 12');
    });

    it('says in the instructions how many tools are hidden and how to reach them', () => {
      expect(renderSmall('code').instructions).toBe(
        'Tool catalog: 6 more tools are available but not listed as functions. To use one, call tool_search_code with JavaScript that finds it with tools.search, runs it with tools.call(id, args) and returns the result. Naming a tool anywhere else does not run it.',
      );
    });

    it('has no hydratable names', () => {
      expect(renderSmall('code').hydratable.size).toBe(0);
    });
  });

  describe('tools mode', () => {
    it('declares exactly tool_search, tool_describe and tool_call plus the visible and client tools', () => {
      expect(renderSmall('tools').tools.map((tool) => tool.name)).toEqual([TOOL_SEARCH, TOOL_DESCRIBE, TOOL_CALL, 'show_notification', 'read_file']);
    });

    it('states the tool_search limit and the 16 queries in the descriptions (strict schemas carry no bounds)', () => {
      const schema = renderSmall('tools').tools[0]?.inputSchema as { properties: Record<string, Record<string, unknown>> };
      expect(schema.properties.limit).toEqual({ type: ['integer', 'null'], description: 'Hits per search: default 8, max 20.' });
      expect(schema.properties.queries?.['description']).toBe('Or up to 16 phrasings or steps, results in order.');
    });

    it('says in the instructions how many tools are hidden and how to reach them', () => {
      expect(renderSmall('tools').instructions).toContain('Tool catalog: 6 more tools are available but not listed as functions.');
      expect(renderSmall('tools').instructions).toContain('tool_call({ id, args })');
    });

    it('uses the singular for one hidden tool', () => {
      const surface = renderSurface({ mode: 'tools', catalog: createFakeCatalog([{ name: 'ping', source: 'plugin', owner: 'p' }]) });
      expect(surface.instructions).toContain('1 more tool is available');
    });

    it('says more tools are available without a count while the catalog is still starting, and renders the same tools', () => {
      const starting = renderSmall('tools', { catalogStarting: true });
      expect(starting.instructions).toMatch(/^Tool catalog: more tools are available but not listed as functions \(some of their servers are still starting\)\. Find one with tool_search/);
      expect(starting.instructions).not.toMatch(/\d more tool/);
      expect(JSON.stringify(starting.tools)).toBe(JSON.stringify(renderSmall('tools').tools));
      expect(renderSmall('code', { catalogStarting: true }).instructions).toMatch(/^Tool catalog: more tools are available .* call tool_search_code/);
    });
  });

  describe('directory mode', () => {
    it('lists trusted hidden tools as "- name (owner): description", sorted', () => {
      expect(directoryBlock(renderSmall('directory')).split('\n')).toEqual([
        '- create_issue (github): Open a new issue in a GitHub repository.',
        '- exec (core): Run a shell command in the sandbox and return its output.',
        '- get.forecast (weather): Weather forecast for a city, up to 7 days.',
        '3 more tools: use tool_search',
      ]);
    });

    it('never copies untrusted text into the instructions', () => {
      const surface = renderSmall('directory');
      expect(surface.instructions).not.toContain(HOSTILE_DESCRIPTION);
      expect(surface.instructions).not.toContain('search_pages');
      expect(surface.instructions).not.toContain('notion');
    });

    it('keeps untrusted hidden names hydratable', () => {
      expect(renderSmall('directory').hydratable.get('search_pages')).toBe('mcp:notion:search_pages');
    });

    it('leaves a name used by several catalog tools out of the directory and out of hydratable', () => {
      const surface = renderSmall('directory');
      expect(directoryBlock(surface)).not.toMatch(/^- search /m);
      expect(surface.hydratable.has('search')).toBe(false);
    });

    it('maps every exact unique hidden name to its id, and no visible one', () => {
      expect([...renderSmall('directory').hydratable]).toEqual([
        ['create_issue', 'plugin:github:create_issue'],
        ['exec', 'openclaw:core:exec'],
        ['get.forecast', 'plugin:weather:get.forecast'],
        ['search_pages', 'mcp:notion:search_pages'],
      ]);
    });

    it('leaves a hidden tool out when a visible tool has its name', () => {
      const catalog = createFakeCatalog([
        { name: 'read_file', source: 'openclaw', owner: 'core' },
        { name: 'read_file', source: 'plugin', owner: 'fs' },
      ]);
      const surface = renderSurface({ mode: 'directory', catalog, visible: [{ name: 'read_file', source: 'openclaw', owner: 'core' }] });
      expect(surface.hydratable.size).toBe(0);
      expect(surface.instructions).not.toContain('Tool directory');
    });

    it('keeps the client tools directly visible', () => {
      expect(renderSmall('directory').tools.map((tool) => tool.name)).toEqual([TOOL_SEARCH, TOOL_DESCRIBE, TOOL_CALL, 'show_notification', 'read_file']);
    });

    it('says in tool_call and tool_describe that a listed name works as id', () => {
      const call = renderSmall('directory').tools.find((tool) => tool.name === TOOL_CALL);
      expect(JSON.stringify(call?.inputSchema)).toContain('or a name from the directory');
    });

    const budgets: Array<[string, RenderSurfaceOptions['directory'], number]> = [
      ['the default', undefined, 11_500],
      ['a 200k context window', { contextWindowTokens: 200_000 }, 11_500],
      ['a 32k context window', { contextWindowTokens: 32_000 }, 3_200],
      ['a 4k context window', { contextWindowTokens: 4_000 }, 768],
      ['maxChars', { maxChars: 18_000 }, 18_000],
      ['maxChars over contextWindowTokens', { maxChars: 2_000, contextWindowTokens: 200_000 }, 2_000],
    ];
    for (const size of [10, 100, 1_000, 10_000]) {
      const catalog = createFakeCatalog(syntheticTools(size));
      // At 10,000 tools every budget is far exceeded; the default budget is covered by the row-dropping test below.
      for (const [label, directory, budget] of size === 10_000 ? budgets.slice(3) : budgets) {
        it(`keeps the directory of ${size} tools within ${label} budget (${budget})`, () => {
          const surface = renderSurface({ mode: 'directory', catalog, ...(directory === undefined ? {} : { directory }) });
          expect(utf8Length(directoryBlock(surface))).toBeLessThanOrEqual(budget);
        });
      }
    }

    it('shrinks descriptions before dropping rows', () => {
      // 100 tools, 80 trusted: full rows are ~170 bytes each, far above 6,000, but cut rows fit.
      const surface = renderSurface({ mode: 'directory', catalog: createFakeCatalog(syntheticTools(100)), directory: { maxChars: 6_000 } });
      const rows = directoryBlock(surface).split('\n').filter((line) => line.startsWith('- '));
      expect(rows).toHaveLength(80);
      expect(rows.every((row) => row.includes(': '))).toBe(true);
      expect(rows.some((row) => row.endsWith('…'))).toBe(true);
      expect(directoryBlock(surface).endsWith('\n20 more tools: use tool_search')).toBe(true);
    });

    it('drops rows only when names alone do not fit, and counts every tool not listed', () => {
      const surface = renderSurface({ mode: 'directory', catalog: createFakeCatalog(syntheticTools(10_000)) });
      const block = directoryBlock(surface);
      const rows = block.split('\n').filter((line) => line.startsWith('- '));
      expect(rows.length).toBeGreaterThan(100);
      expect(rows.every((row) => !row.includes(': '))).toBe(true);
      expect(block.endsWith(`\n${10_000 - rows.length} more tools: use tool_search`)).toBe(true);
      expect(surface.instructions).toContain(`Tool directory (${rows.length} of 10000; name (owner)). Run`);
      const names = rows.map((row) => row.slice(2, row.indexOf(' (')));
      expect(names).toEqual([...names].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0)));
    });

    it('renders no directory when not even the closing line fits', () => {
      const surface = renderSurface({ mode: 'directory', catalog: createFakeCatalog(syntheticTools(50)), directory: { maxChars: 10 } });
      expect(surface.instructions).not.toContain('Tool directory');
      expect(surface.instructions).toContain('50 more tools are available');
    });
  });

  describe('visible tools', () => {
    it('keeps a pinned catalog tool visible in every mode and never repeats it', () => {
      for (const mode of MODES) {
        const surface = renderSmall(mode);
        expect(surface.tools.filter((tool) => tool.id === 'openclaw:core:read_file')).toHaveLength(1);
        expect(directoryBlock(surface)).not.toContain('read_file');
        expect(surface.hydratable.has('read_file')).toBe(false);
      }
    });

    it('shows a pinned tool that is not in the catalog', () => {
      const surface = renderSurface({
        mode: 'code',
        catalog: createFakeCatalog([]),
        visible: [{ name: 'memory_get', source: 'openclaw', owner: 'core', description: 'Read memory.' }],
      });
      expect(surface.tools[1]).toEqual({
        name: 'memory_get',
        description: 'Read memory.',
        inputSchema: { type: 'object', properties: {} },
        kind: 'pinned',
        id: 'openclaw:core:memory_get',
      });
    });
  });

  describe('with the real catalog', () => {
    for (const mode of MODES) {
      it(`renders ${mode} mode from createCatalog exactly as from the test fake`, () => {
        const options = { mode, visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS };
        const real = renderSurface({ ...options, catalog: createCatalog(SMALL_CATALOG) });
        const fake = renderSurface({ ...options, catalog: createFakeCatalog(SMALL_CATALOG) });
        expect(JSON.stringify({ ...real, hydratable: [...real.hydratable] })).toBe(JSON.stringify({ ...fake, hydratable: [...fake.hydratable] }));
      });
    }
  });

  describe('byte stability', () => {
    for (const mode of MODES) {
      it(`renders ${mode} mode byte-identically across renders and shuffled inputs`, () => {
        const tools = [...SMALL_CATALOG, ...syntheticTools(300)];
        const clientTools: ToolInput[] = [...CLIENT_TOOLS, { name: 'pick_file', source: 'client', owner: 'app' }];
        const first = renderSurface({ mode, catalog: createFakeCatalog(tools), visible: VISIBLE_TOOLS, clientTools, directory: { maxChars: 4_000 } });
        const again = renderSurface({ mode, catalog: createFakeCatalog(tools), visible: VISIBLE_TOOLS, clientTools, directory: { maxChars: 4_000 } });
        const shuffledRender = renderSurface({
          mode,
          catalog: createFakeCatalog(shuffled(tools, 7)),
          visible: VISIBLE_TOOLS,
          clientTools: shuffled(clientTools, 3),
          directory: { maxChars: 4_000 },
        });
        const serialize = (surface: Surface) => JSON.stringify({ ...surface, hydratable: [...surface.hydratable] });
        expect(serialize(again)).toBe(serialize(first));
        expect(serialize(shuffledRender)).toBe(serialize(first));
      });
    }
  });

  describe('errors', () => {
    it('rejects a client tool whose name is a catalog tool name, naming both ids', () => {
      const error = catchModesError(() =>
        renderSurface({ mode: 'tools', catalog: createFakeCatalog(SMALL_CATALOG), clientTools: [{ name: 'exec', source: 'client', owner: 'app' }] }),
      );
      expect(error.code).toBe('client_tool_collision');
      expect(error.toolIds).toEqual(['client:app:exec', 'openclaw:core:exec']);
      expect(error.message).toContain('client:app:exec');
      expect(error.message).toContain('openclaw:core:exec');
    });

    it('accepts a client tool that is itself in the catalog (same id) and declares it once', () => {
      const client: ToolInput = { name: 'pick_file', source: 'client', owner: 'app' };
      const surface = renderSurface({ mode: 'direct', catalog: createFakeCatalog([...SMALL_CATALOG, client]), clientTools: [client] });
      expect(surface.tools.filter((tool) => tool.name === 'pick_file').map((tool) => tool.id)).toEqual(['client:app:pick_file']);
    });

    it('rejects the collision in every mode', () => {
      for (const mode of MODES) {
        const run = () =>
          renderSurface({ mode, catalog: createFakeCatalog(SMALL_CATALOG), clientTools: [{ name: 'search', source: 'client', owner: 'app' }] });
        expect(catchModesError(run).toolIds).toEqual(['client:app:search', 'mcp:linear:search', 'plugin:jira:search']);
      }
    });

    it('rejects a visible or client tool named like a control tool', () => {
      for (const name of CONTROL_TOOL_NAMES) {
        const error = catchModesError(() =>
          renderSurface({ mode: 'direct', catalog: createFakeCatalog([]), clientTools: [{ name, source: 'client', owner: 'app' }] }),
        );
        expect(error.code).toBe('reserved_tool_name');
        expect(error.toolIds).toEqual([`client:app:${name}`]);
      }
    });

    it('rejects two directly visible tools with the same name', () => {
      const error = catchModesError(() =>
        renderSurface({
          mode: 'code',
          catalog: createFakeCatalog([]),
          visible: [{ name: 'open', source: 'plugin', owner: 'a' }],
          clientTools: [{ name: 'open', source: 'client', owner: 'app' }],
        }),
      );
      expect(error.code).toBe('duplicate_tool_name');
      expect(error.toolIds).toEqual(['client:app:open', 'plugin:a:open']);
    });

    it('rejects an unknown option key with its path', () => {
      const error = catchModesError(() =>
        renderSurface({ mode: 'code', catalog: createFakeCatalog([]), directory: { maxChar: 10 } } as unknown as RenderSurfaceOptions),
      );
      expect(error.code).toBe('invalid_options');
      expect(error.message).toContain('directory');
      expect(error.message).toContain('maxChar');
    });

    it('rejects an unknown mode', () => {
      const error = catchModesError(() => renderSurface({ mode: 'all', catalog: createFakeCatalog([]) } as unknown as RenderSurfaceOptions));
      expect(error.code).toBe('invalid_options');
      expect(error.path).toBe('mode');
    });

    it('rejects a limit that is not a positive integer', () => {
      const error = catchModesError(() => renderSurface({ mode: 'code', catalog: createFakeCatalog([]), limits: { codeTimeoutMs: 0.5 } }));
      expect(error.path).toBe('limits.codeTimeoutMs');
    });

    it('rejects a default search limit above the maximum', () => {
      const error = catchModesError(() => renderSurface({ mode: 'tools', catalog: createFakeCatalog([]), limits: { searchDefaultLimit: 30 } }));
      expect(error.code).toBe('invalid_options');
      expect(error.message).toBe('limits.searchDefaultLimit (30) is above limits.maxSearchLimit (20); expected default <= max');
    });

    it('rejects a client tool whose source is not client', () => {
      const error = catchModesError(() =>
        renderSurface({ mode: 'tools', catalog: createFakeCatalog([]), clientTools: [{ name: 'x', source: 'plugin', owner: 'a' }] }),
      );
      expect(error.path).toBe('clientTools[0].source');
    });

    it('rejects something that is not a catalog', () => {
      const error = catchModesError(() => renderSurface({ mode: 'tools', catalog: [] } as unknown as RenderSurfaceOptions));
      expect(error.path).toBe('catalog');
    });
  });
});
