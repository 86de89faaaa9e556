import { basename, extname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GatewayAdapterError } from '../errors.js';
import type { ExecutableTool } from '../executable-tool.js';

/** A plugin to load: a module path, or a path with an explicit owner name. */
export type PluginSpec = string | { path: string; name?: string };

/** The tools one plugin module contributed, under its owner name. */
export interface LoadedPlugin {
  name: string;
  path: string;
  tools: ExecutableTool[];
}

/**
 * Loads plugins by path. A plugin module exports its tools as `tools` (an array), or as its default export
 * (an array, `{ name?, tools }`, or a function returning either, possibly async). Its owner name is the
 * spec's `name`, else the module's `name` export, else the file name without extension.
 * Throws `GatewayAdapterError('plugin_load_failed')` naming the path when a module cannot be used.
 */
export async function loadPluginTools(specs: readonly PluginSpec[], options: { cwd?: string } = {}): Promise<LoadedPlugin[]> {
  const cwd = options.cwd ?? process.cwd();
  const plugins: LoadedPlugin[] = [];
  for (const [index, spec] of specs.entries()) {
    const givenPath = typeof spec === 'string' ? spec : spec.path;
    const path = isAbsolute(givenPath) ? givenPath : resolve(cwd, givenPath);
    const fail = (what: string, cause?: unknown): never => {
      throw new GatewayAdapterError('plugin_load_failed', `Plugin ${path}: ${what}`, { path: `sources.plugins[${index}]`, cause });
    };
    let moduleNamespace: Record<string, unknown>;
    try {
      moduleNamespace = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    } catch (error) {
      return fail(`cannot be imported (${error instanceof Error ? error.message : String(error)})`, error);
    }
    let exported: unknown = moduleNamespace['tools'] ?? moduleNamespace['default'];
    if (typeof exported === 'function') exported = await (exported as () => unknown)();
    let exportedName: unknown = moduleNamespace['name'];
    if (isRecord(exported) && !Array.isArray(exported) && Array.isArray(exported['tools'])) {
      exportedName = exported['name'] ?? exportedName;
      exported = exported['tools'];
    }
    if (!Array.isArray(exported)) fail('expected a `tools` array export, or a default export of tools');
    const tools = exported as unknown[];
    tools.forEach((tool, toolIndex) => {
      if (!isRecord(tool) || typeof tool['name'] !== 'string' || typeof tool['execute'] !== 'function') {
        fail(`tool [${toolIndex}] must be an object with a string \`name\` and an \`execute\` function`);
      }
    });
    const name =
      (typeof spec === 'object' && spec.name) ||
      (typeof exportedName === 'string' && exportedName) ||
      basename(path, extname(path)).replace(/[^A-Za-z0-9_.-]/g, '_');
    plugins.push({ name, path, tools: tools as ExecutableTool[] });
  }
  return plugins;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
