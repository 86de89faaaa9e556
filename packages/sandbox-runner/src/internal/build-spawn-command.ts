// The exact command line of a sandbox child: the OS layer (setpriv → unshare → prlimit) wrapped around Node
// with the process-layer flags and the inline bootstrap.
import type { RunnerLimits } from '../types.js';

/** Absolute paths of the util-linux tools the OS layer uses, and whether to add a mount namespace. */
export interface OsLayerTools {
  setpriv: string;
  unshare: string;
  prlimit: string;
  /**
   * Also a private mount namespace with a fresh `/proc` for the child's pid namespace (so the host's process
   * list and command lines are not there even if layer 3 failed). Off where mounting proc is not allowed.
   */
  mountProc?: boolean;
}

/** The uid/gid an OS-layer child runs as when the runner is root (`nobody` on most distributions). */
export const UNPRIVILEGED_ID = 65534;

/** RLIMIT_CPU backstop in seconds: above the longest allowed run, so the wall-clock kill always comes first. */
export const CPU_SECONDS_LIMIT = 62;

/** RLIMIT_NOFILE: Node needs a handful of fds (epoll, eventfd, the four stdio pipes). */
export const OPEN_FILES_LIMIT = 64;

/**
 * RLIMIT_DATA for a heap size. Node 26 fails to start below ~600 MiB (V8 reserves its code range and heap
 * cage up front, and RLIMIT_DATA counts private writable mappings), so the floor is 768 MiB; above that it
 * grows with the heap. It bounds ArrayBuffer memory, which lives outside the V8 heap.
 */
export function dataLimitBytes(heapMb: number): number {
  return Math.max(768, 512 + heapMb * 4) * 1024 * 1024;
}

/** The Node flags of layer 3: permission model with no grants, no code generation, no sqlite, a heap cap. */
export function nodeFlags(limits: RunnerLimits): string[] {
  return [
    '--permission',
    '--disallow-code-generation-from-strings',
    '--no-experimental-sqlite',
    `--max-old-space-size=${limits.heapMb}`,
    // Only so that vm's importModuleDynamically callback can reject import() with a realm error (see DESIGN.md).
    '--experimental-vm-modules',
    '--no-warnings',
  ];
}

/** Options of `buildSpawnCommand`. */
export interface SpawnCommandOptions {
  nodePath: string;
  bootstrap: string;
  limits: RunnerLimits;
  /** The OS layer's tools, or undefined for `node-only`. */
  osLayer: OsLayerTools | undefined;
  /** True when the runner is root: the child drops to `UNPRIVILEGED_ID`. */
  dropPrivileges: boolean;
}

/** Returns `{ command, args }` for `child_process.spawn`. */
export function buildSpawnCommand(options: SpawnCommandOptions): { command: string; args: string[] } {
  const node = [...nodeFlags(options.limits), '-e', options.bootstrap];
  if (options.osLayer === undefined) return { command: options.nodePath, args: node };
  const { setpriv, unshare, prlimit } = options.osLayer;
  const identity = options.dropPrivileges
    ? [`--reuid=${UNPRIVILEGED_ID}`, `--regid=${UNPRIVILEGED_ID}`, '--clear-groups']
    : [];
  return {
    command: setpriv,
    args: [
      ...identity,
      '--no-new-privs',
      // Set after the uid change (which would clear it): the chain dies with the parent.
      '--pdeathsig',
      'KILL',
      '--',
      unshare,
      '--user',
      '--net',
      '--pid',
      ...(options.osLayer.mountProc === true ? ['--mount', '--mount-proc'] : []),
      '--fork',
      '--kill-child',
      '--',
      prlimit,
      `--data=${dataLimitBytes(options.limits.heapMb)}`,
      `--cpu=${CPU_SECONDS_LIMIT}`,
      `--nofile=${OPEN_FILES_LIMIT}`,
      '--core=0',
      '--',
      options.nodePath,
      ...node,
    ],
  };
}
