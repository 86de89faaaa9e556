// Packs every published package with pnpm (as `pnpm publish` would: workspace: and catalog: specifiers replaced).
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { listPublishedPackages, REPO_ROOT, type PublishedPackage } from './published-packages.ts';

const execFileAsync = promisify(execFile);

/** One packed package: the tarball path and the files pnpm put in it. */
export interface PackedPackage {
  readonly pkg: PublishedPackage;
  readonly tarball: string;
  readonly files: readonly string[];
}

/**
 * Packs each published package into `destination` (which must exist), a few at a time (each `pnpm pack` is mostly
 * pnpm starting and gzip writing, so they overlap well), in the order of `listPublishedPackages`. Expects the
 * packages to be built.
 */
export async function packPublishedPackages(destination: string): Promise<PackedPackage[]> {
  const pending = listPublishedPackages();
  const packed = new Map<PublishedPackage, PackedPackage>();
  const packNext = async (): Promise<void> => {
    for (let pkg = pending.shift(); pkg !== undefined; pkg = pending.shift()) {
      const { stdout } = await execFileAsync('pnpm', ['pack', '--pack-destination', destination, '--json'], {
        cwd: join(REPO_ROOT, pkg.dir),
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      const report = JSON.parse(stdout) as { filename: string; files: { path: string }[] };
      packed.set(pkg, { pkg, tarball: report.filename, files: report.files.map((file) => file.path) });
    }
  };
  const order = [...pending];
  await Promise.all(Array.from({ length: Math.min(pending.length, availableParallelism() + 2) }, packNext));
  return order.map((pkg) => packed.get(pkg)!);
}
