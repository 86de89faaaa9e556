import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isModesError } from './errors.js';
import { createFakeCatalog } from './internal/create-fake-catalog.js';
import { CLIENT_TOOLS, SMALL_CATALOG, syntheticTools, VISIBLE_TOOLS } from './internal/fixtures.js';
import { renderSurface } from './render-surface.js';
import { toAnthropicTools, toOpenAIChatTools, toOpenAIResponsesTools, toProviderTools } from './to-provider-tools.js';
import type { Mode, ModelTool } from './types.js';

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
