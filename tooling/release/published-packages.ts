// The workspace packages that are published to npm, read from their package.json files.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/** One published package: its npm name, folder and the subpaths of its `exports` map that carry types. */
export interface PublishedPackage {
  readonly name: string;
  /** Folder under the repository root, e.g. `packages/catalog`. */
  readonly dir: string;
  /** `.`, `./testing`, … (every export with a `types` condition). */
  readonly entryPoints: readonly EntryPoint[];
  readonly manifest: Record<string, unknown>;
}

/** One subpath export: its subpath and its built declaration file relative to the package folder. */
export interface EntryPoint {
  readonly subpath: string;
  readonly types: string;
}

/** Every non-private package under `packages/`, sorted by folder name. */
export function listPublishedPackages(): PublishedPackage[] {
  const packagesDir = join(REPO_ROOT, 'packages');
  return readdirSync(packagesDir)
    .sort()
    .filter((folder) => existsSync(join(packagesDir, folder, 'package.json')))
    .map((folder) => {
      const manifest = JSON.parse(readFileSync(join(packagesDir, folder, 'package.json'), 'utf8')) as Record<string, unknown>;
      return { folder, manifest };
    })
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ folder, manifest }) => ({
      name: String(manifest.name),
      dir: `packages/${folder}`,
      entryPoints: typedEntryPoints(manifest),
      manifest,
    }));
}

/**
 * The npm names of the workspace's private packages (under `tooling/` and `packages/`): what no published package
 * may need at run time or in its types, since npm users cannot install them.
 */
export function listPrivatePackageNames(): Set<string> {
  const names = new Set<string>();
  for (const parent of ['packages', 'tooling']) {
    for (const folder of readdirSync(join(REPO_ROOT, parent))) {
      const manifestPath = join(REPO_ROOT, parent, folder, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name?: unknown; private?: unknown };
      if (manifest.private === true && typeof manifest.name === 'string') names.add(manifest.name);
    }
  }
  return names;
}

function typedEntryPoints(manifest: Record<string, unknown>): EntryPoint[] {
  const exportsMap = (manifest.exports ?? {}) as Record<string, unknown>;
  const entries: EntryPoint[] = [];
  for (const [subpath, target] of Object.entries(exportsMap)) {
    if (typeof target !== 'object' || target === null) continue;
    const types = (target as Record<string, unknown>).types;
    if (typeof types === 'string') entries.push({ subpath, types: types.replace(/^\.\//, '') });
  }
  return entries;
}
