// A root runner drops the child to an unprivileged uid, which must be able to reach the Node binary. A project
// under a private directory (`/root/app`, a `mktemp -d` checkout) hides it; then the binary is staged in the temp
// directory, at one path per binary (hard-linked when it may be, copied read-only otherwise) that every later
// process reuses, so nothing piles up and nothing needs cleaning when a runner is killed.
import { chmodSync, copyFileSync, linkSync, lstatSync, mkdirSync, renameSync, rmSync, statSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { UNPRIVILEGED_ID } from './build-spawn-command.js';

/** Where the child's binary is, for a child that runs as another uid. */
export type StagedNodeBinary = { ok: true; path: string; staged: boolean } | { ok: false; reason: string };

const staged = new Map<string, StagedNodeBinary>();

/** The first of `directory` and its ancestors that others cannot search, if any. */
function firstHiddenDirectory(directory: string): string | undefined {
  for (; ; directory = dirname(directory)) {
    if ((statSync(directory).mode & 0o001) === 0) return directory;
    if (dirname(directory) === directory) return undefined;
  }
}

/** Ours and writable by nobody else: then nobody else can have put or changed anything in it. */
function ownedAndClosed(stats: Stats): boolean {
  return stats.uid === process.getuid?.() && (stats.mode & 0o022) === 0;
}

function stage(nodePath: string): StagedNodeBinary {
  const hidden = firstHiddenDirectory(dirname(nodePath));
  if (hidden === undefined) return { ok: true, path: nodePath, staged: false };
  const base = tmpdir();
  const hiddenBase = firstHiddenDirectory(base);
  if (hiddenBase !== undefined) {
    return { ok: false, reason: `${hidden} and the temp directory ${hiddenBase} are not searchable by uid ${UNPRIVILEGED_ID}` };
  }
  const source = statSync(nodePath);
  // Named after the binary's identity, so a new or rebuilt binary gets its own directory.
  const key = [process.getuid?.(), source.dev, source.ino, source.size, Math.floor(source.mtimeMs)].join('-');
  const directory = join(base, `tool-search-node-${key}`);
  try {
    mkdirSync(directory, { mode: 0o755 });
    chmodSync(directory, 0o755);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // The temp directory is shared: a directory someone else planted there (or a link to one) is never used.
  const stats = lstatSync(directory);
  if (!stats.isDirectory() || !ownedAndClosed(stats) || (stats.mode & 0o005) !== 0o005) {
    return { ok: false, reason: `${directory} exists but is not a directory of ours that only we can write` };
  }
  const target = join(directory, 'node');
  const existing = lstatSync(target, { throwIfNoEntry: false });
  if (existing !== undefined) {
    if (existing.isFile() && ownedAndClosed(existing) && existing.size === source.size) return { ok: true, path: target, staged: true };
    return { ok: false, reason: `${target} exists but is not a staged copy of ${nodePath}` };
  }
  // Built under a private name and renamed into place, so a concurrent or killed runner never leaves half a copy.
  const partial = join(directory, `node.${process.pid}.partial`);
  rmSync(partial, { force: true });
  let linked = false;
  // A link shares the inode, so it is only safe when nobody but the owner may write the binary.
  if (ownedAndClosed(source)) {
    try {
      linkSync(nodePath, partial);
      linked = true;
    } catch {
      // another filesystem, or links refused: copy instead
    }
  }
  if (!linked) {
    copyFileSync(nodePath, partial);
    chmodSync(partial, 0o555);
  }
  renameSync(partial, target);
  return { ok: true, path: target, staged: true };
}

/**
 * A path of `nodePath` that uid 65534 can exec: itself when every directory above it is searchable by others,
 * else a link or copy in the temp directory, one per binary, shared by every process that needs it.
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
