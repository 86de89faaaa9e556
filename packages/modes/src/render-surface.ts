// renderSurface: what the model sees before its first token, for each mode. Pure and byte-stable: the same
// catalog and options always give identical output (everything is sorted by code point, nothing depends
// on time, locale or input order).
import { z } from 'zod';
import { toolId, type JsonSchema, type ToolDescriptor, type ToolInput, type ToolSource } from '@tool-search/catalog';
import {
  ANTHROPIC_SERVER_SEARCH_TOOL_NAMES,
  buildNativeSearchTool,
  buildSearchTools,
  buildToolSearchCodeTool,
  CONTROL_TOOL_NAMES,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
  TOOL_SEARCH_CODE,
} from './control-tools.js';
import { ModesError, type ModesErrorIssue } from './errors.js';
import { assignModelNames, type NameRequest } from './internal/assign-model-names.js';
import { assignNamespaces } from './internal/assign-namespaces.js';
import { directoryBudget, renderDirectory, type DirectoryRow } from './internal/render-directory.js';
import { compareStrings } from './internal/text.js';
import { renderSurfaceOptionsSchema } from './schemas.js';
import type {
  AnthropicNativeSearch,
  Mode,
  ModelTool,
  ModelToolKind,
  NativeSearchTool,
  ObjectJsonSchema,
  RenderSurfaceOptions,
  Surface,
  SurfaceFormat,
  SurfaceLimits,
} from './types.js';

/** Default wall-clock budget of a `tool_search_code` run (matches the gateway's default). */
export const DEFAULT_CODE_TIMEOUT_MS = 10_000;

/**
 * Why OpenAI Chat renders `tools` mode when `native` is asked for: its tool types (openai 6.x
 * `ChatCompletionFunctionTool`, `ChatCompletionCustomTool`) have no `defer_loading` and it has no tool search.
 */
export const NATIVE_CHAT_FALLBACK_REASON =
  'OpenAI Chat Completions has no deferred tool loading (no defer_loading, no tool search), so tools mode was rendered instead';

/** The native search tool for each format that has one (OpenAI Chat has none: it falls back). */
const NATIVE_SEARCH_FOR_ANTHROPIC: Record<AnthropicNativeSearch, NativeSearchTool> = {
  client: 'anthropic-client',
  bm25: 'anthropic-bm25',
  regex: 'anthropic-regex',
};

interface DirectTool {
  id: string;
  name: string;
  source: ToolSource;
  owner: string;
  description: string;
  inputSchema: ObjectJsonSchema;
}

// Providers need an object schema at the top; the catalog fills in `{ type: 'object', properties: {} }`
// for tools without one, and a schema that only forgot `type` gets it added. A schema with another
// top-level type (a broken server's) is declared as an object schema: every provider rejects anything else.
function objectSchema(schema: JsonSchema | undefined): ObjectJsonSchema {
  if (schema === undefined) return { type: 'object', properties: {} };
  if (schema.type === 'object') return schema as ObjectJsonSchema;
  return schema.type === undefined ? { type: 'object', ...schema } : { ...schema, type: 'object' };
}

function fromInput(tool: ToolInput, id: string): DirectTool {
  return {
    id,
    name: tool.name,
    source: tool.source,
    owner: tool.owner,
    description: tool.description ?? '',
    inputSchema: objectSchema(tool.inputSchema),
  };
}

function fromDescriptor(tool: ToolDescriptor): DirectTool {
  return {
    id: tool.id,
    name: tool.name,
    source: tool.source,
    owner: tool.owner,
    description: tool.description,
    inputSchema: objectSchema(tool.inputSchema),
  };
}

function formatIssues(error: z.ZodError): { message: string; path: string; issues: ModesErrorIssue[] } {
  const issues = error.issues.map((issue) => ({ path: z.core.toDotPath(issue.path), message: issue.message }));
  const message = issues
    .slice(0, 5)
    .map((issue) => `${issue.path || '(options)'}: ${issue.message}`)
    .join('; ');
  return { message, path: issues[0]?.path ?? '', issues };
}

function resolveLimits(options: RenderSurfaceOptions): SurfaceLimits {
  const limits: SurfaceLimits = {
    searchDefaultLimit: options.limits?.searchDefaultLimit ?? options.catalog.limits.searchDefaultLimit,
    maxSearchLimit: options.limits?.maxSearchLimit ?? options.catalog.limits.maxSearchLimit,
    codeTimeoutMs: options.limits?.codeTimeoutMs ?? DEFAULT_CODE_TIMEOUT_MS,
  };
  if (limits.searchDefaultLimit > limits.maxSearchLimit) {
    throw new ModesError(
      'invalid_options',
      `limits.searchDefaultLimit (${limits.searchDefaultLimit}) is above limits.maxSearchLimit (${limits.maxSearchLimit}); expected default <= max`,
      { path: 'limits.searchDefaultLimit' },
    );
  }
  return limits;
}

function toolCount(count: number): string {
  return count === 1 ? '1 more tool is' : `${count} more tools are`;
}

function searchInstructions(mode: Exclude<Mode, 'direct' | 'native'>, hiddenCount: number, catalogStarting: boolean): string {
  // While sources are still starting the count would understate the catalog: say there is more, not how much.
  const head = catalogStarting
    ? 'Tool catalog: more tools are available but not listed as functions (some of their servers are still starting).'
    : `Tool catalog: ${toolCount(hiddenCount)} available but not listed as functions.`;
  if (mode === 'code') {
    return `${head} To use one, call ${TOOL_SEARCH_CODE} with JavaScript that finds it with tools.search, runs it with tools.call(id, args) and returns the result. Naming a tool anywhere else does not run it.`;
  }
  return `${head} Find one with ${TOOL_SEARCH}, check its arguments with ${TOOL_DESCRIBE} when unsure, and run it with ${TOOL_CALL}({ id, args }). Naming a tool anywhere else does not run it.`;
}

function nativeInstructions(searchToolName: string, hiddenCount: number): string {
  return `Tool catalog: ${toolCount(hiddenCount)} available but not loaded. Search for one with ${searchToolName}: the tools it finds are loaded, then call them directly by name.`;
}

function nativeSearchFor(format: SurfaceFormat | undefined, options: RenderSurfaceOptions): NativeSearchTool | undefined {
  if (format === 'openai-responses') return 'openai-client';
  if (format === 'anthropic') return NATIVE_SEARCH_FOR_ANTHROPIC[options.native?.anthropicSearch ?? 'client'];
  if (format === 'openai-chat' && options.native?.chatLoading === true) return 'chat-client';
  return undefined;
}

/**
 * Renders the surface of one mode: the tools to declare, the instruction text and (directory mode) the
 * hidden names a direct call may hydrate. `native` mode needs `format`; on OpenAI Chat it renders `tools`
 * mode and says why (`requestedMode`, `fallbackReason`). Throws `ModesError` on invalid options and on name clashes.
 */
export function renderSurface(options: RenderSurfaceOptions): Surface {
  const parsed = renderSurfaceOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const { message, path, issues } = formatIssues(parsed.error);
    throw new ModesError('invalid_options', `invalid renderSurface options: ${message}`, { cause: issues, ...(path === '' ? {} : { path }) });
  }
  if (options.mode === 'native') {
    const nativeSearch = nativeSearchFor(options.format, options);
    if (nativeSearch === undefined) {
      return { ...renderMode({ ...options, mode: 'tools' }, undefined), requestedMode: 'native', fallbackReason: NATIVE_CHAT_FALLBACK_REASON };
    }
    return renderMode(options, nativeSearch);
  }
  return renderMode(options, undefined);
}

function renderMode(options: RenderSurfaceOptions, nativeSearch: NativeSearchTool | undefined): Surface {
  const { mode, catalog } = options;
  const limits = resolveLimits(options);
  // Only the modes that show catalog tools read the whole list; tools and code mode stay O(pinned + client).
  const listsCatalog = mode === 'direct' || mode === 'native' || mode === 'directory';
  const catalogTools = listsCatalog ? catalog.list() : [];

  // Directly visible tools (pinned and client), one per id; the catalog's descriptor wins for a pinned id.
  const pinned = new Map<string, DirectTool>();
  const pinnedKinds = new Map<string, ModelToolKind>();
  const pin = (tool: ToolInput, id: string, kind: ModelToolKind) => {
    const descriptor = catalog.get(id);
    pinned.set(id, descriptor ? fromDescriptor(descriptor) : fromInput(tool, id));
    pinnedKinds.set(id, kind);
  };
  for (const tool of options.visible ?? []) pin(tool, toolId(tool.source, tool.owner, tool.name), 'pinned');
  for (const tool of options.clientTools ?? []) {
    const id = toolId(tool.source, tool.owner, tool.name);
    const clashes = catalog.named(tool.name).filter((catalogId) => catalogId !== id);
    if (clashes.length > 0) {
      throw new ModesError(
        'client_tool_collision',
        `client tool ${id} has the same name as catalog tool ${clashes.join(', ')}; expected client tool names to be unique`,
        { toolIds: [id, ...clashes] },
      );
    }
    pin(tool, id, 'client');
  }
  // Anthropic fixes the names of its server-side search tools: in native mode they are control names too.
  const serverSearchName =
    nativeSearch === 'anthropic-bm25' || nativeSearch === 'anthropic-regex' ? ANTHROPIC_SERVER_SEARCH_TOOL_NAMES[nativeSearch] : undefined;
  const reservedNames: readonly string[] = serverSearchName === undefined ? CONTROL_TOOL_NAMES : [...CONTROL_TOOL_NAMES, serverSearchName];
  const pinnedIdsByName = new Map<string, string>();
  for (const tool of [...pinned.values()].sort((left, right) => compareStrings(left.id, right.id))) {
    if (reservedNames.includes(tool.name)) {
      throw new ModesError('reserved_tool_name', `tool ${tool.id} uses the control tool name "${tool.name}"; expected another name`, {
        toolIds: [tool.id],
      });
    }
    const other = pinnedIdsByName.get(tool.name);
    if (other !== undefined) {
      throw new ModesError('duplicate_tool_name', `visible tools ${other} and ${tool.id} share the name "${tool.name}"; expected unique names`, {
        toolIds: [other, tool.id],
      });
    }
    pinnedIdsByName.set(tool.name, tool.id);
  }

  const hidden = catalogTools.filter((tool) => !pinned.has(tool.id));
  const hiddenCount = listsCatalog ? hidden.length : catalog.size - [...pinned.keys()].filter((id) => catalog.get(id) !== undefined).length;
  const declaresCatalog = mode === 'direct' || mode === 'native';
  const direct = declaresCatalog ? [...pinned.values(), ...hidden.map(fromDescriptor)] : [...pinned.values()];

  const requests: NameRequest[] = direct.map((tool) => ({ id: tool.id, name: tool.name, owner: tool.owner, pinned: pinned.has(tool.id) }));
  const modelNames = assignModelNames(requests, new Set(reservedNames));
  const toModelTool = (tool: DirectTool): ModelTool => ({
    name: modelNames.get(tool.id) ?? tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    kind: pinnedKinds.get(tool.id) ?? 'catalog',
    id: tool.id,
  });

  if (mode === 'native') return renderNative(direct, pinned, toModelTool, modelNames, limits, nativeSearch as NativeSearchTool, options.format);

  const controlTools =
    mode === 'code' ? [buildToolSearchCodeTool(limits)] : mode === 'direct' ? [] : buildSearchTools(limits, { directory: mode === 'directory' });
  const directModelTools: ModelTool[] = direct.map(toModelTool).sort((left, right) => compareStrings(left.id as string, right.id as string));
  const tools = [...controlTools, ...directModelTools];

  if (mode === 'direct') return { mode, tools, instructions: '', hydratable: new Map() };

  let instructions = searchInstructions(mode, hiddenCount, options.catalogStarting === true);
  const hydratable = new Map<string, string>();
  if (mode === 'directory') {
    const nameCounts = new Map<string, number>();
    for (const tool of catalogTools) nameCounts.set(tool.name, (nameCounts.get(tool.name) ?? 0) + 1);
    // A hidden name is usable on its own only when exactly one catalog tool has it and no visible tool
    // or control tool does. Untrusted tools are hydratable (they are in the allowed catalog; a name is
    // not prompt text), but only trusted text is ever copied into the directory.
    const rows: DirectoryRow[] = [];
    for (const tool of hidden) {
      if (nameCounts.get(tool.name) !== 1) continue;
      if (pinnedIdsByName.has(tool.name) || CONTROL_TOOL_NAMES.includes(tool.name)) continue;
      hydratable.set(tool.name, tool.id);
      if (tool.trusted) rows.push({ name: tool.name, owner: tool.owner, description: tool.description, source: tool.source });
    }
    const directory = renderDirectory({ rows, hiddenCount: hidden.length, budget: directoryBudget(options.directory ?? {}) });
    if (directory.listed > 0) {
      const format = directory.descriptionChars === 0 ? 'name (owner)' : 'name (owner): description';
      instructions += `\nTool directory (${directory.listed} of ${hidden.length}; ${format}). Run a listed tool with tool_call({ id: "<name>", args }); use tool_search for anything not listed.\n${directory.text}`;
    }
  }
  return { mode, tools, instructions, hydratable: new Map([...hydratable.entries()].sort(([left], [right]) => compareStrings(left, right))) };
}

// Native mode: the search tool first, then the pinned and client tools (not deferred), then every hidden
// catalog tool, deferred and grouped by namespace (sorted by namespace, then id), so that OpenAI's namespace
// tools come out contiguous and the bytes do not depend on input order. With nothing hidden there is
// nothing to search: no search tool and no instructions.
function renderNative(
  direct: readonly DirectTool[],
  pinned: ReadonlyMap<string, DirectTool>,
  toModelTool: (tool: DirectTool) => ModelTool,
  modelNames: ReadonlyMap<string, string>,
  limits: SurfaceLimits,
  nativeSearch: NativeSearchTool,
  format: SurfaceFormat | undefined,
): Surface {
  const byId = (left: ModelTool, right: ModelTool) => compareStrings(left.id as string, right.id as string);
  const visibleTools = direct.filter((tool) => pinned.has(tool.id)).map(toModelTool).sort(byId);
  const hiddenTools = direct.filter((tool) => !pinned.has(tool.id));
  const searchTool = buildNativeSearchTool(limits, nativeSearch);
  const taken = new Set<string>([...CONTROL_TOOL_NAMES, searchTool.name, ...modelNames.values()]);
  const namespaces = assignNamespaces(
    hiddenTools.map((tool) => ({ id: tool.id, source: tool.source, owner: tool.owner, modelName: modelNames.get(tool.id) ?? tool.name })),
    taken,
  );
  const deferredTools = hiddenTools
    .map((tool): ModelTool => {
      const namespace = namespaces.get(tool.id);
      return { ...toModelTool(tool), deferred: true, ...(namespace === undefined ? {} : { namespace }) };
    })
    .sort((left, right) => compareStrings(left.namespace?.name ?? '', right.namespace?.name ?? '') || byId(left, right));
  const surface = (tools: ModelTool[], instructions: string): Surface => ({
    mode: 'native',
    tools,
    instructions,
    hydratable: new Map(),
    ...(format === undefined ? {} : { format }),
  });
  if (deferredTools.length === 0) return surface(visibleTools, '');
  return surface([searchTool, ...visibleTools, ...deferredTools], nativeInstructions(searchTool.name, deferredTools.length));
}
