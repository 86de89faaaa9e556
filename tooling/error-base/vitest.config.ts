import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'error-base', include: ['*.test.ts'] },
});
