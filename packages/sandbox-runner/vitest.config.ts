import { defineProject } from 'vitest/config';
import { sourceResolution, testTimeouts } from '../../vitest.shared.ts';

export default defineProject({
  ssr: { resolve: sourceResolution },
  test: { name: 'sandbox-runner', include: ['src/**/*.test.ts'], ...testTimeouts() },
});
