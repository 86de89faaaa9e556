import { defineProject } from 'vitest/config';
import { testTimeouts } from '../../vitest.shared.ts';

// e2e runs against the other packages' built output (their `dist`), so no source aliases here:
// `@tool-search/<pkg>` resolves through node_modules to the package's exports map.
export default defineProject({
  test: {
    name: 'e2e',
    include: ['src/**/*.test.ts'],
    ...testTimeouts({ test: 60_000, hook: 60_000 }),
  },
});
