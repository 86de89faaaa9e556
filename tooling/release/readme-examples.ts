// The framework adapters' README examples: each package's examples/readme-example.mjs, which its README shows whole,
// with what it prints (readme-example.expected.txt) and the install line a consumer runs before it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listPublishedPackages, REPO_ROOT, type PublishedPackage } from './published-packages.ts';

/** One package's README example. */
export interface ReadmeExample {
  readonly pkg: PublishedPackage;
  /** The example file's text. */
  readonly source: string;
  /** What it prints when it runs. */
  readonly expected: string;
  readonly readme: string;
  /** The packages of the README's install line (`npm install a b c`, the first `sh` block under "## Install"); none without one. */
  readonly installs: readonly string[];
}

/** Every published package that has an examples/readme-example.mjs, sorted by folder. */
export function listReadmeExamples(): ReadmeExample[] {
  return listPublishedPackages()
    .filter((pkg) => existsSync(join(REPO_ROOT, pkg.dir, 'examples/readme-example.mjs')))
    .map((pkg) => {
      const read = (path: string): string => readFileSync(join(REPO_ROOT, pkg.dir, path), 'utf8');
      const readme = read('README.md');
      return { pkg, source: read('examples/readme-example.mjs'), expected: read('examples/readme-example.expected.txt'), readme, installs: installLine(readme) };
    });
}

function installLine(readme: string): string[] {
  const command = /^## Install\n+```sh\nnpm install ([^\n]+)\n```/m.exec(readme)?.[1];
  return command === undefined ? [] : command.trim().split(/\s+/);
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
