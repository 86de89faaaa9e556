// `pnpm api:check` / `pnpm api:update`: one API Extractor report per entry point of every published package,
// read from the built declarations (run the build first), committed as packages/<pkg>/api/<report>.api.md.
// check fails when a report differs from the built types, printing the diff and the command that updates it;
// update rewrites the reports (and deletes those of entry points that are gone).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor';
import { listPublishedPackages, REPO_ROOT, type EntryPoint, type PublishedPackage } from './published-packages.ts';

const mode = process.argv[2];
if (mode !== 'check' && mode !== 'update') {
  process.stderr.write(`usage: api-report.ts check|update (received ${JSON.stringify(mode)})\n`);
  process.exit(2);
}

/** `catalog` for `@tool-search/catalog`, `catalog-testing` for its `./testing`. */
function reportName(pkg: PublishedPackage, entry: EntryPoint): string {
  const base = pkg.name.replace(/^@[^/]+\//, '');
  return entry.subpath === '.' ? base : `${base}-${entry.subpath.slice(2).replaceAll('/', '-')}`;
}

/** Generates one entry point's report into `folder`; returns the messages that are errors. */
function generateReport(pkg: PublishedPackage, entry: EntryPoint, folder: string): string[] {
  const packageFolder = join(REPO_ROOT, pkg.dir);
  const typesFile = join(packageFolder, entry.types);
  if (!existsSync(typesFile)) return [`${pkg.name} ${entry.subpath}: ${entry.types} is missing; build first (pnpm build)`];
  const config = ExtractorConfig.prepare({
    configObjectFullPath: join(packageFolder, 'api-extractor.json'),
    packageJsonFullPath: join(packageFolder, 'package.json'),
    configObject: {
      projectFolder: packageFolder,
      mainEntryPointFilePath: typesFile,
      apiReport: { enabled: true, reportFileName: reportName(pkg, entry), reportFolder: folder, reportTempFolder: folder, includeForgottenExports: false },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: 'lf',
      compiler: {
        overrideTsconfig: {
          compilerOptions: { target: 'ES2022', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: ['node'] },
          files: [typesFile],
        },
      },
      messages: {
        // We do not tag releases (@public, @beta) in JSDoc; every export of an entry point is public.
        extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning }, 'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None }, 'ae-undocumented': { logLevel: ExtractorLogLevel.None }, 'ae-forgotten-export': { logLevel: ExtractorLogLevel.None, addToApiReportFile: true } },
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
        compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
      },
    },
  });
  const problems: string[] = [];
  Extractor.invoke(config, {
    localBuild: true,
    messageCallback: (message: ExtractorMessage) => {
      // The report's changed/unchanged notices are ours to handle; the bundled TypeScript's version is noise.
      if (message.messageId === 'console-api-report-changed' || message.messageId === 'console-api-report-created' || message.messageId === 'console-compiler-version-notice') {
        message.handled = true;
        return;
      }
      // A dependency that ships TypeScript source as its types (langchain's @langchain/protocol points `types` at
      // protocol.ts) is in the program as a .ts file; it is not ours to report on, and nothing of it is in our reports.
      if (message.messageId === 'ae-wrong-input-file-type' && message.sourceFilePath?.includes('/node_modules/') === true) {
        message.handled = true;
        return;
      }
      if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning) {
        problems.push(`${pkg.name} ${entry.subpath}: [${message.messageId}] ${message.text}${message.sourceFilePath ? ` (${message.sourceFilePath}:${message.sourceFileLine})` : ''}`);
      }
      message.handled = true;
    },
  });
  return problems;
}

const generated = mkdtempSync(join(tmpdir(), 'tool-search-api-'));
let failed = false;
try {
  const changed: string[] = [];
  for (const pkg of listPublishedPackages()) {
    const reportFolder = join(REPO_ROOT, pkg.dir, 'api');
    const scratch = join(generated, reportName(pkg, { subpath: '.', types: '' }));
    mkdirSync(scratch, { recursive: true });
    const expected = new Set<string>();
    for (const entry of pkg.entryPoints) {
      const problems = generateReport(pkg, entry, scratch);
      if (problems.length > 0) {
        failed = true;
        process.stderr.write(`${problems.join('\n')}\n`);
        continue;
      }
      const file = `${reportName(pkg, entry)}.api.md`;
      expected.add(file);
      const fresh = readFileSync(join(scratch, file), 'utf8');
      const committedPath = join(reportFolder, file);
      const committed = existsSync(committedPath) ? readFileSync(committedPath, 'utf8') : undefined;
      if (committed === fresh) continue;
      changed.push(`${pkg.dir}/api/${file}`);
      if (mode === 'update') {
        mkdirSync(reportFolder, { recursive: true });
        writeFileSync(committedPath, fresh);
      } else {
        const diff = spawnSync('git', ['diff', '--no-index', '--no-color', committed === undefined ? '/dev/null' : `${pkg.dir}/api/${file}`, join(scratch, file)], { cwd: REPO_ROOT, encoding: 'utf8' });
        process.stdout.write(diff.stdout);
      }
    }
    const stale = existsSync(reportFolder) ? readdirSync(reportFolder).filter((file) => file.endsWith('.api.md') && !expected.has(file)) : [];
    for (const file of stale) {
      changed.push(`${pkg.dir}/api/${file} (entry point gone)`);
      if (mode === 'update') rmSync(join(reportFolder, file));
    }
  }
  if (mode === 'update') {
    process.stdout.write(changed.length === 0 ? 'API reports up to date\n' : `updated:\n${changed.map((file) => `  ${file}`).join('\n')}\n`);
  } else if (changed.length > 0) {
    failed = true;
    process.stderr.write(`\nThe public API differs from the committed reports:\n${changed.map((file) => `  ${file}`).join('\n')}\nIf the change is meant, run \`pnpm api:update\` (after \`pnpm build\`) and commit the reports.\n`);
  } else {
    process.stdout.write('API reports match the built declarations\n');
  }
} finally {
  rmSync(generated, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
