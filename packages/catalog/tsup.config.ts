import { defineToolSearchConfig } from '@tool-search/tsup-config';

export default defineToolSearchConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  platform: 'neutral',
});
