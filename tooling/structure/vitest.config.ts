import { defineProject } from 'vitest/config';
import { testTimeouts } from '../../vitest.shared.ts';

// The structure drawn from the code: import circles and imports that run up the layers (CONTRIBUTING.md).
export default defineProject({
  test: { name: 'structure', include: ['*.test.ts'], ...testTimeouts() },
});
