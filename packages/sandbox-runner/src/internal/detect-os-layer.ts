// Whether layer 4 (namespaces, rlimits, dropped uid, die-with-parent) can be built on this machine.
import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';
import { UNPRIVILEGED_ID, type OsLayerTools } from './build-spawn-command.js';

/** Fixed system directories searched for util-linux tools (not `PATH`, which the caller's environment controls). */
export const SYSTEM_BIN_DIRECTORIES = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

/** The OS layer's tools and whether the child must drop root, or why the layer is unavailable. */
export type OsLayerDetection =
  | { ok: true; tools: OsLayerTools; dropPrivileges: boolean }
  | { ok: false; reason: string };

function findExecutable(name: string): string | undefined {
  for (const directory of SYSTEM_BIN_DIRECTORIES) {
    const candidate = join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // try the next directory
    }
  }
  return undefined;
}

/** Looks for `setpriv`, `unshare` and `prlimit` on Linux and checks the uid the child will run as can exec Node. */
export function detectOsLayer(nodePath: string): OsLayerDetection {
  if (process.platform !== 'linux') return { ok: false, reason: `namespaces need Linux (this is ${process.platform})` };
  const setpriv = findExecutable('setpriv');
  const unshare = findExecutable('unshare');
  const prlimit = findExecutable('prlimit');
  if (setpriv === undefined || unshare === undefined || prlimit === undefined) {
    const missing = [
      ['setpriv', setpriv],
      ['unshare', unshare],
      ['prlimit', prlimit],
    ]
      .filter(([, path]) => path === undefined)
      .map(([name]) => name);
    return { ok: false, reason: `util-linux tools missing: ${missing.join(', ')}` };
  }
  const dropPrivileges = process.getuid?.() === 0;
  if (dropPrivileges) {
    // Others need r-x on the binary itself; directories on the way are proven by the canary run.
    const mode = statSync(nodePath).mode;
    if ((mode & 0o005) !== 0o005) {
      return { ok: false, reason: `${nodePath} is not readable and executable by uid ${UNPRIVILEGED_ID}` };
    }
  }
  return { ok: true, tools: { setpriv, unshare, prlimit, mountProc: true }, dropPrivileges };
}
