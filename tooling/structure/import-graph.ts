// Import circles among source files, read from their text: every relative `import`/`export … from`, dynamic
// `import()` and `import type` counts, since a type-only circle is still two files that cannot be read apart.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s(?:[^'"`;]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The module specifiers a source file imports or re-exports from. */
export function readImportSpecifiers(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((match) => (match[1] ?? match[2]) as string);
}

/** The file a relative specifier names among `files` (`./x.js` is `x.ts` when that is the source), if any. */
function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(from), specifier);
  const stem = target.replace(/\.(?:[cm]?js|[cm]?ts)$/, '');
  const candidates = [target, `${stem}.ts`, `${stem}.mts`, `${stem}.js`, `${stem}.mjs`, `${target}/index.ts`, `${target}/index.js`];
  return candidates.find((candidate) => files.has(candidate));
}

/**
 * Every import circle among `files`, each as the path from its first file (in sorted order) back to it, one circle per
 * strongly connected group of files.
 */
export function findImportCircles(files: readonly string[], read: (path: string) => string = (path) => readFileSync(path, 'utf8')): string[][] {
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of [...files].sort()) {
    const targets = readImportSpecifiers(read(file)).flatMap((specifier) => resolveRelative(file, specifier, known) ?? []);
    edges.set(file, [...new Set(targets)].sort());
  }
  const reverse = new Map<string, string[]>();
  for (const [file, targets] of edges) for (const target of targets) reverse.set(target, [...(reverse.get(target) ?? []), file]);
  const circles: string[][] = [];
  const inCircle = new Set<string>();
  for (const start of edges.keys()) {
    if (inCircle.has(start)) continue;
    const path = shortestPathBack(start, edges);
    if (path === undefined) continue;
    // The whole group of files the circle belongs to (each reaches the others) is reported once, by this circle.
    const backward = reachable(start, reverse);
    for (const file of reachable(start, edges)) if (backward.has(file)) inCircle.add(file);
    circles.push(path);
  }
  return circles;
}

function reachable(start: string, edges: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set([start]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const target of edges.get(file) ?? []) {
      if (seen.has(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return seen;
}

/** The shortest import path from `start` back to itself (breadth first), or undefined when there is none. */
function shortestPathBack(start: string, edges: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const cameFrom = new Map<string, string>();
  let frontier = [start];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const file of frontier) {
      for (const target of edges.get(file) ?? []) {
        if (target === start) {
          const path = [start];
          for (let at: string | undefined = file; at !== start && at !== undefined; at = cameFrom.get(at)) path.splice(1, 0, at);
          return [...path, start];
        }
        if (cameFrom.has(target)) continue;
        cameFrom.set(target, file);
        next.push(target);
      }
    }
    frontier = next;
  }
  return undefined;
}
