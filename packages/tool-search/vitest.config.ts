import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'tool-search', include: ['src/**/*.test.ts'] },
});
