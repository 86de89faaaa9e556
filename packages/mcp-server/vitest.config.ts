import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: sourceAliases },
  test: { name: 'mcp-server', include: ['src/**/*.test.ts'] },
});
