// measureSurface: the bytes a surface costs in a provider request, for telemetry and the benchmark.
import { utf8Length } from './internal/text.js';
import { toProviderTools, type ProviderTool } from './to-provider-tools.js';
import type { Surface, SurfaceFormat, SurfaceMeasure } from './types.js';

// What the provider shows the model of one declared tool before any search, per the providers' docs:
// OpenAI shows a namespace's name and description (its deferred functions only once loaded) and a
// deferred top-level function's name and description; Anthropic shows nothing of a deferred tool.
function upFront(tool: ProviderTool): ProviderTool | { type: 'function'; name: string; description: string } | undefined {
  if ('type' in tool && tool.type === 'namespace') return { ...tool, tools: tool.tools.filter((member) => member.defer_loading !== true) };
  if (!('defer_loading' in tool) || tool.defer_loading !== true) return tool;
  if ('input_schema' in tool) return undefined;
  return { type: 'function', name: tool.name, description: tool.description };
}

/**
 * UTF-8 bytes of the surface's tools serialized in `format` (compact JSON of the array) and of its
 * instructions, plus the up-front part of the tools (without deferred definitions) and the deferred count.
 */
export function measureSurface(surface: Surface, format: SurfaceFormat): SurfaceMeasure {
  const tools: ProviderTool[] = toProviderTools(surface.tools, format);
  const toolBytes = utf8Length(JSON.stringify(tools));
  const deferredTools = surface.tools.filter((tool) => tool.deferred === true).length;
  const upFrontToolBytes = deferredTools === 0 ? toolBytes : utf8Length(JSON.stringify(tools.map(upFront).filter((tool) => tool !== undefined)));
  const instructionBytes = utf8Length(surface.instructions);
  return { toolBytes, instructionBytes, totalBytes: toolBytes + instructionBytes, upFrontToolBytes, deferredTools };
}
