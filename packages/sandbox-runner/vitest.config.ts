import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: sourceAliases },
  test: { name: 'sandbox-runner', include: ['src/**/*.test.ts'] },
});
