import { defineProject } from 'vitest/config';
import { testTimeouts } from '../../vitest.shared.ts';

export default defineProject({
  test: { name: 'error-base', include: ['*.test.ts'], ...testTimeouts() },
});
