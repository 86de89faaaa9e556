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
 * RLIMIT_NPROC: processes and threads of the child's uid, counted per user namespace (each child has its own).
 * Node 26 starts with about ten threads (main, V8 platform workers, libuv pool); it cannot start with 4.
 */
export const PROCESSES_LIMIT = 32;

/** RLIMIT_FSIZE: the child writes no regular file at all, so any write past 0 bytes is refused (SIGXFSZ). */
export const FILE_SIZE_LIMIT = 0;

/**
 * RLIMIT_DATA for a heap size. Node 26 needs most of the floor of 768 MiB just to start (V8 reserves its code
 * range and heap cage up front, and RLIMIT_DATA counts private writable mappings; bench/RESULTS.md has the
 * figure); above that it grows with the heap. It bounds ArrayBuffer memory, which lives outside the V8 heap.
 */
export function dataLimitBytes(heapMb: number): number {
  return Math.max(768, 512 + heapMb * 4) * 1024 * 1024;
}

/** The Node flags of layer 3: permission model with no grants, no code generation, no sqlite or ffi, a heap cap. */
export function nodeFlags(limits: RunnerLimits): string[] {
  return [
    '--permission',
    '--disallow-code-generation-from-strings',
    '--no-experimental-sqlite',
    '--no-experimental-ffi',
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

/**
 * The fd the OS layer hands the Node binary on: the chain execs `/proc/self/fd/4`, so the child's argv0 (which
 * Node does not let anything redefine) names no path of the host. The bootstrap closes it first.
 */
export const BINARY_FD = 4;

/** What `child_process.spawn` needs: the command, its arguments, and how Node itself is named and found. */
export interface SpawnCommand {
  command: string;
  args: string[];
  /** argv[0] of the spawned command (node-only: 'node' instead of the binary's path). */
  argv0?: string;
  /** Open the Node binary on `BINARY_FD` for the chain to exec (OS layer). */
  binaryOnFd?: string;
}

/** Returns what `child_process.spawn` needs to start one child. */
export function buildSpawnCommand(options: SpawnCommandOptions): SpawnCommand {
  const node = [...nodeFlags(options.limits), '-e', options.bootstrap];
  if (options.osLayer === undefined) return { command: options.nodePath, args: node, argv0: 'node' };
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
      '--ipc',
      ...(options.osLayer.mountProc === true ? ['--mount', '--mount-proc'] : []),
      '--fork',
      '--kill-child',
      '--',
      prlimit,
      `--data=${dataLimitBytes(options.limits.heapMb)}`,
      `--cpu=${CPU_SECONDS_LIMIT}`,
      `--nofile=${OPEN_FILES_LIMIT}`,
      `--nproc=${PROCESSES_LIMIT}`,
      `--fsize=${FILE_SIZE_LIMIT}`,
      '--core=0',
      '--',
      `/proc/self/fd/${BINARY_FD}`,
      ...node,
    ],
    binaryOnFd: options.nodePath,
  };
}
