import type { Options } from 'tsup';

export interface ToolSearchBuildOptions {
  entry?: string[] | Record<string, string>;
  /** The entry points whose declarations are built, when they are not `entry`'s (default: `entry`). */
  dtsEntry?: string[] | Record<string, string>;
  platform?: 'node' | 'neutral';
  external?: string[];
}

/** Private workspace packages a package bundles (code and declarations) instead of depending on them. */
export declare const BUNDLED_WORKSPACE_PACKAGES: RegExp[];

/** Returns the shared build config. */
export declare function defineToolSearchConfig(options?: ToolSearchBuildOptions): Options;
