import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { isModesError } from './errors.js';
import { createFakeCatalog } from './internal/create-fake-catalog.js';
import { CLIENT_TOOLS, SMALL_CATALOG, syntheticTools, VISIBLE_TOOLS } from './internal/fixtures.js';
import { renderSurface } from './render-surface.js';
import {
  toAnthropicTools,
  toOpenAIChatTools,
  toOpenAIResponsesTools,
  toProviderTools,
  type AnthropicTool,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  type ProviderToolsFor,
} from './to-provider-tools.js';
import type { Mode, ModelTool, SurfaceFormat } from './types.js';

// The wire shapes the providers accept, written from the openai 6.x types (ChatCompletionFunctionTool,
// responses FunctionTool) and Anthropic's "define tools" page. Strict: an extra key is a failure.
const jsonSchemaObject = z.looseObject({ type: z.literal('object') });
const openAIChatToolShape = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
    description: z.string(),
    parameters: jsonSchemaObject,
  }),
});
const openAIResponsesToolShape = z.strictObject({
  type: z.literal('function'),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
  description: z.string(),
  parameters: jsonSchemaObject,
  strict: z.boolean().nullable(),
});
const anthropicToolShape = z.strictObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/),
  description: z.string(),
  input_schema: jsonSchemaObject,
});

const MODES: Mode[] = ['direct', 'code', 'tools', 'directory'];
const catalogTools = [
  ...SMALL_CATALOG,
  ...syntheticTools(40),
  { name: `very.long.${'segment_'.repeat(12)}name`, source: 'plugin' as const, owner: 'long' },
];

function surfaceTools(mode: Mode): ModelTool[] {
  return renderSurface({ mode, catalog: createFakeCatalog(catalogTools), visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS }).tools;
}

const WEATHER: ModelTool = {
  name: 'get_weather',
  description: 'Weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  id: 'plugin:weather:get_weather',
  kind: 'catalog',
};

describe('toOpenAIChatTools', () => {
  for (const mode of MODES) {
    it(`produces OpenAI Chat function tools in ${mode} mode`, () => {
      const tools = toOpenAIChatTools(surfaceTools(mode));
      expect(tools.length).toBe(surfaceTools(mode).length);
      for (const tool of tools) expect(openAIChatToolShape.safeParse(tool).success).toBe(true);
    });
  }

  it('wraps name, description and parameters in function and drops the id', () => {
    expect(toOpenAIChatTools([WEATHER])).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather for a city.', parameters: WEATHER.inputSchema } },
    ]);
  });

  it('rejects a name OpenAI does not accept, naming the tool id', () => {
    try {
      toOpenAIChatTools([{ ...WEATHER, name: 'get.weather' }]);
      expect.unreachable();
    } catch (error) {
      expect(isModesError(error) && error.code).toBe('invalid_tool_name');
      expect(isModesError(error) && error.toolIds).toEqual(['plugin:weather:get_weather']);
    }
  });
});

describe('toOpenAIResponsesTools', () => {
  for (const mode of MODES) {
    it(`produces OpenAI Responses function tools in ${mode} mode`, () => {
      for (const tool of toOpenAIResponsesTools(surfaceTools(mode))) expect(openAIResponsesToolShape.safeParse(tool).success).toBe(true);
    });
  }

  it('puts name, description and parameters at the top level with strict false', () => {
    expect(toOpenAIResponsesTools([WEATHER])).toEqual([
      { type: 'function', name: 'get_weather', description: 'Weather for a city.', parameters: WEATHER.inputSchema, strict: false },
    ]);
  });

  it('rejects a name longer than 64 characters', () => {
    expect(() => toOpenAIResponsesTools([{ ...WEATHER, name: 'a'.repeat(65) }])).toThrow(/not accepted by OpenAI/);
  });
});

describe('toAnthropicTools', () => {
  for (const mode of MODES) {
    it(`produces Anthropic tools in ${mode} mode`, () => {
      for (const tool of toAnthropicTools(surfaceTools(mode))) expect(anthropicToolShape.safeParse(tool).success).toBe(true);
    });
  }

  it('renames inputSchema to input_schema', () => {
    expect(toAnthropicTools([WEATHER])).toEqual([{ name: 'get_weather', description: 'Weather for a city.', input_schema: WEATHER.inputSchema }]);
  });

  it('accepts names up to 128 characters and rejects longer ones', () => {
    expect(toAnthropicTools([{ ...WEATHER, name: 'a'.repeat(128) }])).toHaveLength(1);
    expect(() => toAnthropicTools([{ ...WEATHER, name: 'a'.repeat(129) }])).toThrow(/not accepted by Anthropic/);
  });
});

describe('toProviderTools', () => {
  it('dispatches on the format', () => {
    expect(toProviderTools([WEATHER], 'openai-chat')).toEqual(toOpenAIChatTools([WEATHER]));
    expect(toProviderTools([WEATHER], 'openai-responses')).toEqual(toOpenAIResponsesTools([WEATHER]));
    expect(toProviderTools([WEATHER], 'anthropic')).toEqual(toAnthropicTools([WEATHER]));
  });

  it('rejects an unknown format', () => {
    expect(() => toProviderTools([WEATHER], 'gemini' as 'anthropic')).toThrow(/unknown surface format "gemini"/);
  });
});

describe('toProviderTools types', () => {
  it('returns the exact tools array of the format, and a union of arrays for a union of formats', () => {
    expectTypeOf(toProviderTools([WEATHER], 'openai-chat')).toEqualTypeOf<OpenAIChatTool[]>();
    expectTypeOf(toProviderTools([WEATHER], 'openai-responses')).toEqualTypeOf<OpenAIResponsesTool[]>();
    expectTypeOf(toProviderTools([WEATHER], 'anthropic')).toEqualTypeOf<AnthropicTool[]>();
    expectTypeOf(toProviderTools([WEATHER], 'anthropic' as SurfaceFormat)).toEqualTypeOf<OpenAIChatTool[] | OpenAIResponsesTool[] | AnthropicTool[]>();
    expectTypeOf<ProviderToolsFor<'anthropic'>>().toEqualTypeOf<AnthropicTool[]>();
  });
});

describe('native-mode tools', () => {
  const nativeCatalog = createFakeCatalog(SMALL_CATALOG);
  const responses = renderSurface({ mode: 'native', format: 'openai-responses', catalog: nativeCatalog, visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS });
  const anthropic = renderSurface({ mode: 'native', format: 'anthropic', catalog: nativeCatalog, visible: VISIBLE_TOOLS, clientTools: CLIENT_TOOLS });

  it('renders the OpenAI client tool search tool, then top-level functions, then one namespace per owner', () => {
    const tools = toOpenAIResponsesTools(responses.tools);
    expect(tools.map((tool) => `${tool.type}:${'name' in tool ? tool.name : ''}`)).toEqual([
      'tool_search:',
      'function:show_notification',
      'function:read_file',
      'namespace:core',
      'namespace:github',
      'namespace:jira',
      'namespace:linear',
      'namespace:notion',
      'namespace:weather',
    ]);
    expect(tools[0]).toEqual({ type: 'tool_search', execution: 'client', description: responses.tools[0]?.description, parameters: responses.tools[0]?.inputSchema });
  });

  it('marks every namespaced function defer_loading and no top-level one', () => {
    const tools = toOpenAIResponsesTools(responses.tools);
    for (const tool of tools) {
      if (tool.type === 'namespace') expect(tool.tools.every((member) => member.defer_loading === true && member.strict === false)).toBe(true);
      if (tool.type === 'function') expect(tool.defer_loading).toBeUndefined();
    }
    expect(tools.find((tool) => tool.type === 'namespace' && tool.name === 'github')).toEqual({
      type: 'namespace',
      name: 'github',
      description: 'Plugin "github", 1 tool: create_issue.',
      tools: [
        {
          type: 'function',
          name: 'create_issue',
          description: 'Open a new issue in a GitHub repository.',
          parameters: SMALL_CATALOG[2]?.inputSchema,
          strict: false,
          defer_loading: true,
        },
      ],
    });
  });

  it('renders Anthropic tools with defer_loading on the deferred ones only', () => {
    const tools = toAnthropicTools(anthropic.tools);
    expect(tools.map((tool) => [tool.name, 'defer_loading' in tool ? tool.defer_loading : undefined])).toEqual([
      ['tool_search', undefined],
      ['show_notification', undefined],
      ['read_file', undefined],
      ['exec', true],
      ['create_issue', true],
      ['jira__search', true],
      ['linear__search', true],
      ['search_pages', true],
      ['get_forecast', true],
    ]);
  });

  it("renders Anthropic's server search tools by their type and fixed name", () => {
    const bm25 = renderSurface({ mode: 'native', format: 'anthropic', catalog: nativeCatalog, native: { anthropicSearch: 'bm25' } });
    const regex = renderSurface({ mode: 'native', format: 'anthropic', catalog: nativeCatalog, native: { anthropicSearch: 'regex' } });
    expect(toAnthropicTools(bm25.tools)[0]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(toAnthropicTools(regex.tools)[0]).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
  });

  it('refuses a native surface in a format it was not rendered for', () => {
    const attempts: Array<[() => unknown, string]> = [
      [() => toAnthropicTools(responses.tools), 'openai-responses native search tool'],
      [() => toOpenAIResponsesTools(anthropic.tools), 'anthropic native search tool'],
      [() => toOpenAIChatTools(responses.tools), 'openai-responses native search tool'],
      [() => toOpenAIChatTools(anthropic.tools.slice(1)), 'deferred (native mode)'],
    ];
    for (const [attempt, message] of attempts) {
      try {
        attempt();
        expect.unreachable();
      } catch (error) {
        expect(isModesError(error) && error.code).toBe('format_mismatch');
        expect(String(error)).toContain(message);
      }
    }
  });

  it('rejects a namespace name OpenAI would not accept', () => {
    const tool: ModelTool = { ...WEATHER, deferred: true, namespace: { name: 'weather.tools', description: 'x' } };
    expect(() => toOpenAIResponsesTools([tool])).toThrow(/"weather.tools" is not accepted by OpenAI/);
  });

  it('declares a deferred tool without a namespace as a top-level deferred function', () => {
    expect(toOpenAIResponsesTools([{ ...WEATHER, deferred: true }])).toEqual([
      { type: 'function', name: 'get_weather', description: 'Weather for a city.', parameters: WEATHER.inputSchema, strict: false, defer_loading: true },
    ]);
  });
});
