import { defineProject } from 'vitest/config';
import { testTimeouts } from '../../vitest.shared.ts';

export default defineProject({
  test: { name: 'bench-stats', include: ['*.test.ts'], ...testTimeouts() },
});
