// Packs every published package with pnpm (as `pnpm publish` would: workspace: and catalog: specifiers replaced).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { listPublishedPackages, REPO_ROOT, type PublishedPackage } from './published-packages.ts';

/** One packed package: the tarball path and the files pnpm put in it. */
export interface PackedPackage {
  readonly pkg: PublishedPackage;
  readonly tarball: string;
  readonly files: readonly string[];
}

/** Packs each published package into `destination` (which must exist). Expects the packages to be built. */
export function packPublishedPackages(destination: string): PackedPackage[] {
  return listPublishedPackages().map((pkg) => {
    const output = execFileSync('pnpm', ['pack', '--pack-destination', destination, '--json'], {
      cwd: join(REPO_ROOT, pkg.dir),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const report = JSON.parse(output) as { filename: string; files: { path: string }[] };
    return { pkg, tarball: report.filename, files: report.files.map((file) => file.path) };
  });
}
