// renderSurface: what the model sees before its first token, for each mode. Pure and byte-stable: the same
// catalog and options always give identical output (everything is sorted by code point, nothing depends
// on time, locale or input order).
import { toolId, type JsonSchema, type ToolDescriptor, type ToolInput } from '@tool-search/catalog';
import { buildSearchTools, buildToolSearchCodeTool, CONTROL_TOOL_NAMES } from './control-tools.js';
import { ModesError } from './errors.js';
import { assignModelNames, type NameRequest } from './internal/assign-model-names.js';
import { directoryBudget, renderDirectory, type DirectoryRow } from './internal/render-directory.js';
import { compareStrings } from './internal/text.js';
import { renderSurfaceOptionsSchema } from './schemas.js';
import type { Mode, ModelTool, RenderSurfaceOptions, Surface, SurfaceLimits } from './types.js';

/** Default wall-clock budget of a `tool_search_code` run (matches the gateway's default). */
export const DEFAULT_CODE_TIMEOUT_MS = 10_000;

interface DirectTool {
  id: string;
  name: string;
  owner: string;
  description: string;
  inputSchema: JsonSchema;
}

// Providers need an object schema at the top; the catalog fills in `{ type: 'object', properties: {} }`
// for tools without one, and a schema that only forgot `type` gets it added.
function objectSchema(schema: JsonSchema | undefined): JsonSchema {
  if (schema === undefined) return { type: 'object', properties: {} };
  return schema.type === undefined ? { type: 'object', ...schema } : schema;
}

function fromInput(tool: ToolInput, id: string): DirectTool {
  return {
    id,
    name: tool.name,
    owner: tool.owner,
    description: tool.description ?? '',
    inputSchema: objectSchema(tool.inputSchema),
  };
}

function fromDescriptor(tool: ToolDescriptor): DirectTool {
  return { id: tool.id, name: tool.name, owner: tool.owner, description: tool.description, inputSchema: objectSchema(tool.inputSchema) };
}

function formatIssues(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): { message: string; path: string } {
  const first = error.issues[0];
  const path = first ? first.path.map(String).join('.') : '';
  const message = error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(options)'}: ${issue.message}`)
    .join('; ');
  return { message, path };
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

function searchInstructions(mode: Exclude<Mode, 'direct'>, hiddenCount: number): string {
  const head = `Tool catalog: ${toolCount(hiddenCount)} available but not listed as functions.`;
  if (mode === 'code') {
    return `${head} To use one, call tool_search_code with JavaScript that finds it with tools.search, runs it with tools.call(id, args) and returns the result. Naming a tool anywhere else does not run it.`;
  }
  return `${head} Find one with tool_search, check its arguments with tool_describe when unsure, and run it with tool_call({ id, args }). Naming a tool anywhere else does not run it.`;
}

/**
 * Renders the surface of one mode: the tools to declare, the instruction text and (directory mode) the
 * hidden names a direct call may hydrate. Throws `ModesError` on invalid options and on name clashes.
 */
export function renderSurface(options: RenderSurfaceOptions): Surface {
  const parsed = renderSurfaceOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const { message, path } = formatIssues(parsed.error);
    throw new ModesError('invalid_options', `invalid renderSurface options: ${message}`, { cause: parsed.error, path });
  }
  const { mode, catalog } = options;
  const limits = resolveLimits(options);
  const catalogTools = catalog.list();
  const catalogById = new Map(catalogTools.map((tool) => [tool.id, tool]));
  const catalogIdsByName = new Map<string, string[]>();
  for (const tool of catalogTools) {
    const ids = catalogIdsByName.get(tool.name);
    if (ids) ids.push(tool.id);
    else catalogIdsByName.set(tool.name, [tool.id]);
  }

  // Directly visible tools (pinned and client), one per id; the catalog's descriptor wins for a pinned id.
  const pinned = new Map<string, DirectTool>();
  const pin = (tool: ToolInput, id: string) => {
    const descriptor = catalogById.get(id);
    pinned.set(id, descriptor ? fromDescriptor(descriptor) : fromInput(tool, id));
  };
  for (const tool of options.visible ?? []) pin(tool, toolId(tool.source, tool.owner, tool.name));
  for (const tool of options.clientTools ?? []) {
    const id = toolId(tool.source, tool.owner, tool.name);
    const clashes = (catalogIdsByName.get(tool.name) ?? []).filter((catalogId) => catalogId !== id);
    if (clashes.length > 0) {
      throw new ModesError(
        'client_tool_collision',
        `client tool ${id} has the same name as catalog tool ${clashes.join(', ')}; expected client tool names to be unique`,
        { toolIds: [id, ...clashes] },
      );
    }
    pin(tool, id);
  }
  const pinnedIdsByName = new Map<string, string>();
  for (const tool of [...pinned.values()].sort((left, right) => compareStrings(left.id, right.id))) {
    if (CONTROL_TOOL_NAMES.includes(tool.name)) {
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
  const controlTools =
    mode === 'code' ? [buildToolSearchCodeTool(limits)] : mode === 'direct' ? [] : buildSearchTools(limits, { directory: mode === 'directory' });
  const direct = mode === 'direct' ? [...pinned.values(), ...hidden.map(fromDescriptor)] : [...pinned.values()];

  const requests: NameRequest[] = direct.map((tool) => ({ id: tool.id, name: tool.name, owner: tool.owner, pinned: pinned.has(tool.id) }));
  const modelNames = assignModelNames(requests, new Set(CONTROL_TOOL_NAMES));
  const directModelTools: ModelTool[] = direct
    .map((tool) => ({ name: modelNames.get(tool.id) ?? tool.name, description: tool.description, inputSchema: tool.inputSchema, id: tool.id }))
    .sort((left, right) => compareStrings(left.id, right.id));
  const tools = [...controlTools, ...directModelTools];

  if (mode === 'direct') return { mode, tools, instructions: '', hydratable: new Map() };

  let instructions = searchInstructions(mode, hidden.length);
  const hydratable = new Map<string, string>();
  if (mode === 'directory') {
    // A hidden name is usable on its own only when exactly one catalog tool has it and no visible tool
    // or control tool does. Untrusted tools are hydratable (they are in the allowed catalog; a name is
    // not prompt text), but only trusted text is ever copied into the directory.
    const rows: DirectoryRow[] = [];
    for (const tool of hidden) {
      if ((catalogIdsByName.get(tool.name)?.length ?? 0) !== 1) continue;
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
