import { defineToolSearchConfig } from '@tool-search/tsup-config';

type BuildOptions = ReturnType<typeof defineToolSearchConfig>;

const ENTRIES = { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' };
const WORDNET_ENTRY = { 'wordnet/index': 'src/wordnet/index.ts' };

// Two builds, run in parallel. ./wordnet (the WordNet table, 1.4 MB of one string) builds apart without a source
// map, which would only repeat the string; its types come from the first build, whose clean leaves its code alone.
const builds: BuildOptions[] = [
  { ...defineToolSearchConfig({ entry: ENTRIES, dtsEntry: { ...ENTRIES, ...WORDNET_ENTRY }, platform: 'neutral' }), clean: ['**', '!wordnet/index.js'] },
  { ...defineToolSearchConfig({ entry: WORDNET_ENTRY, platform: 'neutral' }), dts: false, sourcemap: false, clean: false },
];

export default builds;
