// The one tsup preset every package builds with.
import { defineConfig } from 'tsup';

/**
 * Returns the shared build config. Packages with no Node API pass `platform: 'neutral'`
 * so that a stray `node:` import fails their build.
 * @param {{ entry?: string[] | Record<string, string>, platform?: 'node' | 'neutral', external?: string[] }} [options]
 */
export function defineToolSearchConfig(options = {}) {
  return defineConfig({
    entry: options.entry ?? ['src/index.ts'],
    format: ['esm'],
    platform: options.platform ?? 'node',
    target: 'es2022',
    // Declarations read the siblings' built declarations (turbo builds them first), not their sources through
    // the `@tool-search/source` condition: the same output, without compiling every sibling again (gateway-adapter's
    // declarations: 18 s -> 11 s).
    dts: { compilerOptions: { customConditions: [] } },
    sourcemap: true,
    clean: true,
    splitting: false,
    treeshake: true,
    external: options.external ?? [],
  });
}
