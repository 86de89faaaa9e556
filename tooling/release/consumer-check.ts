// `pnpm pack:consumer [--zod <version>] [--core]`: installs the packed packages with plain npm into a fresh
// project that depends on its own zod, as a stranger would, then shows `npm ls zod` and fails unless there is
// exactly one zod, the project's. It then imports every entry point, runs a catalog search and the CLI's
// --help on this Node, and type-checks a file importing every entry point against that zod (skipLibCheck off).
// `--core` leaves out the framework adapters, whose peers (ai, @openai/agents, langchain) set their own zod floors.
// Needs the packages built and the npm registry.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { packPublishedPackages } from './pack-packages.ts';
import { REPO_ROOT } from './published-packages.ts';

// The framework adapters, each with the Node major its framework needs (the rest of the packages run on Node 20).
const ADAPTERS = new Map([
  ['@tool-search/adk', 20],
  ['@tool-search/ai-sdk', 22],
  ['@tool-search/langchain', 20],
  ['@tool-search/mastra', 22],
  ['@tool-search/openai-agents', 22],
]);
const { values } = parseArgs({ options: { zod: { type: 'string', default: 'latest' }, core: { type: 'boolean', default: false }, keep: { type: 'boolean', default: false } } });

const work = mkdtempSync(join(tmpdir(), 'tool-search-consumer-'));
const run = (command: string, args: string[], cwd: string): string => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const packsDir = join(work, 'packs');
  const appDir = join(work, 'app');
  mkdirSync(packsDir);
  mkdirSync(appDir);
  const packed = (await packPublishedPackages(packsDir)).filter((entry) => !values.core || !ADAPTERS.has(entry.pkg.name));
  // A Node project has @types/node; our declarations name node:http and node:stream types.
  const dependencies: Record<string, string> = { zod: values.zod, '@types/node': '^20.19.8' };
  for (const entry of packed) dependencies[entry.pkg.name] = `file:${relative(appDir, entry.tarball)}`;
  writeFileSync(join(appDir, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }, null, 2)}\n`);
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], appDir);

  const zodTree = run('npm', ['ls', 'zod', '--all'], appDir);
  process.stdout.write(`$ npm ls zod --all\n${zodTree}\n`);
  const copies = run('npm', ['ls', 'zod', '--all', '--parseable'], appDir).split('\n').filter((line) => line.trim().length > 0);
  const distinct = [...new Set(copies)];
  process.stdout.write(`zod copies on disk: ${distinct.length} (${distinct.map((path) => relative(appDir, path)).join(', ')})\n`);
  if (distinct.length !== 1) throw new Error(`expected one zod in the consumer, found ${distinct.length}`);

  // Every entry point of every installed package, imported at run time (an adapter when this Node is new enough for its
  // framework) and by tsc.
  const specifiers = packed.flatMap((entry) => entry.pkg.entryPoints.map((point) => (point.subpath === '.' ? entry.pkg.name : `${entry.pkg.name}${point.subpath.slice(1)}`)));
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  const runnable = specifiers.filter((specifier) => [...ADAPTERS].every(([name, major]) => !specifier.startsWith(name) || nodeMajor >= major));
  writeFileSync(
    join(appDir, 'smoke.mjs'),
    [
      ...runnable.map((specifier, index) => `import * as m${index} from '${specifier}';`),
      `import { createCatalog } from '@tool-search/catalog';`,
      `for (const [index, m] of [${runnable.map((_, index) => `m${index}`).join(', ')}].entries()) if (Object.keys(m).length === 0) throw new Error('no exports: ' + ${JSON.stringify(runnable)}[index]);`,
      `const catalog = createCatalog([{ name: 'delete_file', source: 'openclaw', owner: 'core', description: 'Delete a file from the workspace.' }]);`,
      `const hits = catalog.search('remove a file');`,
      `if (hits[0]?.id !== 'openclaw:core:delete_file') throw new Error('unexpected hits ' + JSON.stringify(hits));`,
      `console.log('imported ${runnable.length} entry points; search found', hits[0].id);`,
    ].join('\n'),
  );
  process.stdout.write(run(process.execPath, ['smoke.mjs'], appDir));
  if (packed.some((entry) => entry.pkg.name === 'tool-search')) {
    const help = run(join(appDir, 'node_modules/.bin/tool-search'), ['--help'], appDir);
    process.stdout.write(`tool-search --help: ${help.split('\n')[0]}\n`);
  }
  writeFileSync(join(appDir, 'types.ts'), `${specifiers.map((specifier, index) => `export * as m${index} from '${specifier}';`).join('\n')}\n`);
  writeFileSync(
    join(appDir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, noEmit: true, types: ['node'] }, files: ['types.ts'] }),
  );
  // Our own TypeScript, against the consumer's node_modules: nothing else to download. Only errors in our
  // declaration files count: third-party ones (@types/json-schema, which the AI SDK's types
  // need and this bare project does not install) are counted and left to their owners.
  const tsc = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: appDir, encoding: 'utf8' });
  const diagnostics = tsc.stdout.split('\n').filter((line) => /^\S.*\(\d+,\d+\): error TS/.test(line));
  const ours = diagnostics.filter((line) => line.startsWith('types.ts') || /^node_modules\/(@tool-search\/|tool-search\/)/.test(line));
  const zodVersion = JSON.parse(run('npm', ['ls', 'zod', '--json'], appDir)).dependencies.zod.version as string;
  if (ours.length > 0 || (tsc.status !== 0 && diagnostics.length === 0)) throw new Error(`tsc over our declaration files with zod ${zodVersion} failed:\n${ours.join('\n') || tsc.stdout}`);
  process.stdout.write(`tsc (skipLibCheck: false) over ${specifiers.length} entry points with zod ${zodVersion}: no error in our declarations (${diagnostics.length} in third-party ones)\n`);
} finally {
  if (values.keep) process.stdout.write(`kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}
