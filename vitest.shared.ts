// Unit tests import sibling packages from source, so they run without a build.
// The e2e project does not use this: it runs against built output.
import { fileURLToPath } from 'node:url';

const packagesDir = fileURLToPath(new URL('./packages/', import.meta.url));

export const sourceAliases = [
  { find: /^@tool-search\/([a-z-]+)\/testing$/, replacement: `${packagesDir}$1/src/testing/index.ts` },
  { find: /^@tool-search\/([a-z-]+)$/, replacement: `${packagesDir}$1/src/index.ts` },
];
