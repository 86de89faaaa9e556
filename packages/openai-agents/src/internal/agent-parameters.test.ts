import { mcpToFunctionTool, tool, type MCPServer } from '@openai/agents';
import type { ToolSearchHost, ToolSearchSession } from '@tool-search/gateway-adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolSearchTools } from '../tool-search-tools.js';
import { nonStrictParameters, strictParameters } from './agent-parameters.js';
import { createFixtureHost, openFixtureSession } from './fixtures.js';
import { scaledTimeout } from '@tool-search/property-settings';

let host: ToolSearchHost;
const sessions: ToolSearchSession[] = [];
beforeAll(async () => {
  host = await createFixtureHost();
  for (const config of [true, { mode: 'tools' }]) sessions.push(await openFixtureSession(host, config, { client: false }));
}, scaledTimeout(30_000));
afterAll(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  await host.close();
});

/** A server the SDK's MCP bridge only reads the name of while converting a tool (nothing is ever called). */
const unusedServer: MCPServer = {
  name: 'unused',
  cacheToolsList: false,
  connect: async () => undefined,
  close: async () => undefined,
  listTools: async () => [],
  callTool: async () => {
    throw new Error('not called');
  },
  invalidateToolsCache: async () => undefined,
};

const controlTools = () => sessions.flatMap((session) => session.modelSurface().tools.filter((tool) => tool.kind === 'control'));

describe('control tool parameters', () => {
  it('declares tool_search_code strict, and the SDK strict check and conversion leave it as it is', () => {
    const [codeTool] = toolSearchTools(sessions[0]!);
    const surfaceTool = controlTools().find((tool) => tool.name === 'tool_search_code')!;
    expect(codeTool).toMatchObject({ name: 'tool_search_code', strict: true, parameters: surfaceTool.inputSchema });
    const strict = strictParameters(surfaceTool.inputSchema)!;
    // The SDK's MCP bridge converts a schema to strict only when that keeps its meaning, else falls back.
    const inputSchema = { ...strict, required: strict.required.map(String) };
    const bridged = mcpToFunctionTool({ name: 'tool_search_code', description: '', inputSchema }, unusedServer, true);
    expect(bridged).toMatchObject({ strict: true, parameters: strict });
  });

  it('declares tool_describe strict as the surface closes it, tool_search and tool_call non-strict with additionalProperties true, which the SDK takes as given', () => {
    const tools = toolSearchTools(sessions[1]!);
    expect(tools.map((declared) => [declared.name, declared.strict, declared.parameters.additionalProperties])).toEqual([
      ['tool_search', false, true],
      ['tool_describe', true, false],
      ['tool_call', false, true],
    ]);
    // tool_describe is closed with its one string property required: OpenAI strict's shape, declared as it is.
    const describeTool = controlTools().find((tool) => tool.name === 'tool_describe')!;
    expect(tools.find((declared) => declared.name === 'tool_describe')!.parameters).toEqual(describeTool.inputSchema);
    for (const surfaceTool of controlTools().filter((control) => control.name !== 'tool_search_code' && control.name !== 'tool_describe')) {
      const declared = tools.find((candidate) => candidate.name === surfaceTool.name)!;
      expect(declared.parameters).toEqual({ ...surfaceTool.inputSchema, required: surfaceTool.inputSchema.required ?? [], additionalProperties: true });
    }
  });
});

describe('strictParameters', () => {
  const closed = { type: 'object' as const, properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a', 'b'], additionalProperties: false };

  it('keeps a closed schema of required primitives as it is', () => {
    expect(strictParameters(closed)).toEqual(closed);
    expect(tool({ name: 'x', description: '', parameters: strictParameters(closed)!, strict: true, execute: () => '' }).parameters).toEqual(closed);
  });

  it('is undefined for an optional property, an open or unmarked schema, a nested object and no properties', () => {
    expect(strictParameters({ ...closed, required: ['a'] })).toBeUndefined();
    expect(strictParameters({ ...closed, additionalProperties: true })).toBeUndefined();
    const { additionalProperties: _dropped, ...unmarked } = closed;
    expect(strictParameters(unmarked)).toBeUndefined();
    expect(strictParameters({ ...closed, properties: { a: { type: 'object' }, b: { type: 'string' } } })).toBeUndefined();
    expect(strictParameters({ type: 'object', properties: {}, required: [], additionalProperties: false })).toBeUndefined();
  });
});

describe('nonStrictParameters', () => {
  it('fills properties and required, opens the object and turns boolean property schemas into objects', () => {
    expect(nonStrictParameters({ type: 'object' })).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: true });
    expect(nonStrictParameters({ type: 'object', properties: { any: true, none: false, n: { type: 'number' } }, required: ['n'], additionalProperties: false })).toEqual({
      type: 'object',
      properties: { any: {}, none: { not: {} }, n: { type: 'number' } },
      required: ['n'],
      additionalProperties: true,
    });
  });
});
