// The control tools of the search modes: their names, their JSON Schemas and their descriptions. The texts
// are the whole contract a model gets, so they are written for a weak model to use right the first time:
// what each function returns, that code must `return`, and that a tool only runs through a call.
import { MAX_QUERIES_PER_CALL } from '@tool-search/catalog';
import type { ModelTool, NativeSearchTool, ObjectJsonSchema, SurfaceLimits } from './types.js';

/** The one tool of `code` mode: runs model-written JavaScript with the `tools` bridge. */
export const TOOL_SEARCH_CODE = 'tool_search_code';
/** Search the catalog (`tools` and `directory` modes). */
export const TOOL_SEARCH = 'tool_search';
/** Full schema of one catalog tool (`tools` and `directory` modes). */
export const TOOL_DESCRIBE = 'tool_describe';
/** Run one catalog tool by id (`tools` and `directory` modes). */
export const TOOL_CALL = 'tool_call';
/**
 * Every control tool name. This package owns the list: no visible or client tool may use one, and the gateway
 * hands it to the catalog as its reserved names, so no source tool is ever catalogued or called under one.
 */
export const CONTROL_TOOL_NAMES: readonly string[] = Object.freeze([TOOL_SEARCH_CODE, TOOL_SEARCH, TOOL_DESCRIBE, TOOL_CALL]);
/** The name of one of our control tools. */
export type ControlToolName = typeof TOOL_SEARCH_CODE | typeof TOOL_SEARCH | typeof TOOL_DESCRIBE | typeof TOOL_CALL;

/** True when `name` is one of `CONTROL_TOOL_NAMES`. */
export function isControlToolName(name: string): name is ControlToolName {
  return CONTROL_TOOL_NAMES.includes(name);
}

/** The argument of `tool_search` that pages the server map (the catalog's page names its next offset so). */
export const SERVERS_OFFSET_ARG = 'servers_offset';

/** Most queries one `tool_search` call takes (matches `catalog.searchMany`). */
export const MAX_SEARCH_QUERIES = MAX_QUERIES_PER_CALL;

const HIT_SHAPE = '{ id, name, source, owner, description, input, score }';

/** `10000` → `10 s`; `2500` → `2500 ms`. Deterministic (no locale). */
function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The `tool_search_code` tool: the bridge API in a few lines. */
export function buildToolSearchCodeTool(limits: SurfaceLimits): ModelTool {
  const description = [
    'Run JavaScript that finds and calls tools from the tool catalog.',
    '`code` is the body of an async function: use await, and end with `return <value>`. You get back that value and any console.log output; without return you get undefined.',
    'Inside the code only these functions exist:',
    `- await tools.search(query, { limit }) -> array of hits ${HIT_SHAPE}, best first; \`input\` shows the tool's arguments. limit: default ${limits.searchDefaultLimit}, max ${limits.maxSearchLimit}. Write query as a tool description would say it: an action and its object ("send email"), not the whole request; search each step on its own. When none fits, hits.servers lists the servers.`,
    '- await tools.describe(id) -> { found: true, tool } where tool.inputSchema is the full JSON Schema, or { found: false, message, suggestions } (suggestions are ids).',
    '- await tools.call(id, args) -> { status: "ok", result } with the tool\'s result, or { status: "error" | "blocked", ... } saying why. Do not retry a blocked call.',
    'tools.call is the only way to run a tool: writing a tool\'s name as a function, in text or in console.log does nothing.',
    `No fetch, require, import, process, files or timers. The run is stopped after ${formatDuration(limits.codeTimeoutMs)}.`,
    'Example:',
    'const hits = await tools.search("create calendar event");',
    'if (hits.length === 0) return "no matching tool";',
    'return await tools.call(hits[0].id, { title: "Standup", date: "2025-01-06" });',
  ].join('\n');
  const inputSchema: ObjectJsonSchema = {
    type: 'object',
    properties: {
      code: { type: 'string', description: 'Body of an async function. Must end with return <value>.' },
    },
    required: ['code'],
    additionalProperties: false,
  };
  return { name: TOOL_SEARCH_CODE, description, inputSchema, kind: 'control' };
}

/** The three tools of `tools` and `directory` modes, in a fixed order: search, describe, call. */
export function buildSearchTools(limits: SurfaceLimits, options: { directory: boolean }): ModelTool[] {
  const idDescription = options.directory ? 'Tool id from tool_search, or a name from the directory.' : 'Tool id from tool_search.';
  const search: ModelTool = {
    name: TOOL_SEARCH,
    description: [
      'Search by action and object, in tools\' words ("create calendar event").',
      `Returns hits ${HIT_SHAPE}, best first; run one with tool_call({ id, args }).`,
      `({ server, query }) searches one server: { matched, toolCount, hits }, matched = how many of its tools match; ({ server }) lists its tools (offset pages them); ({}) lists the servers (${SERVERS_OFFSET_ARG} pages them, as an answer's next says).`,
    ].join(' '),
    inputSchema: searchArgsJsonSchema(limits),
    kind: 'control',
  };
  const describe: ModelTool = {
    name: TOOL_DESCRIBE,
    description: "Get one catalog tool's full input schema by its id. Returns the tool, or a miss with suggested ids.",
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: idDescription },
      },
      required: ['id'],
      additionalProperties: false,
    },
    kind: 'control',
  };
  const call: ModelTool = {
    name: TOOL_CALL,
    description: [
      "Run a catalog tool. args must match the tool's arguments (`input` in tool_search, or tool_describe).",
      'Returns the result, or an error or blocked outcome saying why.',
      'This is the only way to run a catalog tool: writing its name anywhere else does nothing.',
    ].join(' '),
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: idDescription },
        args: { type: 'object', description: "The tool's arguments." },
      },
      required: ['id', 'args'],
      additionalProperties: false,
    },
    kind: 'control',
  };
  return [search, describe, call];
}

/**
 * The JSON Schema of `tool_search`'s arguments (`tools`/`directory` modes): every argument the tool accepts, in
 * the shape OpenAI's strict mode and Anthropic's strict tool use both take as they are (every property required,
 * an absent one sent as null, no open objects, no keywords either provider drops). The bounds are in the
 * descriptions, and `toolSearchArgsSchema` enforces them.
 */
function searchArgsJsonSchema(limits: SurfaceLimits): ObjectJsonSchema {
  return strictObject({
    ...searchQueryProperties(limits),
    server: { type: ['string', 'null'] },
    offset: { type: ['integer', 'null'] },
    [SERVERS_OFFSET_ARG]: { type: ['integer', 'null'] },
  });
}

/** The query arguments both `tool_search` schemas share: `query`, `queries` and `limit`, each nullable. */
function searchQueryProperties(limits: SurfaceLimits): Record<string, Record<string, unknown>> {
  return {
    query: { type: ['string', 'null'], description: 'e.g. "read file".' },
    queries: {
      anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }],
      description: `Or up to ${MAX_SEARCH_QUERIES} phrasings or steps, results in order.`,
    },
    limit: { type: ['integer', 'null'], description: `Hits per search: default ${limits.searchDefaultLimit}, max ${limits.maxSearchLimit}.` },
  };
}

/** A closed object schema whose every property is required (strict mode's shape). */
function strictObject(properties: Record<string, Record<string, unknown>>): ObjectJsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/** The native search tool's arguments: the query arguments only (a native search loads tools; it does not browse). */
function nativeSearchArgsJsonSchema(limits: SurfaceLimits): ObjectJsonSchema {
  return strictObject(searchQueryProperties(limits));
}

/** Anthropic's server-side search tools, by the native search they stand for: the name Anthropic fixes for each. */
export const ANTHROPIC_SERVER_SEARCH_TOOL_NAMES = {
  'anthropic-bm25': 'tool_search_tool_bm25',
  'anthropic-regex': 'tool_search_tool_regex',
} as const satisfies Partial<Record<NativeSearchTool, string>>;

/**
 * The search control tool of native mode. Ours (`openai-client`, `anthropic-client`) takes the arguments of
 * `tool_search` and answers with the provider's loading mechanism; Anthropic's server-side tools carry no
 * schema of ours (the provider defines them), so theirs is an empty object schema that is never sent.
 */
export function buildNativeSearchTool(limits: SurfaceLimits, nativeSearch: NativeSearchTool): ModelTool {
  if (nativeSearch === 'anthropic-bm25' || nativeSearch === 'anthropic-regex') {
    return { name: ANTHROPIC_SERVER_SEARCH_TOOL_NAMES[nativeSearch], description: '', inputSchema: { type: 'object' }, kind: 'control', nativeSearch };
  }
  const loads =
    nativeSearch === 'chat-client'
      ? 'The best matching tools are added to your functions for your next step: call them directly by name then.'
      : 'The best matching tools are loaded: call them directly by name afterwards.';
  return {
    name: TOOL_SEARCH,
    description: [`Search the tool catalog with an action and its object, as a tool description would say it ("create calendar event"). ${loads}`, 'Search again with other words if none fits.'].join(' '),
    inputSchema: nativeSearchArgsJsonSchema(limits),
    kind: 'control',
    nativeSearch,
  };
}
