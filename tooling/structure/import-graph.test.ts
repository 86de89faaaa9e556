// The structure drawn from the code (CONTRIBUTING.md's picture): no import circle among a package's own files, type-only
// imports included, and no import that runs up the layers (a package imports only packages below it; the shared
// tooling imports no package). Imports are read from the source text, so the check needs no build.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findImportCircles, readImportSpecifiers } from './import-graph.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The layers, lowest first: a package may import a package of a lower layer only. This is CONTRIBUTING.md's
 * picture; a new package gets its place here.
 */
const LAYERS: ReadonlyArray<readonly string[]> = [
  ['catalog', 'sandbox-runner'],
  ['policy', 'modes'],
  ['gateway-adapter'],
  // Private: the fixture hosts of the adapters' tests.
  ['adapter-fixtures'],
  ['mcp-server', 'redis-store', 'adk', 'ai-sdk', 'langchain', 'mastra', 'openai-agents'],
  ['tool-search'],
  ['e2e'],
];

/** The shared tooling packages: below every package, so they import none of them. */
const TOOLING_IMPORTABLE = new Set(['error-base', 'tsup-config', 'property-settings', 'test-utils', 'bench-stats', 'conformance-report', 'inline-sources']);

/** Upward imports not yet moved, each to be removed here when it is (none today). */
const KNOWN_UPWARD = new Set<string>();

const SOURCE_FILE = /\.(?:ts|mts|js|mjs)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.cache', '.turbo', 'data', 'coverage']);

function listSourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (SKIPPED_FOLDERS.has(entry) || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...listSourceFiles(path));
    else if (SOURCE_FILE.test(entry) && !entry.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

function folders(parent: string): string[] {
  return readdirSync(join(REPO_ROOT, parent))
    .filter((name) => statSync(join(REPO_ROOT, parent, name)).isDirectory())
    .map((name) => `${parent}/${name}`);
}

/** The workspace package an import specifier names (`@tool-search/x` → `x`, `tool-search` → `tool-search`), if any. */
function workspacePackageOf(specifier: string): string | undefined {
  if (specifier === 'tool-search' || specifier.startsWith('tool-search/')) return 'tool-search';
  const match = /^@tool-search\/([^/]+)/.exec(specifier);
  return match?.[1];
}

const layerOf = new Map(LAYERS.flatMap((names, layer) => names.map((name) => [name, layer] as const)));

describe('the import graph', () => {
  it('has no circle among the source files of any package or tooling folder', () => {
    const circles: string[] = [];
    for (const folder of [...folders('packages'), ...folders('tooling')]) {
      const files = listSourceFiles(join(REPO_ROOT, folder));
      for (const circle of findImportCircles(files)) circles.push(circle.map((file) => relative(REPO_ROOT, file)).join(' → '));
    }
    expect(circles).toEqual([]);
  });

  it('places every package of packages/ in a layer', () => {
    const unplaced = folders('packages')
      .map((folder) => folder.slice('packages/'.length))
      .filter((name) => !layerOf.has(name));
    expect(unplaced).toEqual([]);
  });

  it('has no import from a package to a package of its own or a higher layer', () => {
    const upward: string[] = [];
    for (const folder of folders('packages')) {
      const own = folder.slice('packages/'.length);
      const ownLayer = layerOf.get(own) ?? Number.POSITIVE_INFINITY;
      for (const file of listSourceFiles(join(REPO_ROOT, folder))) {
        for (const specifier of readImportSpecifiers(readFileSync(file, 'utf8'))) {
          const target = workspacePackageOf(specifier);
          if (target === undefined || target === own || TOOLING_IMPORTABLE.has(target)) continue;
          const targetLayer = layerOf.get(target);
          const arrow = `${relative(REPO_ROOT, file)} imports ${specifier}`;
          if ((targetLayer === undefined || targetLayer >= ownLayer) && !KNOWN_UPWARD.has(arrow)) upward.push(arrow);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no import from the shared tooling to a package', () => {
    const upward: string[] = [];
    for (const folder of folders('tooling')) {
      for (const file of listSourceFiles(join(REPO_ROOT, folder))) {
        // The release checks read the packages as a consumer would (their built tarballs and API), on purpose.
        if (folder === 'tooling/release') continue;
        for (const specifier of readImportSpecifiers(readFileSync(file, 'utf8'))) {
          const target = workspacePackageOf(specifier);
          if (target !== undefined && !TOOLING_IMPORTABLE.has(target)) upward.push(`${relative(REPO_ROOT, file)} imports ${specifier}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });
});

describe('findImportCircles', () => {
  it('finds a type-only circle and reports it once', () => {
    const files = new Map([
      ['/p/a.ts', "import type { B } from './b.js';\nexport type A = B;"],
      ['/p/b.ts', "import type { A } from './a.js';\nexport type B = string;"],
      ['/p/c.ts', "import { x } from './a.js';"],
    ]);
    expect(findImportCircles([...files.keys()], (path) => files.get(path) ?? '')).toEqual([['/p/a.ts', '/p/b.ts', '/p/a.ts']]);
  });

  it('follows re-exports and folder-relative paths, and finds none in a chain', () => {
    const files = new Map([
      ['/p/index.ts', "export { f } from './internal/f.js';"],
      ['/p/internal/f.ts', "import type { G } from '../g.js';\nexport const f = 1;"],
      ['/p/g.ts', 'export type G = number;'],
    ]);
    expect(findImportCircles([...files.keys()], (path) => files.get(path) ?? '')).toEqual([]);
    files.set('/p/g.ts', "export { f as g } from './index.js';");
    expect(findImportCircles([...files.keys()], (path) => files.get(path) ?? '')).toEqual([['/p/g.ts', '/p/index.ts', '/p/internal/f.ts', '/p/g.ts']]);
  });

  it('reports a loop of several files through a dispatcher once, as e2e agent loops had it', () => {
    const files = new Map([
      ['/p/run-loop.ts', "import { a } from './internal/a-loop.js';\nimport { b } from './internal/b-loop.js';\nexport type Options = {};"],
      ['/p/internal/a-loop.ts', "import type { Options } from '../run-loop.js';\nimport { turn } from './turn.js';"],
      ['/p/internal/b-loop.ts', "import type { Options } from '../run-loop.js';\nimport { turn } from './turn.js';"],
      ['/p/internal/turn.ts', "import type { Options } from '../run-loop.js';"],
    ]);
    expect(findImportCircles([...files.keys()], (path) => files.get(path) ?? '')).toEqual([['/p/internal/a-loop.ts', '/p/run-loop.ts', '/p/internal/a-loop.ts']]);
  });
});
