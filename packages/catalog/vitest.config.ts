import { defineProject } from 'vitest/config';
import { sharedModules, sourceResolution, testTimeouts } from '../../vitest.shared.ts';

export default defineProject({
  ssr: { resolve: sourceResolution },
  test: { name: 'catalog', include: ['src/**/*.test.ts'], ...testTimeouts(), ...sharedModules },
});
