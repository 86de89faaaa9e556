// The control tools' input schemas, rendered in each provider format, checked with the providers' own strict
// rules: OpenAI's `toStrictJsonSchema` (what the `openai` SDK runs before a strict request) and Anthropic's
// `transformJSONSchema` (what `@anthropic-ai/sdk` runs for strict tool use) must leave each schema as it is (a
// schema they would rewrite or reject is one a strict client cannot send as declared), and every argument the
// parser accepts must be declared.
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { describe, expect, it } from 'vitest';
import { TOOL_CALL } from './control-tools.js';
import { createFakeCatalog } from './internal/create-fake-catalog.js';
import { SMALL_CATALOG } from './internal/fixtures.js';
import { renderSurface } from './render-surface.js';
import { nativeSearchArgsSchema, toolSearchArgsSchema } from './schemas.js';
import { toAnthropicTools, toOpenAIChatTools, toOpenAIResponsesTools } from './to-provider-tools.js';
import type { ModelTool, ObjectJsonSchema, Surface } from './types.js';

const catalog = createFakeCatalog(SMALL_CATALOG);
const surfaces: Array<[string, Surface]> = [
  ['tools', renderSurface({ mode: 'tools', catalog })],
  ['directory', renderSurface({ mode: 'directory', catalog })],
  ['code', renderSurface({ mode: 'code', catalog })],
  ['native openai-responses', renderSurface({ mode: 'native', format: 'openai-responses', catalog })],
  ['native anthropic', renderSurface({ mode: 'native', format: 'anthropic', catalog })],
  ['native openai-chat', renderSurface({ mode: 'native', format: 'openai-chat', catalog, native: { chatLoading: true } })],
];

/** The control tools whose arguments we define (tool_call's `args` is the catalog tool's own, an open object). */
const strictControls = (surface: Surface): ModelTool[] => surface.tools.filter((tool) => tool.kind === 'control' && tool.name !== TOOL_CALL && tool.description !== '');

/** The schemas of `tools` as each provider format carries them. */
function renderedSchemas(tools: readonly ModelTool[], native: string | undefined): Array<[string, ObjectJsonSchema]> {
  const out: Array<[string, ObjectJsonSchema]> = [];
  if (native === undefined || native === 'openai-responses') {
    for (const tool of toOpenAIResponsesTools(tools)) if (tool.type !== 'namespace') out.push([`openai-responses ${tool.type === 'function' ? tool.name : tool.type}`, tool.parameters]);
  }
  if (native === undefined || native === 'openai-chat') for (const tool of toOpenAIChatTools(tools)) out.push([`openai-chat ${tool.function.name}`, tool.function.parameters]);
  if (native === undefined || native === 'anthropic') for (const tool of toAnthropicTools(tools)) if ('input_schema' in tool) out.push([`anthropic ${tool.name}`, tool.input_schema]);
  return out;
}

/** Our reading of the strict rules both providers document: closed objects, every property required. */
function strictViolations(schema: unknown, path = '#'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const out: string[] = [];
  if (node['type'] === 'object') {
    const properties = Object.keys((node['properties'] as Record<string, unknown> | undefined) ?? {});
    if (node['additionalProperties'] !== false) out.push(`${path}: additionalProperties is not false`);
    const required = (node['required'] as string[] | undefined) ?? [];
    for (const key of properties) if (!required.includes(key)) out.push(`${path}: ${key} is not required`);
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === 'properties') for (const [name, property] of Object.entries(child as Record<string, unknown>)) out.push(...strictViolations(property, `${path}/${name}`));
    else if (key === 'items') out.push(...strictViolations(child, `${path}/items`));
    else if (key === 'anyOf') (child as unknown[]).forEach((branch, index) => out.push(...strictViolations(branch, `${path}/anyOf/${index}`)));
  }
  return out;
}

describe('control tool schemas under strict mode', () => {
  for (const [name, surface] of surfaces) {
    const native = name.startsWith('native ') ? name.slice('native '.length) : undefined;
    for (const [where, schema] of renderedSchemas(strictControls(surface), native)) {
      it(`${name}: ${where} is a fixed point of OpenAI's strict transform`, () => {
        expect(toStrictJsonSchema(schema as Parameters<typeof toStrictJsonSchema>[0])).toEqual(schema);
      });

      it(`${name}: ${where} is a fixed point of Anthropic's strict transform`, () => {
        expect(transformJSONSchema(schema as Record<string, unknown>)).toEqual(schema);
      });

      it(`${name}: ${where} closes every object and requires every property`, () => {
        expect(strictViolations(schema)).toEqual([]);
      });
    }
  }

  it('declares every argument tool_search accepts', () => {
    const schema = renderSurface({ mode: 'tools', catalog }).tools.find((tool) => tool.name === 'tool_search')?.inputSchema;
    const accepted = Object.keys(toolSearchArgsSchema.out.shape).sort();
    expect(accepted).toEqual(['limit', 'offset', 'queries', 'query', 'server', 'servers_offset']);
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(accepted);
  });

  it('declares every argument the native search accepts', () => {
    const schema = renderSurface({ mode: 'native', format: 'anthropic', catalog }).tools.find((tool) => tool.name === 'tool_search')?.inputSchema;
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(Object.keys(nativeSearchArgsSchema.out.shape).sort());
  });

  it('reads the nulls a strict client sends as absent arguments', () => {
    const strict = { query: 'read file', queries: null, limit: null, server: null, offset: null, servers_offset: null };
    expect(toolSearchArgsSchema.parse(strict)).toEqual({ query: 'read file' });
    expect(toolSearchArgsSchema.parse({ ...strict, query: null, servers_offset: 32 })).toEqual({ servers_offset: 32 });
    expect(nativeSearchArgsSchema.parse({ query: null, queries: ['a', 'b'], limit: null })).toEqual({ queries: ['a', 'b'] });
  });

  it('refuses servers_offset with server, naming the argument to use', () => {
    const parsed = toolSearchArgsSchema.safeParse({ server: 'github', servers_offset: 3 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain('{ server, offset }');
  });
});
