import { defineProject } from 'vitest/config';
import { sourceResolution, testTimeouts } from '../../vitest.shared.ts';

export default defineProject({
  ssr: { resolve: sourceResolution },
  test: { name: 'mcp-server', include: ['src/**/*.test.ts'], ...testTimeouts() },
});
