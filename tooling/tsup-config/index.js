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
    dts: true,
    sourcemap: true,
    clean: true,
    splitting: false,
    treeshake: true,
    external: options.external ?? [],
  });
}
