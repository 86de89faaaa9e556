import { defineProject } from 'vitest/config';
import { testTimeouts } from '../../vitest.shared.ts';

export default defineProject({
  test: { name: 'property-settings', include: ['*.test.ts'], ...testTimeouts() },
});
