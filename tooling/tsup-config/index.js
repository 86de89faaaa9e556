// The one tsup preset every package builds with.
import { defineConfig } from 'tsup';

/**
 * Private workspace packages every package that imports them bundles, code and declarations, so that nothing
 * published depends on them at run time or in its types (`pnpm pack:check` checks it).
 */
export const BUNDLED_WORKSPACE_PACKAGES = [/^@tool-search\/error-base$/];

/**
 * Returns the shared build config. Packages with no Node API pass `platform: 'neutral'`
 * so that a stray `node:` import fails their build.
 * @param {{ entry?: string[] | Record<string, string>, dtsEntry?: string[] | Record<string, string>, platform?: 'node' | 'neutral', external?: string[] }} [options]
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
    // `resolve` inlines the bundled packages' declarations (tsup keeps every package it finds in node_modules an
    // import otherwise).
    dts: { ...(options.dtsEntry === undefined ? {} : { entry: options.dtsEntry }), resolve: BUNDLED_WORKSPACE_PACKAGES, compilerOptions: { customConditions: [] } },
    sourcemap: true,
    clean: true,
    splitting: false,
    treeshake: true,
    external: options.external ?? [],
    noExternal: BUNDLED_WORKSPACE_PACKAGES,
  });
}
