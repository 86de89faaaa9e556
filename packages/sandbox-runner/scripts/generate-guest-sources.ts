// Regenerates src/internal/guest-sources.ts from src/guest: `pnpm --filter @tool-search/sandbox-runner generate:guest`.
// The build runs it first; a test checks the committed file is what it writes.
import { fileURLToPath } from 'node:url';
import { writeInlinedSourcesModule } from '@tool-search/inline-sources';
import { GUEST_INLINED_SOURCES } from './render-guest-sources.js';

const target = fileURLToPath(new URL('../src/internal/guest-sources.ts', import.meta.url));
writeInlinedSourcesModule(target, GUEST_INLINED_SOURCES);
console.log(`wrote ${target}`);
