import { readFileSync, writeFileSync } from 'node:fs';

/** What one generated module inlines, and how its header says where it comes from. */
export interface InlinedSources {
  /** The folder the files are read from (a `file:` URL ending in `/`, such as `new URL('../src/guest/', import.meta.url)`). */
  directory: URL;
  /** That folder as the generated module names it, relative to its package (`src/guest`). */
  shownDirectory: string;
  /** The comment lines at the top of the module (each without `// `): what writes it and how to run that. */
  header: readonly string[];
  /** Constant name → file in `directory`, in the order they are written. */
  sources: Readonly<Record<string, string>>;
}

/** The text of the module: the header, then `export const <NAME> = "<the file's text>";` for each source. */
export function renderInlinedSourcesModule(inlined: InlinedSources): string {
  if (!inlined.directory.href.endsWith('/')) throw new Error(`inline sources: directory ${inlined.directory.href} must end with "/"`);
  const lines = [...inlined.header.map((line) => `// ${line}`), ''];
  for (const [name, file] of Object.entries(inlined.sources)) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(name)) throw new Error(`inline sources: constant ${JSON.stringify(name)} is not a SCREAMING_SNAKE name`);
    const text = readFileSync(new URL(file, inlined.directory), 'utf8');
    lines.push(`/** The text of ${inlined.shownDirectory}/${file}. */`, `export const ${name} = ${JSON.stringify(text)};`, '');
  }
  return lines.join('\n');
}

/** Writes the module to `target` (a `file:` URL or path) and returns what it wrote. */
export function writeInlinedSourcesModule(target: URL | string, inlined: InlinedSources): string {
  const text = renderInlinedSourcesModule(inlined);
  writeFileSync(target, text);
  return text;
}
