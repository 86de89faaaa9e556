// A root runner drops the child to an unprivileged uid, which must be able to reach the Node binary. A project
// under a private directory (`/root/app`, a `mktemp -d` checkout) hides it; then the binary is staged once per
// process in a root-owned, world-traversable directory: hard-linked when it may be, copied read-only otherwise.
import { chmodSync, copyFileSync, linkSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { UNPRIVILEGED_ID } from './build-spawn-command.js';

/** Where the child's binary is, for a child that runs as another uid. */
export type StagedNodeBinary = { ok: true; path: string; staged: boolean } | { ok: false; reason: string };

const staged = new Map<string, StagedNodeBinary>();
const stagingDirectories: string[] = [];

/** The first of `directory` and its ancestors that others cannot search, if any. */
function firstHiddenDirectory(directory: string): string | undefined {
  for (; ; directory = dirname(directory)) {
    if ((statSync(directory).mode & 0o001) === 0) return directory;
    if (dirname(directory) === directory) return undefined;
  }
}

function removeStagingDirectories(): void {
  for (const directory of stagingDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
}

function stage(nodePath: string): StagedNodeBinary {
  const hidden = firstHiddenDirectory(dirname(nodePath));
  if (hidden === undefined) return { ok: true, path: nodePath, staged: false };
  const base = tmpdir();
  const hiddenBase = firstHiddenDirectory(base);
  if (hiddenBase !== undefined) {
    return { ok: false, reason: `${hidden} and the temp directory ${hiddenBase} are not searchable by uid ${UNPRIVILEGED_ID}` };
  }
  const directory = mkdtempSync(join(base, 'tool-search-node-'));
  if (stagingDirectories.push(directory) === 1) process.once('exit', removeStagingDirectories);
  chmodSync(directory, 0o755);
  const target = join(directory, 'node');
  // A link shares the inode, so it is only safe when nobody but the owner may write the binary.
  const writableByOthers = (statSync(nodePath).mode & 0o022) !== 0;
  let linked = false;
  if (!writableByOthers) {
    try {
      linkSync(nodePath, target);
      linked = true;
    } catch {
      // another filesystem, or links refused: copy instead
    }
  }
  if (!linked) {
    copyFileSync(nodePath, target);
    chmodSync(target, 0o555);
  }
  return { ok: true, path: target, staged: true };
}

/**
 * A path of `nodePath` that uid 65534 can exec: itself when every directory above it is searchable by others,
 * else a staged link or copy (once per binary and process, removed when the process exits).
 */
export function stageNodeBinary(nodePath: string): StagedNodeBinary {
  let result = staged.get(nodePath);
  if (result === undefined) {
    try {
      result = stage(nodePath);
    } catch (error) {
      result = { ok: false, reason: `could not stage ${nodePath} for uid ${UNPRIVILEGED_ID}: ${(error as Error).message}` };
    }
    staged.set(nodePath, result);
  }
  return result;
}
