import { defineToolSearchConfig } from '@tool-search/tsup-config';

export default defineToolSearchConfig({ platform: 'node', entry: ['src/index.ts', 'src/cli.ts'] });
