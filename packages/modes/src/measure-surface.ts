// measureSurface: the bytes a surface costs in a provider request, for telemetry and the benchmark.
import { utf8Length } from './internal/text.js';
import { toProviderTools } from './to-provider-tools.js';
import type { Surface, SurfaceFormat, SurfaceMeasure } from './types.js';

/** UTF-8 bytes of the surface's tools serialized in `format` (compact JSON of the array) and of its instructions. */
export function measureSurface(surface: Surface, format: SurfaceFormat): SurfaceMeasure {
  const toolBytes = utf8Length(JSON.stringify(toProviderTools(surface.tools, format)));
  const instructionBytes = utf8Length(surface.instructions);
  return { toolBytes, instructionBytes, totalBytes: toolBytes + instructionBytes };
}
