import { defineProject } from 'vitest/config';
import { sharedModules, sourceResolution, testTimeouts } from '../../vitest.shared.ts';

// ADK runs on the repo's Node 20 (its @google/genai needs >= 20), so the default pool. Without Vite's `module`
// condition: ADK's OpenTelemetry dependency exports a `module` build with extensionless imports that only bundlers
// accept, and vitest has Node import an external package from the file Vite resolved.
export default defineProject({
  ssr: { resolve: { conditions: sourceResolution.conditions.filter((condition) => condition !== 'module') } },
  test: { name: 'adk', include: ['src/**/*.test.ts', 'examples/**/*.test.ts'], ...testTimeouts({ test: 30_000, hook: 30_000 }), ...sharedModules },
});
