// The in-process tools a host catalogues: OpenClaw core tools and the tools of loaded plugins.
import type { ExecutableTool } from '../executable-tool.js';
import type { LocalTool } from './host-registry.js';
import type { LoadedPlugin } from './load-plugin-tools.js';

/** OpenClaw and plugin tools as catalog entries, each with where it came from. */
export function collectLocalTools(openclaw: readonly ExecutableTool[], plugins: readonly LoadedPlugin[]): LocalTool[] {
  const local = (tool: ExecutableTool, source: 'openclaw' | 'plugin', owner: string, where: string): LocalTool => {
    const input: LocalTool['input'] = { name: tool.name, source, owner: tool.owner ?? owner };
    if (tool.description !== undefined) input.description = tool.description;
    if (tool.inputSchema !== undefined) input.inputSchema = tool.inputSchema;
    if (tool.outputSchema !== undefined) input.outputSchema = tool.outputSchema;
    if (tool.tags !== undefined) input.tags = tool.tags;
    return { input, ownerOnly: tool.ownerOnly === true, tool, where };
  };
  return [
    ...openclaw.map((tool, index) => local(tool, 'openclaw', 'core', `sources.openclaw[${index}]`)),
    ...plugins.flatMap((plugin, pluginIndex) => plugin.tools.map((tool, index) => local(tool, 'plugin', plugin.name, `sources.plugins[${pluginIndex}].tools[${index}]`))),
  ];
}
