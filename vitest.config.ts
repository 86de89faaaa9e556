import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { timeoutScale } from './vitest.shared.ts';

// One timeout scale for the whole run, fixed here before any project or worker reads it (see `testTimeouts` in
// vitest.shared.ts): on a machine other work keeps busy, every test and hook timeout grows by it.
const scale = timeoutScale();
if (scale > 1) process.stderr.write(`test timeouts x${scale} (TOOL_SEARCH_TIMEOUT_SCALE; set it to choose)\n`);

export default defineConfig({
  test: {
    projects: ['packages/*', 'tooling/bench-stats', 'tooling/error-base', 'tooling/property-settings', 'tooling/release', 'tooling/structure'],
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, where most test
    // files wait on real processes, servers and timers rather than the CPU. Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
