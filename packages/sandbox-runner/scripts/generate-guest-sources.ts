// Regenerates src/internal/guest-sources.ts from src/guest: `pnpm --filter @tool-search/sandbox-runner generate:guest`.
// The build runs it first; a test checks the committed file is what it writes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderGuestSourcesModule } from './render-guest-sources.js';

const target = fileURLToPath(new URL('../src/internal/guest-sources.ts', import.meta.url));
writeFileSync(target, renderGuestSourcesModule());
console.log(`wrote ${target}`);
