import { defineToolSearchConfig } from '@tool-search/tsup-config';
import type { Options } from 'tsup';

// Chunks for the bin: each command (and its packages) loads only when it runs, so help and --version are quick.
const config: Options = { ...defineToolSearchConfig({ platform: 'node', entry: ['src/index.ts', 'src/cli.ts'] }), splitting: true };
export default config;
