import { defineProject } from 'vitest/config';
import { sharedModules, sourceResolution, testTimeouts } from '../../vitest.shared.ts';

// LangChain.js v1 supports Node >= 20, the repo's floor: the tests run on this Node (no poolForNode).
export default defineProject({
  ssr: { resolve: sourceResolution },
  test: { name: 'langchain', include: ['src/**/*.test.ts', 'examples/**/*.test.ts'], ...testTimeouts(), ...sharedModules },
});
