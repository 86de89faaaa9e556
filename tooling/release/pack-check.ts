// `pnpm pack:check`: packs every published package and checks what a stranger would download: the files
// (LICENSE, README, CHANGELOG, every declared entry point), the published package.json (metadata, no workspace
// or catalog specifiers, runtime dependencies as ranges, none private), the built code and declarations (no import
// of a private workspace package: those are bundled) and the types under attw's ESM-only profile. Prints a
// table of sizes and results; exits 1 when anything fails, naming it.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packPublishedPackages, type PackedPackage } from './pack-packages.ts';
import { listPrivatePackageNames, REPO_ROOT } from './published-packages.ts';

const REQUIRED_FIELDS = ['description', 'keywords', 'license', 'author', 'homepage', 'repository', 'bugs', 'engines'] as const;
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[\w.]+)?$/;

/**
 * Third-party dependencies a package pins exactly, on purpose: sandbox-runner's QuickJS worker calls
 * quickjs-emscripten below its public API (one fence, checked on load and tested call by call; sandbox-runner
 * DESIGN, "The QuickJS fast path"), so an upgrade must be a deliberate change, not a range resolving anew.
 */
const EXACT_PINS: Record<string, readonly string[]> = {
  '@tool-search/sandbox-runner': ['quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync'],
};

const PRIVATE_PACKAGES = listPrivatePackageNames();

function checkManifest(packed: PackedPackage, rootLicense: string): string[] {
  const problems: string[] = [];
  const manifestText = execFileSync('tar', ['-xzOf', packed.tarball, 'package/package.json'], { encoding: 'utf8' });
  const manifest = JSON.parse(manifestText) as Record<string, unknown>;
  for (const field of REQUIRED_FIELDS) if (manifest[field] === undefined) problems.push(`package.json has no "${field}"`);
  const repository = manifest.repository as { directory?: string } | undefined;
  if (repository?.directory !== packed.pkg.dir) problems.push(`repository.directory is ${JSON.stringify(repository?.directory)}, expected "${packed.pkg.dir}"`);
  if (/"(workspace|catalog):/.test(manifestText)) problems.push('published package.json still has a workspace: or catalog: specifier');
  for (const field of ['dependencies', 'peerDependencies'] as const) {
    const deps = (manifest[field] ?? {}) as Record<string, string>;
    for (const [name, range] of Object.entries(deps)) {
      if (PRIVATE_PACKAGES.has(name)) problems.push(`${field}.${name} is a private workspace package (npm users cannot install it; bundle it)`);
      // Our own packages are released together; an exact pin of a third-party package forces a second copy, unless
      // the package reaches below that dependency's public API (EXACT_PINS, each with its reason).
      if (!name.startsWith('@tool-search/') && EXACT_VERSION.test(range) && !EXACT_PINS[packed.pkg.name]?.includes(name)) problems.push(`${field}.${name} is the exact version ${range}, expected a range`);
    }
  }
  for (const required of ['LICENSE', 'README.md', 'package.json']) {
    if (!packed.files.includes(required)) problems.push(`tarball has no ${required}`);
  }
  const files = (manifest.files ?? []) as string[];
  if (!files.includes('CHANGELOG.md')) problems.push('"files" does not list CHANGELOG.md');
  for (const entry of packed.pkg.entryPoints) {
    if (!packed.files.includes(entry.types)) problems.push(`tarball has no ${entry.types} (types of "${entry.subpath}")`);
  }
  if (packed.files.includes('LICENSE')) {
    const license = execFileSync('tar', ['-xzOf', packed.tarball, 'package/LICENSE'], { encoding: 'utf8' });
    if (license !== rootLicense) problems.push('LICENSE differs from the repository LICENSE');
  }
  return problems;
}

/** A module specifier in built code or declarations: `from '…'`, `import '…'`, `import('…')`, `require('…')`. */
const SPECIFIER = /(?:\bfrom|\bimport|\b(?:import|require)\s*\()\s*['"]([^'"]+)['"]/g;

/** One problem for each built file (dist/**: code and declarations) that imports a private workspace package. */
function checkNoPrivateImports(packed: PackedPackage, scratch: string): string[] {
  const folder = join(scratch, packed.pkg.name.replace('/', '+'));
  mkdirSync(folder, { recursive: true });
  execFileSync('tar', ['-xzf', packed.tarball, '-C', folder]);
  const problems: string[] = [];
  for (const file of packed.files.filter((path) => path.startsWith('dist/') && /\.(js|mjs|cjs|d\.ts|d\.mts|d\.cts)$/.test(path))) {
    const text = readFileSync(join(folder, 'package', file), 'utf8');
    const imported = new Set([...text.matchAll(SPECIFIER)].map((match) => match[1] ?? '').map((specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/')));
    for (const name of imported) if (PRIVATE_PACKAGES.has(name)) problems.push(`${file} imports the private workspace package ${name} (bundle it: BUNDLED_WORKSPACE_PACKAGES in tooling/tsup-config)`);
  }
  return problems;
}

function unpackedBytes(tarball: string): number {
  const listing = execFileSync('tar', ['-tzvf', tarball], { encoding: 'utf8' });
  return listing
    .split('\n')
    .filter((line) => line.length > 0)
    .reduce((sum, line) => sum + Number(line.trim().split(/\s+/)[2] ?? 0), 0);
}

function runAttw(tarball: string): { ok: boolean; output: string } {
  const result = spawnSync(join(REPO_ROOT, 'node_modules/.bin/attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji', '--no-color'], { encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}`.trim() };
}

const kilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`;

const destination = mkdtempSync(join(tmpdir(), 'tool-search-pack-'));
try {
  const rootLicense = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');
  const rows: string[][] = [];
  const failures: string[] = [];
  for (const packed of await packPublishedPackages(destination)) {
    const problems = [...checkManifest(packed, rootLicense), ...checkNoPrivateImports(packed, join(destination, 'unpacked'))];
    const attw = runAttw(packed.tarball);
    if (!attw.ok) problems.push(`attw --profile esm-only:\n${attw.output}`);
    rows.push([
      packed.pkg.name,
      String(packed.files.length),
      kilobytes(statSync(packed.tarball).size),
      kilobytes(unpackedBytes(packed.tarball)),
      packed.pkg.entryPoints.map((entry) => entry.subpath).join(' '),
      attw.ok ? 'clean' : 'PROBLEMS',
      problems.length === 0 ? 'ok' : `${problems.length} problem(s)`,
    ]);
    for (const problem of problems) failures.push(`${packed.pkg.name}: ${problem}`);
  }
  const header = ['package', 'files', 'packed', 'unpacked', 'entry points', 'attw (esm-only)', 'contents'];
  process.stdout.write(`| ${header.join(' | ')} |\n| ${header.map(() => '---').join(' | ')} |\n`);
  for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
  if (failures.length > 0) {
    process.stderr.write(`\npack:check failed:\n${failures.map((failure) => `- ${failure}`).join('\n')}\n`);
    process.exitCode = 1;
  }
} finally {
  rmSync(destination, { recursive: true, force: true });
}
