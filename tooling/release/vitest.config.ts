import { defineProject } from 'vitest/config';
import { testTimeouts } from '../../vitest.shared.ts';

// What ships, checked as a consumer meets it: the READMEs' statements against the packages' metadata, and the README
// examples run from the packed tarballs in a plain npm project (needs the packages built, as `pnpm test` does first,
// and the npm registry).
export default defineProject({
  test: { name: 'release', include: ['*.test.ts'], ...testTimeouts() },
});
