// The default caps on a tool result's binary parts (decoded bytes).
import type { MediaLimits } from './types.js';

/** 5 MiB per part (Anthropic's per-image limit, the strictest of the formats) and 20 MiB per result. */
export const DEFAULT_MEDIA_LIMITS: Readonly<MediaLimits> = Object.freeze({ maxPartBytes: 5 * 1024 * 1024, maxTotalBytes: 20 * 1024 * 1024 });
