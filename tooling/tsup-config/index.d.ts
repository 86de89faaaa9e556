import type { Options } from 'tsup';

export interface ToolSearchBuildOptions {
  entry?: string[] | Record<string, string>;
  platform?: 'node' | 'neutral';
  external?: string[];
}

/** Returns the shared build config. */
export declare function defineToolSearchConfig(options?: ToolSearchBuildOptions): Options;
