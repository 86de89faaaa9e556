// Regenerates src/cli/console/console-page-sources.ts from src/cli/console/page:
// `pnpm --filter tool-search generate:console`. The build runs it first; a test checks the committed file is what
// it writes.
import { fileURLToPath } from 'node:url';
import { writeInlinedSourcesModule } from '@tool-search/inline-sources';
import { CONSOLE_INLINED_SOURCES } from './render-console-sources.js';

const target = fileURLToPath(new URL('../src/cli/console/console-page-sources.ts', import.meta.url));
writeInlinedSourcesModule(target, CONSOLE_INLINED_SOURCES);
console.log(`wrote ${target}`);
