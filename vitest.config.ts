import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'tooling/error-base'],
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, where most test
    // files wait on real processes, servers and timers rather than the CPU. Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
