import { defineToolSearchConfig } from '@tool-search/tsup-config';
import type { Options } from 'tsup';

// ./startup is what a command loads before the host (config conversions, the root logger, spawning stdio servers
// ahead): split into shared chunks, so it loads only its own modules and the root reuses them.
const config: Options = { ...defineToolSearchConfig({ platform: 'node', entry: ['src/index.ts', 'src/startup.ts'] }), splitting: true };
export default config;
