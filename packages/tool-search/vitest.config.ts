import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { sourceResolution } from '../../vitest.shared.ts';

export default defineProject({
  // The gateway's fixtures (the embeddings server) are repo-only test helpers, not an exported subpath.
  resolve: { alias: { '@tool-search/gateway-adapter/testing': fileURLToPath(new URL('../gateway-adapter/src/testing/index.ts', import.meta.url)) } },
  ssr: { resolve: sourceResolution },
  test: { name: 'tool-search', include: ['src/**/*.test.ts'] },
});
