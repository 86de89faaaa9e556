// Reads a package's src/index.ts (the public contract) and lists its exported names, split into values
// and types. The contract is written as `export { a, b } from './x.js'` / `export type { T } from './x.js'`
// (house style: named exports only, no `export *`), which is all this parser needs to understand.
import { readFileSync } from 'node:fs';

/** The names one package's index.ts exports. */
export interface PublicExports {
  values: string[];
  types: string[];
}

/** Lists the value and type exports of the index.ts at `indexPath`. */
export function readPublicExports(indexPath: string): PublicExports {
  const source = readFileSync(indexPath, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const values: string[] = [];
  const types: string[] = [];
  for (const match of source.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
    const isTypeBlock = match[1] !== undefined;
    for (const raw of (match[2] ?? '').split(',')) {
      const item = raw.trim();
      if (item === '') continue;
      const isType = isTypeBlock || item.startsWith('type ');
      const name = item.replace(/^type\s+/, '').split(/\s+as\s+/).pop()!.trim();
      (isType ? types : values).push(name);
    }
  }
  if (/export\s+\*/.test(source)) throw new Error(`${indexPath}: \`export *\` is not allowed in a public contract`);
  return { values: [...new Set(values)].sort(), types: [...new Set(types)].sort() };
}
