// The packages' README examples: each published package's examples/readme-example*.mjs, which its README shows
// whole, with what it prints (the file's .expected.txt, shown too) and the install line a consumer runs before it.
// Every other JS/TS block of a published README is configuration shown, not run: READMEs_SHOWN_NOT_RUN says why.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listPublishedPackages, REPO_ROOT, type PublishedPackage } from './published-packages.ts';

/** One README example of a package. */
export interface ReadmeExample {
  readonly pkg: PublishedPackage;
  /** Its file name under examples/: `readme-example.mjs`, `readme-example-<topic>.mjs`. */
  readonly file: string;
  /** The example file's text. */
  readonly source: string;
  /** What it prints when it runs. */
  readonly expected: string;
  readonly readme: string;
  /** The packages of the README's install line (its first `npm install …` or `pnpm add …` sh block); none without one. */
  readonly installs: readonly string[];
}

const EXAMPLE_FILE = /^readme-example(?:-[a-z0-9]+(?:-[a-z0-9]+)*)?\.mjs$/;

/** Every README example of every published package, sorted by folder, then file (`readme-example.mjs` first). */
export function listReadmeExamples(): ReadmeExample[] {
  return listPublishedPackages().flatMap((pkg) => {
    const examplesDir = join(REPO_ROOT, pkg.dir, 'examples');
    if (!existsSync(examplesDir)) return [];
    const read = (path: string): string => readFileSync(join(REPO_ROOT, pkg.dir, path), 'utf8');
    const readme = read('README.md');
    const files = readdirSync(examplesDir).filter((file) => EXAMPLE_FILE.test(file)).sort((a, b) => a.length - b.length || a.localeCompare(b));
    return files.map((file) => ({
      pkg,
      file,
      source: read(`examples/${file}`),
      expected: read(`examples/${file.replace(/\.mjs$/, '.expected.txt')}`),
      readme,
      installs: installLine(readme),
    }));
  });
}

/** The name a consumer project gives an example: `<package folder>--<file>`, unique across packages. */
export function consumerFileName(example: ReadmeExample): string {
  return `${example.pkg.dir.split('/')[1]}--${example.file}`;
}

function installLine(readme: string): string[] {
  const command = /^```sh\n(?:npm install|pnpm add) ([^\n]+)\n```/m.exec(readme)?.[1];
  return command === undefined ? [] : command.trim().split(/\s+/);
}

/** The JS/TS code blocks of a README (```js, ```ts, ```mjs, …): each block's text. */
export function scriptBlocks(readme: string): string[] {
  return [...readme.matchAll(/^```(?:js|mjs|ts|javascript|typescript)\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

/** The npm package a bare import specifier names (`ai/test` is `ai`, `@mastra/core/agent` is `@mastra/core`). */
export function packageOfSpecifier(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** The bare specifiers a module imports (static `import … from '…'` and `import '…'`), without `node:` builtins. */
export function bareImports(source: string): string[] {
  const specifiers = [...source.matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map((match) => match[1] ?? '');
  return specifiers.filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'));
}

/** The workspace catalog (`pnpm-workspace.yaml`): what a `catalog:` specifier stands for. */
export function workspaceCatalog(): Map<string, string> {
  const yaml = readFileSync(join(REPO_ROOT, 'pnpm-workspace.yaml'), 'utf8');
  const block = /^catalog:\n((?:[ \t]+.*\n|[ \t]*#.*\n|\n)*)/m.exec(yaml)?.[1] ?? '';
  const entries = new Map<string, string>();
  for (const line of block.split('\n')) {
    const entry = /^\s+"?([^"#:\s][^":]*?)"?:\s*(\S.*?)\s*$/.exec(line);
    if (entry?.[1] !== undefined && entry[2] !== undefined) entries.set(entry[1], entry[2]);
  }
  return entries;
}

/** A package's dependency ranges as npm users get them (`catalog:` replaced by the catalog's range). */
export function publishedRanges(pkg: PublishedPackage, field: 'dependencies' | 'peerDependencies'): Map<string, string> {
  const catalog = workspaceCatalog();
  const ranges = new Map<string, string>();
  for (const [name, range] of Object.entries((pkg.manifest[field] ?? {}) as Record<string, string>)) {
    const resolved = range === 'catalog:' ? catalog.get(name) : range;
    if (resolved === undefined) throw new Error(`${pkg.name}: ${name} is "catalog:" but pnpm-workspace.yaml's catalog has no ${name}`);
    ranges.set(name, resolved);
  }
  return ranges;
}

/** The Node range a package declares (`engines.node`). */
export function nodeRange(pkg: PublishedPackage): string {
  const range = (pkg.manifest.engines as { node?: unknown } | undefined)?.node;
  if (typeof range !== 'string') throw new Error(`${pkg.name}: package.json declares no engines.node`);
  return range;
}
